import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../deps.ts';
import { publicSettings } from '../settings/registry-service.ts';
import { ROUTE_CHUNKS_FILE, type RouteChunks } from '../../../shared/route-chunks.ts';
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

  it('leaves the root empty where another layout draws the page', async () => {
    // Signed-in pages too: their guard renders nothing until the session is known.
    for (const p of ['/sign-in', '/sign-up', '/maintenance', '/admin', '/admin/users', '/collect', '/open-pack', '/profile/billing']) {
      const { html } = await page(p, SIGNED_IN);
      expect(html, p).toContain('<div id="root"></div>');
      expect(html, p).not.toContain('data-shell');
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
      expect(preloads(html), p).toEqual(urls);
      // In the head, where the browser's preload scanner meets them before the body.
      expect(html.indexOf('rel="preload"'), p).toBeLessThan(html.indexOf('</head>'));
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

  it('preloads no page code for signed-in, admin and not-found pages', async () => {
    for (const p of ['/collect', '/open-pack', '/admin', '/admin/users', '/profile/billing', '/no-such-page']) {
      const { html } = await page(p, SIGNED_IN);
      expect(html, p).not.toContain('modulepreload');
    }
  });

  it('preloads nothing where the first read is not known from the address or not public', async () => {
    for (const p of ['/about', '/fairness', '/no-such-page', '/sign-in', '/collect', '/open-pack', '/admin', '/shop/a%22b']) {
      const { html } = await page(p, SIGNED_IN);
      expect(preloads(html), p).toEqual([]);
      expect(html, p).not.toContain('rel="preload"');
    }
  });
});
