import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from '@hono/node-server/serve-static';
import { publicCardListQuerySchema, type LookRefs, type PublicCard, type PublicCardPage } from '../../../shared/contracts/catalog.ts';
import { imageUrl, lookFromRefs } from '../../../shared/contracts/catalog-look.ts';
import { pullIdSchema } from '../../../shared/contracts/pulls.ts';
import { earlyRequests, signedInEarlyRequests, START_REQUESTS } from '../../../shared/early-requests.ts';
import { PROFILE_LAYOUT, ROUTE_CHUNKS_FILE, SIGNED_IN_CHROME, type RouteChunks } from '../../../shared/route-chunks.ts';
import { pageHeadFor } from '../../../shared/page-heads.ts';
import { matchRoute, type RouteDef, type RouteId } from '../../../shared/routes.ts';
import { siteShellHtml } from '../../../shared/site-shell.ts';
import type { Deps } from '../../deps.ts';
import { bootTag } from '../../http/boot-script.ts';
import type { AppEnv } from '../../http/types.ts';
import { webDistDir } from '../../lib/paths.ts';
import { publicCardPageResponse } from '../catalog/public.ts';
import { sendPrepared } from '../catalog/response-cache.ts';
import { firstVaultCards } from '../collection/service.ts';
import { injectMeta, pullMeta } from '../pulls/meta.ts';
import { findSharedPull } from '../pulls/service.ts';
import { maintenanceCache } from '../maintenance/service.ts';
import { onInvalidate } from '../realtime/invalidation.ts';
import { publicSettings } from '../settings/registry-service.ts';
import { settingsVersion } from '../settings/store.ts';
import { isCachedPage, PageCache, type PageAnswer } from './page-cache.ts';
import { pageDrawer, type ApiFetch, type DrawnPage } from './ssr.ts';

const ROOT_DIV = '<div id="root"></div>';
/** The build's entry script tag in index.html (Vite writes `<script type="module" crossorigin src=…>`). */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
/** The build's one stylesheet link in index.html. */
const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/;

/**
 * The stylesheet, in the page itself: it is the one request that blocks the first paint, and the
 * app has one stylesheet (17 KB compressed, no url()s), so a first visit saves a round trip before
 * anything shows. The price is those bytes on every page load rather than once from the cache;
 * after the first page, the app navigates without loading HTML again (ADR 0027).
 */
function inlineStylesheet(html: string, distDir: string): string {
  const m = STYLESHEET_LINK.exec(html);
  if (!m) return html;
  const file = path.join(distDir, m[1]!);
  if (!existsSync(file)) return html;
  // A `</style` inside the CSS (only ever in a string) would end the element early.
  const css = readFileSync(file, 'utf8').replace(/<\/style/gi, '<\\/style');
  return html.replace(m[0], () => `<style>${css}</style>`);
}

/**
 * The site header as the page's first paint (shared/site-shell.ts) on the shop's public pages,
 * and on its signed-in pages (the vault, open pack, home) for a request with a live session, which
 * will not be sent to sign in. A visitor's signed-in page keeps an empty root: it is sent to sign
 * in (another layout, so a header would appear and vanish). So do the sign-in, admin and
 * maintenance screens, which draw another layout. A page whose first render starts with a static
 * heading (shared/page-heads.ts) gets that heading under the header too.
 */
