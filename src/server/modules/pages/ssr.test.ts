import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../deps.ts';
import { BOOT_SCRIPT, BOOT_SCRIPT_CSP } from '../../http/boot-script.ts';
import type { AppEnv } from '../../http/types.ts';
import { SSR_STATE_ID } from '../../../shared/ssr-state.ts';
import { MAINTENANCE_EVENT } from '../maintenance/service.ts';
import { CACHE_INVALIDATED, invalidate } from '../realtime/invalidation.ts';
import { spaRoutes } from './spa.ts';
import type { ApiFetch } from './ssr.ts';

/**
 * The page server's side of server rendering (ssr.ts, spa.ts), with a stand-in for the built
 * renderer (dist/ssr/entry-server.js, from web/entry-server.tsx): what it is handed, what it
 * answers, and what happens when it throws. The real renderer is checked in a browser
 * (e2e/server-render.spec.ts).
 */
const FAKE_RENDERER = `
let send;
let draws = 0;
export function setServerFetch(f) { send = f; }
export async function renderPage(url, now, reuse, keep, signedIn) {
  if (url === '/about') throw new Error('render failed');
  // A session that ended between the request's check and the renderer's read.
  if (url === '/home' && signedIn) return { status: 401, markup: '', drawnAt: now, state: null };
  if (url === '/fairness') await send('/api/anything', { method: 'POST', headers: {} });
  const res = await send('/api/shop/products', { method: 'GET', headers: { Accept: 'application/json' } });
  const data = await res.text();
  const status = url.startsWith('/shop/') ? 404 : 200;
  const dataKey = url + data;
  const hit = reuse(dataKey);
  if (hit) return { status, markup: hit.markup, drawnAt: hit.drawnAt, state: { data } };
  draws++;
  const drawing = { markup: '<main><h1>Drawn ' + url + ' #' + draws + (signedIn ? ' for a user' : '') + '</h1><p>' + data + '</p></main>', drawnAt: now };
  keep(dataKey, drawing);
  return { status, markup: drawing.markup, drawnAt: now, state: { data } };
}`;

/**
 * A built web app in `root` as Vite writes it (the entry script, and with `stylesheet` the one
 * stylesheet, in the head) with the stand-in renderer, served by the page server behind a stand-in
 * for the actor middleware (`x-test-user` signs the request in).
 */
