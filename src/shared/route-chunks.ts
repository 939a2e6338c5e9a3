/**
 * The build's map from a public route's id to the code its page needs beyond the entry chunk
 * (vite.config.ts writes it next to index.html; the page server preloads the current route's from
 * the HTML).
 */
export const ROUTE_CHUNKS_FILE = 'route-chunks.json';

export type RouteChunks = Record<string, string[]>;
