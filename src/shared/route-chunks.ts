/**
 * The build's map from a public or signed-in route's id to the code its page needs beyond the
 * entry chunk (vite.config.ts writes it next to index.html; the page server preloads the current
 * route's from the HTML).
 */
export const ROUTE_CHUNKS_FILE = 'route-chunks.json';

export type RouteChunks = Record<string, string[]>;

/**
 * Keys of the map that are not route ids: code a signed-in visitor needs on any page of the shop's
 * layout (the signed-in half of the header and its bell, lazy for visitors; the account menu loads
 * when first wanted), and
 * the profile area's lazy layout.
 */
export const SIGNED_IN_CHROME = '$signedIn';
export const PROFILE_LAYOUT = '$profileLayout';