function pageServer(root: string, deps: Deps, apiFetch: ApiFetch, log: unknown, opts: { stylesheet?: boolean } = {}): Hono<AppEnv> {
  mkdirSync(path.join(root, 'web', 'assets'), { recursive: true });
  mkdirSync(path.join(root, 'ssr'));
  const sheet = opts.stylesheet ? '<link rel="stylesheet" crossorigin href="/assets/style-b2.css">' : '';
  writeFileSync(
    path.join(root, 'web', 'index.html'),
    `<!doctype html><html><head><title>Packvault</title><script type="module" crossorigin src="/assets/index-a1.js"></script>${sheet}</head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(path.join(root, 'web', 'assets', 'style-b2.css'), '.a{color:red}.b::after{content:"</style>"}');
  writeFileSync(path.join(root, 'ssr', 'entry-server.js'), FAKE_RENDERER);
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('log', log as never);
    c.set('actor', c.req.header('x-test-user') ? ({ userId: 'u1' } as never) : null);
    await next();
  });
  app.route('/', spaRoutes(deps, path.join(root, 'web'), apiFetch));
  return app;
}

describe('server-drawn public pages', () => {
  let root: string;
  let products = '{"items":[1]}';
  let closed = false;
  const calls: Array<{ path: string; init: RequestInit; env: unknown }> = [];
  const apiFetch: ApiFetch = (p, init, visitor) => {
    calls.push({ path: p, init, env: visitor.env });
    if (closed) return new Response('{"error":{"code":"maintenance"}}', { status: 503, headers: { 'content-type': 'application/json' } });
    return new Response(products, { headers: { 'content-type': 'application/json' } });
  };
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const deps = { config: { isProduction: false, siteName: 'Packvault' }, log } as unknown as Deps;
  let app: Hono<AppEnv>;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'pv-ssr-'));
    app = pageServer(root, deps, apiFetch, log, { stylesheet: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('puts the drawn page in #root and its data after it, reading the API as the visitor', async () => {
    const res = await app.request('/shop', { headers: { 'x-forwarded-for': '203.0.113.50', cookie: 'secret=1' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"><main><h1>Drawn /shop #1</h1>');
    expect(html).toMatch(new RegExp(`</div><script type="application/json" id="${SSR_STATE_ID}">\\{"state":\\{"data":"\\{\\\\"items\\\\":\\[1\\]\\}"\\},"drawnAt":\\d+\\}</script>`));
    const call = calls.at(-1)!;
    expect(call.path).toBe('/api/shop/products');
    expect(call.init.method).toBe('GET');
    // The visitor's forwarding headers go along (same address, same limits); never their cookies.
    const headers = call.init.headers as Record<string, string>;
    expect(headers['x-forwarded-for']).toBe('203.0.113.50');
    expect(JSON.stringify(headers)).not.toContain('secret');
  });

  it('reuses a drawing while the data it was drawn from is unchanged', async () => {
    const first = await (await app.request('/cards')).text();
    const again = await (await app.request('/cards')).text();
    expect(again).toContain(first.match(/Drawn \/cards #\d+/)![0]);
    products = '{"items":[1,2]}';
    const changed = await (await app.request('/cards')).text();
    expect(changed).not.toContain(first.match(/Drawn \/cards #\d+/)![0]);
    expect(changed).toContain('[1,2]');
  });

  it('answers 404 for a missing subject, drawn but not hydrated', async () => {
    const res = await app.request('/shop/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<h1>Drawn /shop/');
    expect(html).not.toContain(SSR_STATE_ID);
  });

  it('answers 500 with an error page when drawing throws, logs it once, and keeps serving', async () => {
    log.error.mockClear();
    const res = await app.request('/about');
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('Something went wrong');
    expect(log.error).toHaveBeenCalledTimes(1);
    expect((await app.request('/shop')).status).toBe(200);
  });

  it('lets the renderer read only the API, and only with GET', async () => {
    log.error.mockClear();
    const res = await app.request('/fairness');
    expect(res.status).toBe(500);
    expect(calls.some((c) => c.path === '/api/anything')).toBe(false);
  });

  it('leaves a signed-in request for a public page to the browser', async () => {
    const html = await (await app.request('/shop', { headers: { 'x-test-user': '1' } })).text();
    expect(html).not.toContain('Drawn');
    expect(html).not.toContain(SSR_STATE_ID);
  });

  it('draws a user’s own pages with their cookie, for them alone: never reused, never stored', async () => {
    const ask = () => app.request('/collect', { headers: { 'x-test-user': '1', cookie: 'session=abc' } });
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const html = await res.text();
    const drawn = html.match(/Drawn \/collect #\d+ for a user/)![0];
    expect(html).toContain(SSR_STATE_ID);
    // Their reads carry their session.
    expect((calls.at(-1)!.init.headers as Record<string, string>).cookie).toBe('session=abc');
    // Same data, yet drawn again: a user's drawing is not kept for the next request.
    const again = await (await ask()).text();
    expect(again).toMatch(/Drawn \/collect #\d+ for a user/);
    expect(again).not.toContain(drawn);
    // The signed-in header's code is named with the page's.
    expect(html).toContain('<script data-src="/assets/index-a1.js"');
    // A visitor on a user's page is sent to sign in by the app: nothing drawn.
    const visitor = await (await app.request('/collect')).text();
    expect(visitor).not.toContain('Drawn');
  });

  it('leaves a user’s page to the browser when their session is gone by the time it is read', async () => {
    const res = await app.request('/home', { headers: { 'x-test-user': '1', cookie: 'session=old' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('Drawn');
    expect(html).not.toContain(SSR_STATE_ID);
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-a1.js"></script>');
  });

  it('leaves the page to the browser while the API answers 503 (maintenance)', async () => {
    closed = true;
    try {
      const res = await app.request('/top-pulls');
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain('Drawn');
      expect(html).not.toContain(SSR_STATE_ID);
    } finally {
      closed = false;
    }
    expect(await (await app.request('/top-pulls')).text()).toContain('Drawn /top-pulls');
  });

  it('puts the stylesheet in the page, and starts a drawn page’s code after its first paint', async () => {
    const drawn = await (await app.request('/shop')).text();
    expect(drawn).toContain('<style>.a{color:red}.b::after{content:"<\\/style>"}</style>');
    expect(drawn).not.toContain('rel="stylesheet"');
    expect(drawn).not.toContain('<script type="module"');
    expect(drawn).not.toContain('<link rel="modulepreload"');
    expect(drawn).toContain(`<script data-src="/assets/index-a1.js" data-preload="">${BOOT_SCRIPT}</script>`);
    // The CSP allows that script, and only it, by its hash.
    expect(BOOT_SCRIPT_CSP).toBe(`'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`);
    // A page the browser draws needs its code at once.
    const shell = await (await app.request('/shop', { headers: { 'x-test-user': '1' } })).text();
    expect(shell).toContain('<style>.a{color:red}');
    expect(shell).toContain('<script type="module" crossorigin src="/assets/index-a1.js"></script>');
    expect(shell).not.toContain('data-src');
  });
});