function withShell(html: string, route: RouteDef & { id: RouteId }, signedIn: boolean): string {
  if (route.area !== 'site' || !(route.access === 'public' || (route.access === 'user' && signedIn))) return html;
  return html.replace(ROOT_DIV, `<div id="root">${siteShellHtml(publicSettings().siteName, pageHeadFor(route.id))}</div>`);
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * What a page needs first, named in the head so the browser fetches it while it reads the HTML
 * rather than after the app's code has arrived and run:
 * - its code beyond the entry chunk (the build's route-chunks.json), as `modulepreload` with the
 *   entry script's CORS mode, so the router's dynamic import finds it loaded: for public pages, and
 *   for signed-in pages when the request carries a live session (with the signed-in header's lazy
 *   parts, and the profile area's layout); a visitor on a signed-in page is sent to sign in;
 * - its first API reads, as `preload as="fetch"` with `crossorigin="anonymous"`: a CORS request
 *   with same-origin credentials, which is what the web's `api.get` sends (`fetch(url,
 *   { credentials: 'same-origin' })`), so the browser hands it the preloaded answer (a different
 *   mode or URL would fetch twice and warn that the preload went unused). Every page starts with
 *   the site config and the session (shared/early-requests.ts); a few name more by their address.
 */
function withPreloads(html: string, route: RouteDef & { id: string }, url: URL, chunks: RouteChunks, signedIn: boolean, drawn: boolean): string {
  if (route.access === 'admin' || route.access === 'owner') return html;
  // A page drawn on the server carries its data: only its code is worth naming.
  // Its code starts after its first paint (http/boot-script.ts): the page is already there to
  // read, so the bytes of that paint (the HTML, the images it shows first) get the connection first.
  if (drawn) {
    const m = ENTRY_SCRIPT.exec(html);
    if (!m) return html;
    const code = [...(chunks[route.id] ?? []), ...(signedIn ? (chunks[SIGNED_IN_CHROME] ?? []) : [])];
    return html.replace(m[0], () => bootTag(m[1]!, [...new Set(code)]));
  }
  if (route.notFound) return html;
  const mayLoad = route.access === 'public' || signedIn;
  const code = new Set<string>();
  if (mayLoad) for (const f of chunks[route.id] ?? []) code.add(f);
  if (signedIn && route.area === 'site') for (const f of chunks[SIGNED_IN_CHROME] ?? []) code.add(f);
  if (signedIn && route.area === 'profile') for (const f of chunks[PROFILE_LAYOUT] ?? []) code.add(f);
  const data: string[] = [...START_REQUESTS];
  if (route.access === 'public' && route.area === 'site') data.push(...earlyRequests(url.pathname, url.searchParams));
  if (route.access === 'user' && signedIn) data.push(...signedInEarlyRequests(url.pathname, url.searchParams));
  // The reads first: a handful of small answers that every first render waits for, which would
  // otherwise queue behind dozens of code files for the browser's six connections to the origin.
  const links = [
    ...[...new Set(data)].map((u) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttr(u)}">`),
    ...[...code].map((f) => `<link rel="modulepreload" crossorigin href="${escapeAttr(f)}">`),
  ].join('');
  return html.replace('</head>', `${links}</head>`);
}

/** Cards of a card grid's first page whose images the HTML names: the first row on a phone. */
const FIRST_CARD_IMAGES = 2;

/** The variant a grid draws (CardView's small sizes use the thumbnail) of each card's art and frame. */
function imagePreloadLinks(list: readonly PublicCard[], refs: LookRefs): string {
  const images = new Set<string>();
  for (const card of list.slice(0, FIRST_CARD_IMAGES)) {
    const look = lookFromRefs(card, refs);
    if (look.frameImageKey) images.add(imageUrl(look.frameImageKey, 'thumb'));
    if (look.imageKey) images.add(imageUrl(look.imageKey, 'thumb'));
  }
  return [...images].map((u) => `<link rel="preload" as="image" fetchpriority="high" href="${escapeAttr(u)}">`).join('');
}

/**
 * /cards' and the vault's largest paint is their first card's frame image, which the browser would
 * find only once the page's code had run and drawn the grid from its data. The page server reads
 * the same first cards the app will ask for and names their frame and art as
 * `<link rel="preload" as="image" fetchpriority="high">`: on /cards through the list's response
 * cache (so the app's request then finds it there); on /collect the signed-in user's first vault
 * cards, when the vault is the tab on show. Any failure leaves the page without them: the HTML
 * never waits on this to be right.
 */
async function firstCardImageLinks(deps: Deps, route: RouteDef & { id: string }, url: URL, userId: string | undefined): Promise<string> {
  try {
    if (route.id === 'collect') {
      if (!userId || !signedInEarlyRequests(url.pathname, url.searchParams).length) return '';
      const first = await firstVaultCards(deps.db, userId, FIRST_CARD_IMAGES);
      return imagePreloadLinks(first.cards, first.refs);
    }
    const list = earlyRequests(url.pathname, url.searchParams)[0];
    if (!list) return '';
    const query = publicCardListQuerySchema.safeParse(Object.fromEntries(new URL(list, url).searchParams));
    if (!query.success) return '';
    const page = JSON.parse(Buffer.from((await publicCardPageResponse(deps.db, query.data)).body).toString('utf8')) as PublicCardPage;
    return imagePreloadLinks(page.items, page.refs);
  } catch {
    return '';
  }
}

