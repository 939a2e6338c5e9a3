import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OG_IMAGE_HEIGHT, OG_IMAGE_WIDTH, type SharedPull } from '../../../shared/contracts/pulls.ts';
import type { OpenResult } from '../../../shared/contracts/shop.ts';
import { user } from '../../db/schema/auth.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import { spaRoutes } from '../pages/spa.ts';
import { liveProduct, fund, makeCatalog, slots } from '../shop/test-support.ts';
import { storageFor } from '../uploads/storage.ts';
import { variantFile } from '../uploads/service.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { injectMeta } from './meta.ts';
import { renderOgImage } from './og.ts';

let t: MoneyTestContext;
let owner: string;
let opening: OpenResult['openings'][number];
let pullId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await moneyTestContext();
  // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
  const admin = await t.makeUser({ role: 'owner' });
  owner = await t.makeUser();
  // Test users' usernames are their ids: give this one its own, so the id cannot hide in it.
  await t.deps.db.update(user).set({ username: 'lucky_puller' }).where(eq(user.id, owner));
  const cat = await makeCatalog(t, [{ name: 'Mythic <b>&"', cards: [{ value: 4200, stock: 10 }] }]);
  const { productId } = await liveProduct(t, admin, { name: 'Share Pack', priceCents: 300, slots: slots(2, [{ classId: cat.classes['Mythic <b>&"']!, weight: 1 }]) });
  await fund(t, owner, 1000);
  const res = await t.as(owner).post('/api/shop/open', { productId, quantity: 1 }, idem());
  expect(res.status).toBe(201);
  opening = ((await res.json()) as OpenResult).openings[0]!;
  pullId = opening.cards[1]!.ownedCardId;
});
afterAll(() => t.close());

const PRIVATE_KEYS = ['ownerId', 'userId', 'email', 'status', 'clientSeed', 'serverSeed', 'buybackCents', 'rateBp'];
function keysOf(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysOf(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      keysOf(x, out);
    }
  }
  return out;
}

