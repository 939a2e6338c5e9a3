import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serverStateScript } from '../../../shared/ssr-state.ts';

/** What web/entry-server.tsx exports (built to dist/ssr/entry-server.js). */
interface Drawing {
  markup: string;
  drawnAt: number;
}
interface Renderer {
  setServerFetch(f: (path: string, init: RequestInit) => Promise<Response>): void;
  renderPage(
    url: string,
    now: number,
    reuse: (dataKey: string) => Drawing | null,
    keep: (dataKey: string, d: Drawing) => void,
    signedIn?: boolean,
  ): Promise<{ status: number; markup: string; drawnAt: number; state: unknown }>;
}

/**
 * The API, answering in-process: the same routes, services and caches a browser's request reaches,
 * as the visitor's own request would (their connection and forwarding headers: same address, same
 * limits, never "local" unless they are).
 */
export type ApiFetch = (path: string, init: RequestInit, visitor: Visitor) => Response | Promise<Response>;

/** The visitor's request as the API needs to see it again. */
export interface Visitor {
  /** The node server's bindings (the socket: the peer address). */
  env: unknown;
  /** Forwarding headers as the visitor's request carried them (and a user's cookie). */
  headers: Record<string, string>;
  /**
   * A signed-in user (their cookie is in `headers`): their page is read with their session, and
   * its drawing is neither reused nor kept (it is theirs alone).
   */
  signedIn?: boolean;
}

export interface DrawnPage {
  status: number;
  /** #root's content. */
  markup: string;
  /** The state script the browser hydrates from, for after #root. */
  state: string;
  /** False when a read failed for a passing reason (5xx, 429): a drawing for this request only. */
  cacheable: boolean;
}

/** How long a drawing is reused for the same data: its relative times ("3 minutes ago") age. */
const DRAWING_TTL_MS = 60_000;
/** Drawings kept (one per address), least recently used first out. */
const MAX_DRAWINGS = 500;

/**
 * Pages drawn on the server: a visitor's public pages, and a few of a user's own (docs/decisions/0027,
 * 0035). The page's data is read
 * through the API in-process, every time (cheap: the public reads have their own caches, and this
 * keeps the page exactly as fresh as the API); the drawing is reused while that data is unchanged,
 * so a page costs about what its API reads cost. Keyed by the data itself rather than a catalog
 * version, a drawing can never be staler than the reads it came from. A user's page is read with
 * their cookie and drawn for each request.
 *
 * Returns null when there is no server bundle (a dev server, or tests with a fixture dist), or when
 * an API read answered 503 (maintenance): the page is then the SPA's shell, drawn by the browser.
 */
export function pageDrawer(ssrDir: string, apiFetch: ApiFetch) {
  let renderer: Promise<Renderer | null> | null = null;
  // Which visitor's page the renderer is reading for (it runs many at once, interleaved).
  const current = new AsyncLocalStorage<{ visitor: Visitor; unavailable: boolean; passing: boolean }>();
  const entry = path.join(ssrDir, 'entry-server.js');
  const load = () =>
    (renderer ??= (async () => {
      if (!existsSync(entry)) return null;
      const mod = (await import(pathToFileURL(entry).href)) as Renderer;
      mod.setServerFetch(async (p, init) => {
        const draw = current.getStore();
        // Reads only, and only of the API: the renderer never writes, and never needs more.
        if (!draw || (init.method ?? 'GET') !== 'GET' || !p.startsWith('/api/')) throw new Error(`server render asked for ${init.method} ${p}`);
        const { visitor } = draw;
        const res = await apiFetch(p, { method: 'GET', headers: { ...(init.headers as Record<string, string>), ...visitor.headers } }, visitor);
        if (res.status === 503) draw.unavailable = true;
        if (res.status >= 500 || res.status === 429) draw.passing = true;
        return res;
      });
      return mod;
    })());
  const drawings = new Map<string, { key: string } & Drawing>();

  return async function draw(url: string, visitor: Visitor): Promise<DrawnPage | null> {
    const r = await load();
    if (!r) return null;
    const now = Date.now();
    const keyOf = (dataKey: string) => createHash('sha256').update(dataKey).digest('base64url');
    const ctx = { visitor, unavailable: false, passing: false };
    const shared = !visitor.signedIn;
    const page = await current.run(ctx, () =>
      r.renderPage(
        url,
        now,
        (dataKey) => {
          const d = shared ? drawings.get(url) : undefined;
          return d && d.key === keyOf(dataKey) && now - d.drawnAt <= DRAWING_TTL_MS ? d : null;
        },
        (dataKey, d) => {
          if (!shared) return;
          drawings.delete(url);
          drawings.set(url, { key: keyOf(dataKey), ...d });
          if (drawings.size > MAX_DRAWINGS) drawings.delete(drawings.keys().next().value!);
        },
        visitor.signedIn,
      ),
    );
    // A user's page found no session (it ended since the request was checked): the browser's
    // app sends them to sign in.
    if (page.status === 401) return null;
    // The shop is closed (maintenance) or a read is out of service: the browser draws the page,
    // and moves to /maintenance as it learns why. Hydrating a page of errors would only be
    // thrown away by that move, mid-hydration.
    if (ctx.unavailable) return null;
    // A page whose subject is missing is drawn by the browser again rather than hydrated: what
    // it read was an error, which does not travel to the browser's cache.
    const state = page.status === 200 ? serverStateScript({ state: page.state, drawnAt: page.drawnAt }) : '';
    return { status: page.status, markup: page.markup, state, cacheable: !ctx.passing };
  };
}
