/**
 * The public API reads that the first page of a visit starts with: exactly the URLs its queries
 * request (features/shop/api.ts, features/catalog/api.ts). The route-preload script (built by
 * vite.config.ts from this function's source) sends them while the app's code is still
 * downloading, and `api.get` takes the answer instead of asking again (see api.ts).
 *
 * It must stay self-contained (no imports, no outer names): its source text is copied as is.
 * A URL that does not match a query only costs one unused request.
 */
export function earlyRequests(pathname: string, search: URLSearchParams): string[] {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/') return ['/api/shop/products', '/api/top-pulls?window=24h&limit=6'];
  if (path === '/shop') return ['/api/shop/products'];
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

type EarlyAnswers = Map<string, [number, Promise<Response>]>;

/** The early answer for a GET of `path`, once, if the route-preload script asked for it lately. */
export function takeEarlyAnswer(path: string): Promise<Response> | undefined {
  const early = (globalThis as { __pvEarly?: EarlyAnswers }).__pvEarly;
  const hit = early?.get(path);
  if (!hit) return undefined;
  early!.delete(path);
  // Only for the first screen: later reads must see current data.
  return performance.now() - hit[0] < 10_000 ? hit[1] : undefined;
}