describe('GET /api/pulls/{id}', () => {
  it('shows the pull to anyone, with public fields only', async () => {
    const res = await t.as(null).get(`/api/pulls/${pullId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public/);
    const body = (await res.json()) as SharedPull;
    const [u] = await t.deps.db.select().from(user).where(eq(user.id, owner));
    expect(body.pull).toMatchObject({ ownedCardId: pullId, openingId: opening.id, productName: 'Share Pack', username: u!.username, valueCents: 4200 });
    expect(body.pull.card.name).toBe(opening.cards[1]!.name);
    expect(body.proof).toEqual({
      openingId: opening.id,
      slot: 1,
      nonce: opening.fairness.nonce,
      serverSeedHash: opening.fairness.serverSeedHash,
      poolHash: opening.fairness.poolHash,
      revisionHash: opening.fairness.revisionHash,
      seedRevealed: false,
    });
    const text = JSON.stringify(body);
    expect(text).not.toContain(owner);
    expect(text).not.toContain(u!.email);
    for (const k of PRIVATE_KEYS) expect(keysOf(body).has(k), k).toBe(false);
  });

  it('keeps the page after the copy leaves the vault (the pull is history)', async () => {
    await t.deps.db.update(ownedCards).set({ status: 'sold_back' }).where(eq(ownedCards.id, pullId));
    try {
      expect((await t.as(null).get(`/api/pulls/${pullId}`)).status).toBe(200);
    } finally {
      await t.deps.db.update(ownedCards).set({ status: 'in_vault' }).where(eq(ownedCards.id, pullId));
    }
  });

  it('answers 404 for an unknown id and for a malformed one', async () => {
    const unknown = await t.as(null).get(`/api/pulls/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    // A path id that cannot exist names nothing: the same 404 as every module (docs/architecture.md).
    expect((await t.as(null).get('/api/pulls/not-a-uuid')).status).toBe(404);
    expect((await t.as(null).get('/api/pulls/not-a-uuid/og.png')).status).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await t.as(null).get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/pulls/{id}', '/api/pulls/{id}/og.png']));
  });
});

describe('GET /api/pulls/{id}/og.png', () => {
  it('is a 1200×630 PNG, cached, and revalidates by ETag', async () => {
    const res = await t.as(null).get(`/api/pulls/${pullId}/og.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: OG_IMAGE_WIDTH, height: OG_IMAGE_HEIGHT });
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await t.request(`/api/pulls/${pullId}/og.png`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await t.as(null).get(`/api/pulls/${UNKNOWN}/og.png`)).status).toBe(404);
  });

  it('lays in the card artwork when it is stored', async () => {
    const data = (await (await t.as(null).get(`/api/pulls/${pullId}`)).json()) as SharedPull;
    const storage = storageFor(t.deps.config.dataDir);
    const art = await sharp({ create: { width: 60, height: 84, channels: 3, background: '#22c55e' } }).webp().toBuffer();
    await storage.put(variantFile(data.pull.card.imageKey, 'thumb'), art, 'image/webp');
    const png = await renderOgImage({ data, siteName: 'Packvault', currency: 'USD' }, storage);
    const { width, height } = await sharp(png).metadata();
    expect([width, height]).toEqual([OG_IMAGE_WIDTH, OG_IMAGE_HEIGHT]);
    // The middle of the card's art area is the artwork's green.
    const { data: px } = await sharp(png).extract({ left: 276, top: 200, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    // (WebP is lossy: within a step or two.)
    [0x22, 0xc5, 0x5e].forEach((v, i) => expect(Math.abs(px[i]! - v)).toBeLessThanOrEqual(3));
  });
});

describe('uncached renders are limited per address (issue 39)', () => {
  it('a cached image still answers; a new render past the limit is 429 with Retry-After', async () => {
    expect((await t.as(null).get(`/api/pulls/${pullId}/og.png`)).status).toBe(200);
    const before = t.deps.config.ogRendersPerMinute;
    // This address has rendered in this minute already: with a limit of 1, the next new render is refused.
    (t.deps.config as { ogRendersPerMinute?: number }).ogRendersPerMinute = 1;
    try {
      const other = opening.cards[0]!.ownedCardId;
      const refused = await t.as(null).get(`/api/pulls/${other}/og.png`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The cached one is not a render: still 200.
      expect((await t.as(null).get(`/api/pulls/${pullId}/og.png`)).status).toBe(200);
    } finally {
      (t.deps.config as { ogRendersPerMinute?: number }).ogRendersPerMinute = before;
    }
  });
});

describe('link-preview tags in the served page', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'pv-spa-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><meta name="description" content="Default" /><title>Packvault</title></head><body><div id="root"></div></body></html>',
    );
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('puts the pull’s title, description, image and twitter card into index.html', async () => {
    const res = await spaRoutes(t.deps, dist).request(`/pulls/${pullId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const base = t.deps.config.publicUrl;
    expect(html).toContain(`<meta property="og:image" content="${base}/api/pulls/${pullId}/og.png" />`);
    expect(html).toContain(`<meta property="og:url" content="${base}/pulls/${pullId}" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toMatch(/<meta property="og:title" content="[^"]*pulled from Share Pack[^"]*" \/>/);
    expect(html).toMatch(/<meta property="og:description" content="[^"]+" \/>/);
    expect(html).toMatch(/<title>[^<]*Share Pack[^<]*<\/title>/);
    // The class name carries markup characters: they arrive escaped.
    expect(html).toContain('Mythic &lt;b&gt;&amp;&quot;');
    expect(html).not.toContain('Mythic <b>');
    // One description, the pull's.
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).not.toContain('content="Default"');
  });

  it('answers an unknown or malformed pull with the 404 page and no tags', async () => {
    for (const p of [`/pulls/${UNKNOWN}`, '/pulls/nope']) {
      const res = await spaRoutes(t.deps, dist).request(p);
      expect(res.status, p).toBe(404);
      expect(await res.text()).not.toContain('og:image');
    }
  });

  it('leaves other pages alone', async () => {
    const html = await (await spaRoutes(t.deps, dist).request('/top-pulls')).text();
    expect(html).not.toContain('og:image');
    expect(html).toContain('content="Default"');
  });

  it('escapes every value and keeps replacement patterns literal', () => {
    const html = injectMeta('<html><head><title>x</title></head></html>', {
      title: `$& "><script>alert(1)</script>`,
      description: "it's $1",
      url: 'https://x.test/pulls/1?a=1&b=2',
      image: 'https://x.test/i.png',
      imageAlt: '<alt>',
      imageWidth: 1200,
      imageHeight: 630,
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('<title>$&amp; &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('content="it&#39;s $1"');
    expect(html).toContain('href="https://x.test/pulls/1?a=1&amp;b=2"');
  });
});
