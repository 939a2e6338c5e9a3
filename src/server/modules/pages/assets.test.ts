import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../deps.ts';
import { spaRoutes } from './spa.ts';

const deps = { config: { isProduction: false, siteName: 'Packvault' } } as unknown as Deps;
const SCRIPT = `export const x = ${JSON.stringify('card '.repeat(2000))};\n`;

describe('the built scripts and stylesheets', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'pv-spa-assets-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    // As the build writes them (vite.config.ts, precompress): the file, its gzip and its brotli copy.
    const file = path.join(dist, 'assets', 'app-a1.js');
    writeFileSync(file, SCRIPT);
    writeFileSync(`${file}.gz`, gzipSync(SCRIPT, { level: 9 }));
    writeFileSync(`${file}.br`, brotliCompressSync(SCRIPT));
    // A file the build left without copies.
    writeFileSync(path.join(dist, 'assets', 'plain-b2.css'), `.a{color:red}\n${'.b{margin:0}\n'.repeat(200)}`);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const get = (p: string, acceptEncoding?: string) =>
    spaRoutes(deps, dist).request(p, acceptEncoding ? { headers: { 'accept-encoding': acceptEncoding } } : {});

  it('sends the build’s brotli or gzip copy to a browser that takes it, as the script’s own type', async () => {
    const br = await get('/assets/app-a1.js', 'gzip, deflate, br, zstd');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString('utf8')).toBe(SCRIPT);

    const gz = await get('/assets/app-a1.js', 'gzip, deflate');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString('utf8')).toBe(SCRIPT);
  });

  it('sends the plain file to a client that takes no encoding, and compresses a file without copies', async () => {
    const plain = await get('/assets/app-a1.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);

    const css = await get('/assets/plain-b2.css', 'gzip');
    expect(css.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await css.arrayBuffer())).toString('utf8')).toContain('.a{color:red}');

    expect((await get('/assets/missing-c3.js', 'gzip')).status).toBe(404);
  });
});

describe('the files beside the app', () => {
  it('keeps the favicon for an hour, and says nothing about caching a missing asset', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'pv-spa-public-'));
    try {
      writeFileSync(path.join(dist, 'index.html'), '<html></html>');
      writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      const app = spaRoutes(deps, dist);
      const icon = await app.request('/favicon.svg');
      expect(icon.status).toBe(200);
      expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
      const missing = await app.request('/assets/nothing-d4.js');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBeNull();
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
