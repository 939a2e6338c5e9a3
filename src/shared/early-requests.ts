/** What the app asks for on every page as it starts (web main.tsx): the site config and who is signed in. */
export const START_REQUESTS = ['/api/config', '/api/me'] as const;

/** Cards per page of the vault (web features/collection/vault.tsx). */
export const VAULT_PAGE_SIZE = 24;

/**
 * The first reads of the signed-in pages whose data the address names alone (web
 * pages/shop/open-pack.tsx; on /collect the vault's first page with its default filters, which
 * are not in the address). Only preloaded for a request that carries a live session.
 */
export function signedInEarlyRequests(pathname: string, search: URLSearchParams = new URLSearchParams()): string[] {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/open-pack') return ['/api/shop/inventory', '/api/catalog/classes'];
  // Only when the vault is the tab on show: the sets and wishlist tabs do not ask for it.
  if (path === '/collect' && (search.get('tab') ?? 'cards') === 'cards') {
    return [`/api/collection?status=in_vault&sort=acquired_desc&page=1&pageSize=${VAULT_PAGE_SIZE}`];
  }
  return [];
}

/**
 * The public API reads that the first page of a visit starts with: exactly the URLs its queries
 * request (web features/shop/api.ts, features/catalog/api.ts). The page server
 * (server/modules/pages/spa.ts) names them in the HTML as
 * `<link rel="preload" as="fetch" crossorigin="anonymous">`, fetched as soon as the head is read;
 * the web's `api.get` fetches the same URLs with the same mode and credentials, so the browser
 * hands it the preloaded answers instead of asking again.
 *
 * A URL that does not match a query costs an unused request and a console warning about an unused
 * preload, so a change to a page's first query must change this too (spa.test.ts lists them).
 */
export function earlyRequests(pathname: string, search: URLSearchParams): string[] {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/') return ['/api/shop/products', '/api/top-pulls?window=24h&limit=6'];
  if (path === '/shop') return ['/api/shop/products'];
  const product = /^\/shop\/([0-9A-Za-z-]+)$/.exec(path);
  if (product) return [`/api/shop/products/${product[1]}`, '/api/catalog/classes'];
  if (path === '/top-pulls') return ['/api/top-pulls?window=24h&limit=50'];
  if (path === '/cards') {
    const list = new URLSearchParams();
    for (const key of ['q', 'classId', 'set']) {
      const value = search.get(key);
      if (value) list.set(key, value);
    }
    const grading = search.get('grading');
    if (grading === 'graded' || grading === 'ungraded') list.set('graded', String(grading === 'graded'));
    list.set('sort', search.get('sort') || 'value_desc');
    list.set('page', String(Math.max(1, Number.parseInt(search.get('page') ?? '', 10) || 1)));
    return [`/api/cards?${list}`, '/api/catalog/classes', '/api/catalog/sets'];
  }
  return [];
}