/**
 * The pages a first HTML holds in full (docs/decisions/0027, 0035): a visitor's public pages of
 * the shop, and a user's own pages of it (the vault, open pack, home), drawn for them alone. Not
 * /unsubscribe, which acts on its key; not the test checkout; not the sign-in and account screens
 * (another layout, forms that need the app), nor the profile and admin areas.
 */
const drawnOnServer = (route: RouteDef & { id: RouteId }, signedIn: boolean) =>
  route.area === 'site' && (signedIn ? route.access === 'user' && route.id !== 'checkout' : route.access === 'public' && route.id !== 'unsubscribe');

/** What the API reads to tell who is asking, from where: passed on to its in-process reads. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip', 'forwarded', 'user-agent', 'accept-language'];

/** The HTML a server-drawn page fills #root with when drawing it failed: the app may still manage. */
const DRAW_FAILED =
  '<main id="main" class="mx-auto max-w-xl px-4 py-24 text-center text-zinc-100"><h1 class="text-2xl font-bold">Something went wrong</h1>' +
  '<p class="mt-3 text-zinc-300">This page could not be shown. We have been told about it. Reload the page, or try again in a minute.</p></main>';

/** Bytes of whole pages kept (plain and gzipped): /cards is ~280 + ~32 KB, most pages far less. */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Serves the built SPA: hashed assets with a year of caching, and index.html for every page
 * route — 200 for a route in the table, 404 for the two catch-alls and for a public page whose
 * subject does not exist. A visitor's public pages come drawn by the server (ssr.ts), to hydrate.
 */
