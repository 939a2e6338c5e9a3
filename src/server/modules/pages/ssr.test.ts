import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../deps.ts';
import { BOOT_SCRIPT, BOOT_SCRIPT_CSP } from '../../http/boot-script.ts';
import type { AppEnv } from '../../http/types.ts';
import { SSR_STATE_ID } from '../../../shared/ssr-state.ts';
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
    mkdirSync(path.join(root, 'web'));
    mkdirSync(path.join(root, 'ssr'));
    // As Vite writes it: the entry script and the one stylesheet in the head.
    writeFileSync(
      path.join(root, 'web', 'index.html'),
      '<!doctype html><html><head><title>Packvault</title><script type="module" crossorigin src="/assets/index-a1.js"></script>' +
        '<link rel="stylesheet" crossorigin href="/assets/style-b2.css"></head><body><div id="root"></div></body></html>',
    );
    mkdirSync(path.join(root, 'web', 'assets'));
    writeFileSync(path.join(root, 'web', 'assets', 'style-b2.css'), '.a{color:red}.b::after{content:"</style>"}');
    writeFileSync(path.join(root, 'ssr', 'entry-server.js'), FAKE_RENDERER);
    app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('log', log as never);
      c.set('actor', c.req.header('x-test-user') ? ({ userId: 'u1' } as never) : null);
      await next();
    });
    app.route('/', spaRoutes(deps, path.join(root, 'web'), apiFetch));
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
