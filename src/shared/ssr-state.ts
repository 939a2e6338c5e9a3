/**
 * How a server-rendered page carries what it was drawn from to the browser: one
 * `<script type="application/json" id="pv-ssr">` (data, not code: the CSP's `script-src 'self'`
 * has nothing to allow). Written by server/modules/pages/ssr.ts, read by web main.tsx.
 */
export const SSR_STATE_ID = 'pv-ssr';

export interface ServerState {
  /** TanStack Query's dehydrated cache: every query the page's first render read. */
  state: unknown;
  /** When the HTML was drawn (ms since the epoch): time-dependent text hydrates with it. */
  drawnAt: number;
}

/** The script element, with `<` escaped so no text in the data can close it or open a comment. */
export function serverStateScript(s: ServerState): string {
  const json = JSON.stringify(s).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${SSR_STATE_ID}">${json}</script>`;
}

export function readServerState(doc: { getElementById(id: string): { textContent: string | null } | null }): ServerState | null {
  const text = doc.getElementById(SSR_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as ServerState;
  } catch {
    return null;
  }
}

/**
 * The `elementtiming` name of the images a drawn page shows first (its `fetchpriority="high"`
 * ones). The boot script (server/http/boot-script.ts) starts the page's code once the browser
 * reports them on screen (Element Timing), so their bytes and their paint come before the code's.
 */
export const FIRST_SCREEN_TIMING = 'first-screen';
