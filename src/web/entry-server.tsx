// First: zod's config must be in place before any schema is built (see the module).
import '@web/lib/zod-jitless';
import { dehydrate, QueryClient, skipToken, type DefaultError, type QueryKey, type QueryObserverOptions } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { prerenderToNodeStream } from 'react-dom/static';
import { sessionQueryOptions } from '@web/features/auth/session';
import { siteConfigQueryOptions } from '@web/hooks/use-site-config';
import { ApiClientError, setServerFetch } from '@web/lib/api';
import { buildRouter } from '@web/router';
import { App, createQueryClient } from './app';

/**
 * The server's half of the public pages' first HTML (docs/decisions/0027). Built by Vite as an
 * SSR bundle (`dist/ssr/entry-server.js`) and loaded by server/modules/pages/ssr.ts, which hands
 * it the API to read from (the same routes and services the browser's requests reach) and keeps
 * the drawings.
 *
 * A page's data is whatever its components read: drawing it records every enabled query the
 * render asked for, reads those still missing, and draws again (at most MAX_PASSES times), so no
 * page keeps a second list of what it shows. What a page read is remembered per address, so the
 * next request reads it all up front and, when nothing changed, reuses the drawing unrendered.
 */

export { setServerFetch };

type AnyOptions = QueryObserverOptions<unknown, DefaultError, unknown, unknown, QueryKey>;

/** Draws are repeated while they discover queries they have no data for; nested reads are rare. */
const MAX_PASSES = 3;
/** Addresses whose reads are remembered (a few per page and search). */
const MAX_RECIPES = 1000;
const recipes = new Map<string, AnyOptions[]>();

/** Notes every query a render asks for with `enabled` on (useQuery passes its options through here). */
class RecordingQueryClient extends QueryClient {
  readonly asked = new Map<string, AnyOptions>();
  override defaultQueryOptions<O extends object>(options: O) {
    const d = super.defaultQueryOptions(options as never) as unknown as AnyOptions & { queryHash: string };
    if (d.queryFn !== skipToken && d.queryFn && d.enabled !== false) {
      // A function `enabled` is judged on the query as it is in the cache, when it is there.
      const query = typeof d.enabled === 'function' ? this.getQueryCache().get(d.queryHash) : undefined;
      if (typeof d.enabled !== 'function' || (query && d.enabled(query) !== false)) this.asked.set(d.queryHash, d);
    }
    return d as never;
  }
}

export interface Drawing {
  markup: string;
  drawnAt: number;
}

export interface RenderResult {
  /**
   * 404 when the page's route or its subject (a product, a drop, a pull…) does not exist; 401 when
   * a user's page finds no session (nothing drawn).
   */
  status: number;
  /** #root's HTML. */
  markup: string;
  drawnAt: number;
  /** The dehydrated query cache, for the browser to hydrate from. */
  state: unknown;
}

/**
 * The page at `url`, as a visitor (no session) sees it, or with `signedIn` as the user whose
 * session the server's reads carry. `reuse` is asked, with a key of every read the page made, for
 * a drawing of the same data; else the page is drawn at `now`.
 */
export async function renderPage(
  url: string,
  now: number,
  reuse: (dataKey: string) => Drawing | null,
  keep: (dataKey: string, d: Drawing) => void,
  signedIn = false,
): Promise<RenderResult> {
  const defaults = createQueryClient().getDefaultOptions();
  // retryOnMount off: a read that failed (an unknown id's 404) is drawn as the failure it is,
  // not as a fresh attempt (useQuery would otherwise show it loading again).
  const queryClient = new RecordingQueryClient({ defaultOptions: { ...defaults, queries: { ...defaults.queries, retryOnMount: false } } });
  // A visitor has no session to read; a user's is read (through their cookie) by the route's guard.
  if (!signedIn) queryClient.setQueryData(sessionQueryOptions.queryKey, null);
  const router = buildRouter(queryClient, { history: createMemoryHistory({ initialEntries: [url] }) });
  // A page reads other things for a user (their header, their data) than for a visitor.
  const recipeKey = `${signedIn ? 'user' : 'visitor'} ${url}`;
  const known = recipes.get(recipeKey) ?? [];
  // The site's name and support address are in the header and footer of every page.
  await Promise.all([router.load(), queryClient.prefetchQuery(siteConfigQueryOptions), ...known.map((o) => queryClient.prefetchQuery(o))]);
  // The session ended between the request's check and this read: the browser sends them to sign in.
  if (signedIn && !queryClient.getQueryData(sessionQueryOptions.queryKey)) return { status: 401, markup: '', drawnAt: now, state: null };

  // Queries never read (a disabled one a render built) are left out: the next request's up-front
  // reads do not build them, and the key must come out the same.
  const dataKey = () =>
    JSON.stringify(
      queryClient
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.status !== 'pending')
        .map((q) => [q.queryHash, q.state.status, q.state.data ?? null, q.state.error instanceof ApiClientError ? q.state.error.status : null]),
    );
  // A user's drawing is theirs alone (never reused, never kept): no key to compute for it.
  let drawing = known.length && !signedIn ? reuse(dataKey()) : null;
  if (!drawing) {
    let markup = '';
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      markup = await draw(queryClient, router, now);
      const missing = [...queryClient.asked.values()].filter((o) => queryClient.getQueryState(o.queryKey)?.status === 'pending');
      if (!missing.length) break;
      await Promise.all(missing.map((o) => queryClient.prefetchQuery(o)));
    }
    drawing = { markup, drawnAt: now };
    recipes.delete(recipeKey);
    recipes.set(recipeKey, [...queryClient.asked.values()]);
    if (recipes.size > MAX_RECIPES) recipes.delete(recipes.keys().next().value!);
    if (!signedIn) keep(dataKey(), drawing);
  }

  // The browser gets the data as JSON: a Map, a Set, a Date or a class would arrive changed, and
  // its first render would not match this one. A page that reads one is a bug to fix (ssr.ts logs
  // it and answers the error page; the e2e suite fails on that log).
  for (const q of queryClient.getQueryCache().getAll()) {
    if (!isJson(q.state.data)) throw new Error(`query ${q.queryHash} holds data JSON cannot carry to the browser (a Map, Set, Date or class?)`);
  }
  const missing = queryClient
    .getQueryCache()
    .getAll()
    .some((q) => q.state.error instanceof ApiClientError && (q.state.error.status === 404 || q.state.error.status === 400));
  const notFound = router.state.matches.some((m) => m.status === 'notFound' || m.staticData.route?.notFound);
  return { status: notFound || missing ? 404 : 200, markup: drawing.markup, drawnAt: drawing.drawnAt, state: dehydrate(queryClient) };
}

/** True when `v` comes back from JSON.stringify → JSON.parse as it is. */
function isJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.every((x) => x !== undefined && isJson(x));
  if (typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && Object.values(v).every(isJson);
}

async function draw(queryClient: QueryClient, router: ReturnType<typeof buildRouter>, drawnAt: number): Promise<string> {
  // Every boundary inline: React otherwise moves a finished boundary past ~12.8 KB of page out of
  // place, to be revealed by an inline script, which the CSP (script-src 'self') refuses — the
  // header's signed-in half on a user's page, once the page above it is that large.
  const { prelude } = await prerenderToNodeStream(<App queryClient={queryClient} router={router} drawnAt={drawnAt} />, {
    progressiveChunkSize: Number.MAX_SAFE_INTEGER,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