export function spaRoutes(deps: Deps, distDir = webDistDir, apiFetch?: ApiFetch) {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(distDir, 'index.html');
  const chunksFile = path.join(distDir, ROUTE_CHUNKS_FILE);
  const drawPage = apiFetch ? pageDrawer(path.join(distDir, '..', 'ssr'), apiFetch) : null;
  let indexHtml: string | null = null;
  let routeChunks: RouteChunks = {};
  const loadIndex = () => {
    if (indexHtml === null || !deps.config.isProduction) {
      indexHtml = existsSync(indexFile) ? inlineStylesheet(readFileSync(indexFile, 'utf8'), distDir) : null;
      routeChunks = existsSync(chunksFile) ? (JSON.parse(readFileSync(chunksFile, 'utf8')) as RouteChunks) : {};
    }
    return indexHtml;
  };

  // The build writes a brotli and a gzip copy of every script and stylesheet (vite.config.ts,
  // precompress): sent as they are to a browser that takes them. compress() is for anything else
  // there (an asset without copies, a client that takes only deflate); it leaves an encoded answer
  // alone. Hashed names never change content, so browsers keep them a year. The header is set once
  // the file is found, not in serveStatic's onFound: @hono/node-server 2 calls that after it has
  // built the answer, and a header set then never reached the browser.
  const cacheFor = (value: string): MiddlewareHandler => async (c, next) => {
    await next();
    if (c.res.status === 200 || c.res.status === 206) c.header('Cache-Control', value);
  };
  app.use('/assets/*', compress(), cacheFor('public, max-age=31536000, immutable'));
  if (existsSync(distDir)) app.use('/assets/*', serveStatic({ precompressed: true, root: path.relative(process.cwd(), distDir) || '.' }));
  app.get('/assets/*', (c) => c.text('Not found', 404));
  for (const file of ['favicon.svg', 'robots.txt', 'manifest.webmanifest']) {
    app.get(`/${file}`, cacheFor('public, max-age=3600'), serveStatic({ path: path.join(distDir, file) }));
  }

  // A visitor's drawn pages, whole and gzipped, for a second (page-cache.ts, ADR 0037). Writers
  // of what they show drop them at once, in every process: the catalog's and the products' through
  // the invalidation bus; a settings change or a maintenance switch through the stamp.
  const freshMs = drawPage ? (deps.config.pageCacheMs ?? 0) : 0;
  const pages =
    freshMs > 0
      ? new PageCache({ freshMs, maxBytes: PAGE_CACHE_BYTES, stamp: () => [settingsVersion(), maintenanceCache(deps).state] })
      : null;
  if (pages) {
    onInvalidate(deps, 'catalog', () => pages.clear());
    onInvalidate(deps, 'products', () => pages.clear());
  }

  /** The page at the request's address as this visitor or user gets it, before encoding. */
  async function answer(c: Context<AppEnv>, route: RouteDef & { id: RouteId }, signedIn: boolean): Promise<PageAnswer & { private: boolean }> {
    const built = loadIndex();
    let status: 200 | 404 | 500 = route.notFound ? 404 : 200;
    let drawn: DrawnPage | null = null;
    if (built && drawPage && drawnOnServer(route, signedIn)) {
      const url = new URL(c.req.url);
      try {
        const headers: Record<string, string> = {};
        for (const h of signedIn ? [...FORWARDING_HEADERS, 'cookie'] : FORWARDING_HEADERS) {
          const v = c.req.header(h);
          if (v !== undefined) headers[h] = v;
        }
        drawn = await drawPage(url.pathname + url.search, { env: c.env, headers, signedIn });
      } catch (err) {
        (c.get('log') ?? deps.log).error('server render failed', { err, route: route.id, path: c.req.path });
        drawn = { status: 500, markup: DRAW_FAILED, state: '', cacheable: false };
      }
      if (drawn) status = drawn.status === 404 ? 404 : drawn.status === 500 ? 500 : status;
    }
    // Kept for others only when drawn, and drawn from reads that did not fail in passing: the shell
    // (maintenance, a read out of service) and the error page are this request's alone.
    const result = { status, private: Boolean(drawn && signedIn), cacheable: Boolean(drawn?.cacheable) && status !== 500 };
    const html =
      built &&
      withPreloads(
        drawn ? built.replace(ROOT_DIV, `<div id="root">${drawn.markup}</div>${drawn.state}`) : withShell(built, route, signedIn),
        route,
        new URL(c.req.url),
        routeChunks,
        signedIn,
        Boolean(drawn?.state),
      );
    if (!html) {
      const page =
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${deps.config.siteName}</title></head>` +
        `<body><main><h1>${deps.config.siteName}</h1><p>The web app has not been built. Run <code>npm start</code> ` +
        `(which builds it) or <code>npm run dev</code>.</p></main></body></html>`;
      return { ...result, html: page, cacheable: false };
    }
    if (route.id === 'cards' || (route.id === 'collect' && signedIn)) {
      const links = await firstCardImageLinks(deps, route, new URL(c.req.url), c.get('actor')?.userId);
      return { ...result, html: html.replace('</head>', `${links}</head>`) };
    }
    if (route.id === 'pull') {
      // A pasted link previews with the pull's card; an unknown pull is a 404 page like any other.
      const id = decodeURIComponent(c.req.path.split('/')[2] ?? '');
      const data = pullIdSchema.safeParse(id).success ? await findSharedPull(deps.db, id) : null;
      if (!data) return { ...result, status: 404, html };
      const { publicUrl, siteName, currency } = deps.config;
      return { ...result, html: injectMeta(html, pullMeta(data, { publicUrl, siteName, currency })) };
    }
    return { ...result, html };
  }

  // The page's HTML, compressed too: it is the first thing a visit waits for, and with the inline
  // stylesheet and a drawn page it runs to ~280 KB (~32 KB gzipped).
  app.get('*', compress(), async (c) => {
    const route = matchRoute(c.req.path);
    const signedIn = Boolean(c.get('actor'));
    c.header('Cache-Control', 'no-cache');
    if (pages && !signedIn && drawnOnServer(route, false) && loadIndex()) {
      const url = new URL(c.req.url);
      const page = await pages.get(url.pathname + url.search, () => answer(c, route, false));
      if (isCachedPage(page)) return sendPrepared(c, page, page.status === 404 ? 404 : 200, 'text/html; charset=UTF-8', { 'Cache-Control': 'no-cache' });
      return c.html(page.html, page.status as 200);
    }
    const page = await answer(c, route, signedIn);
    // A user's page holds their data: no shared cache may keep it, nor the browser's back/forward
    // cache after they sign out.
    if (page.private) c.header('Cache-Control', 'private, no-store');
    return c.html(page.html, page.status as 200);
  });
  return app;
}
