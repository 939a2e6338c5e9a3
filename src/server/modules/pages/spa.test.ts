import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../deps.ts';
import { publicSettings } from '../settings/registry-service.ts';
import { Hono } from 'hono';
import { PAGE_HEADS } from '../../../shared/page-heads.ts';
import { PAGE_HEADER_CLASSES } from '../../../shared/site-shell.ts';
import { PROFILE_LAYOUT, ROUTE_CHUNKS_FILE, SIGNED_IN_CHROME, type RouteChunks } from '../../../shared/route-chunks.ts';
import type { AppEnv } from '../../http/types.ts';
import { spaRoutes } from './spa.ts';

// Only the pull page reads the database; these routes need the config alone.
const deps = { config: { isProduction: false, siteName: 'Packvault' } } as unknown as Deps;
const SIGNED_IN = { cookie: 'better-auth.session_token=abc.def' };

describe('the first HTML of a page', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'pv-spa-shell-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Packvault</title></head><body><div id="root"></div></body></html>');
    // As the build writes it (vite.config.ts): a public route's id → its page's code beyond the entry.
    const chunks: RouteChunks = {
      shop: ['/assets/shop-a.js', '/assets/notice-b.js'],
      shopProduct: ['/assets/product-c.js'],
      signIn: ['/assets/sign-in-d.js', '/assets/form-kit-e.js'],
      about: ['/assets/about-f.js'],
      openPack: ['/assets/open-pack-g.js'],
      profileBilling: ['/assets/billing-j.js'],
      [SIGNED_IN_CHROME]: ['/assets/signed-in-header-h.js', '/assets/bell-i.js'],
      [PROFILE_LAYOUT]: ['/assets/profile-layout-k.js'],
    };
    writeFileSync(path.join(dist, ROUTE_CHUNKS_FILE), JSON.stringify(chunks));
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const page = async (p: string, headers: Record<string, string> = {}) => {
    const res = await spaRoutes(deps, dist).request(p, { headers });
    return { status: res.status, html: await res.text() };
  };

  it('carries the site header on the shop’s public pages, with the configured name and real links', async () => {
    for (const p of ['/', '/shop', '/cards', '/top-pulls', '/shop/0b0b0b0b-0000-4000-8000-000000000001']) {
      const { status, html } = await page(p);
      expect(status, p).toBe(200);
      expect(html, p).toContain('data-shell=""');
      expect(html, p).toContain(`aria-label="${publicSettings().siteName} home"`);
      expect(html, p).toContain('<a href="/shop"');
    }
    // The not-found page is drawn in the site layout too.
    const missing = await page('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('data-shell=""');
  });

  it('sends the HTML gzipped to a browser that accepts it, and plain to one that does not', async () => {
    const zipped = await spaRoutes(deps, dist).request('/shop', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8')).toContain('data-shell=""');
    const plain = await spaRoutes(deps, dist).request('/shop');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toContain('data-shell=""');
  });

  it('leaves the root empty where another layout draws the page', async () => {
    // Signed-in pages too: their guard renders nothing until the session is known.
    for (const p of ['/sign-in', '/sign-up', '/maintenance', '/admin', '/admin/users', '/collect', '/open-pack', '/profile/billing']) {
      const { html } = await page(p, SIGNED_IN);
      expect(html, p).toContain('<div id="root"></div>');
      expect(html, p).not.toContain('data-shell');
      expect(html, p).not.toContain('<h1');
    }
  });

  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)">/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

  it('preloads the first API reads of the public pages whose data the address names', async () => {
    const product = '0b0b0b0b-0000-4000-8000-000000000001';
    const expected: Record<string, string[]> = {
      '/': ['/api/shop/products', '/api/top-pulls?window=24h&limit=6'],
      '/shop': ['/api/shop/products'],
      '/shop/': ['/api/shop/products'],
      [`/shop/${product}`]: [`/api/shop/products/${product}`, '/api/catalog/classes'],
      '/top-pulls': ['/api/top-pulls?window=24h&limit=50'],
      '/cards': ['/api/cards?sort=value_desc&page=1', '/api/catalog/classes', '/api/catalog/sets'],
      '/cards?q=drake&grading=graded&sort=name&page=2': [
        '/api/cards?q=drake&graded=true&sort=name&page=2',
        '/api/catalog/classes',
        '/api/catalog/sets',
      ],
    };
    for (const [p, urls] of Object.entries(expected)) {
      const { html } = await page(p);
      // Every page starts with the site config and the session (web main.tsx), then its own reads.
      expect(preloads(html), p).toEqual(['/api/config', '/api/me', ...urls]);
      // In the head, where the browser's preload scanner meets them before the body.
      expect(html.indexOf('rel="preload"'), p).toBeLessThan(html.indexOf('</head>'));
    }
  });

  it('preloads only the config and the session where the first read is not known from the address or not public', async () => {
    for (const p of ['/about', '/fairness', '/sign-in', '/collect', '/open-pack', '/shop/a%22b']) {
      const { html } = await page(p, SIGNED_IN);
      expect(preloads(html), p).toEqual(['/api/config', '/api/me']);
    }
  });

  it('preloads nothing on the back office and the not-found pages', async () => {
    for (const p of ['/admin', '/admin/users', '/no-such-page']) {
      const { html } = await page(p, SIGNED_IN);
      expect(html, p).not.toContain('rel="preload"');
      expect(html, p).not.toContain('modulepreload');
    }
  });

  const modulePreloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  it('names a public page’s code in the head, from the build’s map, for the route the address matches', async () => {
    const cases: Record<string, string[]> = {
      '/shop': ['/assets/shop-a.js', '/assets/notice-b.js'],
      '/shop/': ['/assets/shop-a.js', '/assets/notice-b.js'],
      '/shop/0b0b0b0b-0000-4000-8000-000000000001': ['/assets/product-c.js'],
      // Public pages outside the shop's layout too: the sign-in form's code is on its way with the app.
      '/sign-in': ['/assets/sign-in-d.js', '/assets/form-kit-e.js'],
      '/about': ['/assets/about-f.js'],
      // Not in the map: nothing, and no broken link.
      '/cards': [],
    };
    for (const [p, files] of Object.entries(cases)) {
      const { html } = await page(p);
      expect(modulePreloads(html), p).toEqual(files);
      if (files.length) expect(html.indexOf('rel="modulepreload"'), p).toBeLessThan(html.indexOf('</head>'));
    }
  });

  it('preloads no signed-in page code for a request without a live session (a cookie alone is not one)', async () => {
    for (const p of ['/collect', '/open-pack', '/profile/billing']) {
      const { html } = await page(p, SIGNED_IN);
      expect(modulePreloads(html), p).toEqual([]);
      expect(preloads(html), p).toEqual(['/api/config', '/api/me']);
    }
  });

  describe('with a live session', () => {
    // What the actor middleware sets for a request whose session cookie checks out.
    const signedIn = () => {
      const app = new Hono<AppEnv>();
      app.use('*', async (c, next) => {
        c.set('actor', { userId: 'u1', role: 'user', emailVerified: true, mfaPassed: false, sessionId: 's1', username: 'dana' });
        await next();
      });
      app.route('/', spaRoutes(deps, dist));
      return app;
    };
    const signedInPage = async (p: string) => (await signedIn().request(p)).text();

    it('preloads a signed-in page’s code, the signed-in header’s and, on /open-pack and /collect, its first reads', async () => {
      const open = await signedInPage('/open-pack');
      expect(modulePreloads(open)).toEqual(['/assets/open-pack-g.js', '/assets/signed-in-header-h.js', '/assets/bell-i.js']);
      expect(preloads(open)).toEqual(['/api/config', '/api/me', '/api/shop/inventory', '/api/catalog/classes']);
      // The vault's first page, unless another tab of /collect is on show.
      expect(preloads(await signedInPage('/collect'))).toEqual([
        '/api/config',
        '/api/me',
        '/api/collection?status=in_vault&sort=acquired_desc&page=1&pageSize=24',
      ]);
      expect(preloads(await signedInPage('/collect?tab=sets'))).toEqual(['/api/config', '/api/me']);
      const billing = await signedInPage('/profile/billing');
      expect(modulePreloads(billing)).toEqual(['/assets/billing-j.js', '/assets/profile-layout-k.js']);
      expect(preloads(billing)).toEqual(['/api/config', '/api/me']);
    });

    it('carries the header on the shop’s signed-in pages, which will not send this request to sign in', async () => {
      for (const p of ['/open-pack', '/collect', '/home']) expect(await signedInPage(p), p).toContain('data-shell=""');
      // The profile area and the back office draw other layouts.
      for (const p of ['/profile/billing', '/admin']) expect(await signedInPage(p), p).not.toContain('data-shell');
    });

    it('puts the page’s static heading under the header on /open-pack and /collect, and on no other page', async () => {
      const open = await signedInPage('/open-pack');
      expect(open).toContain(`<h1 class="${PAGE_HEADER_CLASSES.title}">${PAGE_HEADS.openPack.title}</h1>`);
      expect(open).toContain(PAGE_HEADS.openPack.description);
      const vault = await signedInPage('/collect?tab=sets');
      expect(vault).toContain(`>${PAGE_HEADS.collect.eyebrow}</p><h1 class="${PAGE_HEADER_CLASSES.title}">${PAGE_HEADS.collect.title}</h1>`);
      for (const p of ['/home', '/shop', '/top-pulls']) expect(await signedInPage(p), p).not.toContain('<h1');
    });

    it('adds the signed-in header’s code to the shop’s public pages, and nothing to the back office', async () => {
      expect(modulePreloads(await signedInPage('/shop'))).toEqual([
        '/assets/shop-a.js',
        '/assets/notice-b.js',
        '/assets/signed-in-header-h.js',
        '/assets/bell-i.js',
      ]);
      expect(modulePreloads(await signedInPage('/sign-in'))).toEqual(['/assets/sign-in-d.js', '/assets/form-kit-e.js']);
      expect(await signedInPage('/admin')).not.toContain('modulepreload');
    });
  });
});
