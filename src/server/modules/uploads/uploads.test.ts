import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../db/schema/uploads.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { as, catalogTestContext, multipart, testImage } from '../catalog/test-support.ts';
import { sniffImage } from './service.ts';

let t: Awaited<ReturnType<typeof catalogTestContext>>;
beforeAll(async () => {
  t = await catalogTestContext();
});
afterAll(() => t.close());

const stored = () => {
  const dir = path.join(t.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const rowCount = async () => (await t.deps.db.select({ n: count() }).from(uploads))[0]!.n;
const post = (who: 'admin' | 'user' | null, body: BodyInit, headers: Record<string, string> = {}) =>
  as(t, who).raw('/api/admin/uploads', { method: 'POST', body, headers });

describe('sniffImage', () => {
  it('recognises PNG, JPEG and WebP by their bytes', async () => {
    expect(sniffImage(await testImage('png'))).toBe('image/png');
    expect(sniffImage(await testImage('jpeg'))).toBe('image/jpeg');
    expect(sniffImage(await testImage('webp'))).toBe('image/webp');
    expect(sniffImage(Buffer.from('GIF89a........'))).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});

describe('POST /api/admin/uploads', () => {
  it('needs an admin: 401 anonymous, 403 user, 403 admin without 2FA', async () => {
    const png = await testImage('png');
    expect((await post(null, multipart(png))).status).toBe(401);
    const user = await post('user', multipart(png));
    expect(user.status).toBe(403);
    expect((await user.json()).error.code).toBe('admin_role_required');
    const nomfa = await as(t, 'admin-nomfa').raw('/api/admin/uploads', { method: 'POST', body: multipart(png) });
    expect(nomfa.status).toBe(403);
    expect((await nomfa.json()).error.code).toBe('mfa_required');
    expect(stored()).toEqual([]);
  });

  it.each(['png', 'jpeg', 'webp'] as const)('stores a %s as WebP thumb and full variants, served with long caching', async (format) => {
    const colour = { png: '#ff0000', jpeg: '#00ff00', webp: '#0000ff' }[format];
    const img = await testImage(format, colour, 800);
    const res = await post('admin', multipart(img, `art.${format}`, `image/${format}`));
    expect(res.status).toBe(201);
    const { upload } = await res.json();
    expect(upload.key).toMatch(/^[a-f0-9]{64}$/);
    expect(upload.mime).toBe(`image/${format}`);
    expect(upload.width).toBe(800);
    expect(upload.variants.thumb.file).toBe(`${upload.key}-thumb.webp`);
    expect(Math.max(upload.variants.thumb.width, upload.variants.thumb.height)).toBeLessThanOrEqual(480);

    for (const v of ['thumb', 'full']) {
      const got = await t.request(`/api/uploads/${upload.key}-${v}.webp`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/webp');
      expect(got.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await got.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
    }
  });

  it('is idempotent: the same bytes give the same key and no new audit entry', async () => {
    const img = await testImage('png', '#123456');
    const a = await (await post('admin', multipart(img))).json();
    const before = (await t.deps.db.select({ n: count() }).from(auditLog))[0]!.n;
    const b = await (await post('admin', multipart(img, 'other-name.png'))).json();
    expect(b.upload.key).toBe(a.upload.key);
    expect((await t.deps.db.select({ n: count() }).from(auditLog))[0]!.n).toBe(before);
  });

  describe('bad inputs get a 4xx and store nothing', () => {
    const cases: Array<[string, () => Promise<{ body: BodyInit; headers?: Record<string, string> }>, number, string]> = [
      ['a text file renamed to .png', async () => ({ body: multipart(Buffer.from('hello, not an image at all'), 'fake.png', 'image/png') }), 400, 'unsupported_type'],
      ['an SVG claiming image/png', async () => ({ body: multipart(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'), 'x.png', 'image/png') }), 400, 'unsupported_type'],
      ['a GIF', async () => ({ body: multipart(await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } }).gif().toBuffer(), 'a.gif', 'image/gif') }), 400, 'unsupported_type'],
      ['a truncated PNG', async () => {
        const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#f0f' }, }).png({ compressionLevel: 0 }).toBuffer();
        return { body: multipart(png.subarray(0, Math.floor(png.length / 2))) };
      }, 400, 'invalid_image'],
      ['a truncated JPEG', async () => {
        const jpg = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#0ff', noise: { type: 'gaussian', mean: 128, sigma: 30 } } }).jpeg().toBuffer();
        return { body: multipart(jpg.subarray(0, Math.floor(jpg.length / 3)), 'a.jpg', 'image/jpeg') };
      }, 400, 'invalid_image'],
      ['PNG magic followed by garbage', async () => ({ body: multipart(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)])) }), 400, 'invalid_image'],
      ['an empty file', async () => ({ body: multipart(Buffer.alloc(0)) }), 400, 'invalid_image'],
      ['a tiny 4×4 image', async () => ({ body: multipart(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer()) }), 400, 'invalid_image'],
      ['no file field', async () => {
        const f = new FormData();
        f.append('other', 'x');
        return { body: f };
      }, 400, 'validation_failed'],
      ['a JSON body', async () => ({ body: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } }), 400, 'validation_failed'],
      ['a file over 5 MB', async () => {
        const big = Buffer.concat([await testImage('png'), Buffer.alloc(5 * 1024 * 1024 + 10)]);
        return { body: multipart(big) };
      }, 413, 'payload_too_large'],
      ['a body far over the limit', async () => ({ body: multipart(Buffer.alloc(7 * 1024 * 1024)) }), 413, 'payload_too_large'],
    ];
    it.each(cases)('%s', async (_name, make, status, code) => {
      const files = stored();
      const rows = await rowCount();
      const { body, headers } = await make();
      const res = await post('admin', body, headers);
      expect(res.status).toBe(status);
      const json = await res.json();
      expect(json.error.code).toBe(code);
      expect(json.error.message).toBeTruthy();
      expect(stored()).toEqual(files);
      expect(await rowCount()).toBe(rows);
    });
  });

  it('a 3 MB image is accepted (the upload route is not held to the 1 MB API limit)', async () => {
    const big = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#333', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect(big.length).toBeLessThan(5 * 1024 * 1024);
    const res = await post('admin', multipart(big));
    expect(res.status).toBe(201);
  });

  it('other API routes still refuse bodies over 1 MB', async () => {
    const res = await as(t, 'admin').raw('/api/admin/catalog/classes', {
      method: 'POST',
      json: { name: 'x'.repeat(1024 * 1024 + 10), colour: '#ffffff', sortOrder: 1 },
    });
    expect(res.status).toBe(413);
  });
});

describe('GET /api/uploads/:file', () => {
  it('answers 404 for unknown or malformed names (no path tricks)', async () => {
    expect((await t.request(`/api/uploads/${'a'.repeat(64)}-full.webp`)).status).toBe(404);
    expect((await t.request('/api/uploads/..%2Fsecret')).status).toBe(404);
    expect((await t.request('/api/uploads/whatever.png')).status).toBe(404);
  });
});