describe('a visitor’s drawn pages, kept whole (PAGE_CACHE_MS)', () => {
  let root: string;
  let products = '{"items":[1]}';
  let failing = false;
  let reads = 0;
  const listeners: Array<(e: { id: string; topic: string; type: string; data: unknown }) => void> = [];
  const bus = {
    shared: false,
    subscribe: (l: (typeof listeners)[number]) => (listeners.push(l), () => {}),
    publish: async (topic: string, type: string, data?: unknown) => {
      const e = { id: String(listeners.length), topic, type, data };
      for (const l of listeners) l(e);
      return e;
    },
  };
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const deps = {
    config: { isProduction: true, siteName: 'Packvault', pageCacheMs: 60_000 },
    log,
    db: {},
    bus,
    shutdown: new AbortController().signal,
  } as unknown as Deps;
  const apiFetch: ApiFetch = () => {
    reads++;
    if (failing) return new Response('{"error":{"code":"internal"}}', { status: 500, headers: { 'content-type': 'application/json' } });
    return new Response(products, { headers: { 'content-type': 'application/json' } });
  };
  let app: Hono<AppEnv>;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'pv-ssr-cache-'));
    app = pageServer(root, deps, apiFetch, log);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sends the page as made to the next visitors without reading again: gzipped, tagged, 304 when unchanged', async () => {
    const first = await app.request('/shop');
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('Drawn /shop');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    const before = reads;
    const zipped = await app.request('/shop', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(zipped.headers.get('cache-control')).toBe('no-cache');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(html);
    const again = await app.request('/shop', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(reads).toBe(before);
    // Another address is its own page.
    await app.request('/shop?sort=price');
    expect(reads).toBe(before + 1);
  });

  it('a catalog or product write drops every kept page, in every process (the invalidation bus)', async () => {
    await app.request('/cards');
    products = '{"items":[1,2,3]}';
    expect(await (await app.request('/cards')).text()).not.toContain('[1,2,3]');
    await invalidate(deps.db, 'catalog');
    expect(await (await app.request('/cards')).text()).toContain('[1,2,3]');
    products = '{"items":[4]}';
    // Another process's write arrives as a bus event.
    for (const l of listeners) l({ id: 'x', topic: 'internal', type: CACHE_INVALIDATED, data: { scope: 'products', origin: 'another process' } });
    expect(await (await app.request('/cards')).text()).toContain('[4]');
  });

  it('a maintenance switch drops them: the shop closed is not served from before', async () => {
    await app.request('/top-pulls');
    products = '{"items":[5]}';
    await bus.publish('public', MAINTENANCE_EVENT, { enabled: false, message: '', endsAt: null, changedAt: new Date().toISOString() });
    expect(await (await app.request('/top-pulls')).text()).toContain('[5]');
  });

  it('keeps no page drawn while a read failed in passing, nor the error page', async () => {
    failing = true;
    try {
      const before = reads;
      await app.request('/daily-drop-winners');
      await app.request('/daily-drop-winners');
      expect(reads).toBe(before + 2);
    } finally {
      failing = false;
    }
    log.error.mockClear();
    expect((await app.request('/about')).status).toBe(500);
    expect((await app.request('/about')).status).toBe(500);
    expect(log.error).toHaveBeenCalledTimes(2);
  });

  it('never sends a visitor’s kept page to a signed-in request', async () => {
    await app.request('/shop');
    const html = await (await app.request('/shop', { headers: { 'x-test-user': '1' } })).text();
    expect(html).not.toContain('Drawn');
    expect(html).not.toContain(SSR_STATE_ID);
  });
});
