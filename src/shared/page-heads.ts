import type { RouteId } from './routes.ts';

/** A page's heading block as its first render draws it: plain text, known before any data. */
export interface PageHead {
  eyebrow?: string;
  title: string;
  description?: string;
}

/**
 * The heading blocks the page server puts in a page's first HTML, under the site header
 * (site-shell.ts), and the page draws with the same words: so the page's words paint with the
 * HTML instead of after its code has arrived and run, and nothing changes when the app takes
 * over. Only pages whose first render starts with a static heading belong here; on /open-pack the
 * description is the page's largest paint (issue 21).
 */
export const PAGE_HEADS = {
  openPack: {
    title: 'Open a pack',
    description:
      'Your unopened packs. The cards inside are drawn the moment you open, from your provably fair seed, and go straight into your vault.',
  },
  collect: {
    eyebrow: 'Collection',
    title: 'My vault',
    description:
      'Every card you own is stored here. Open one for its story and proof, sell cards back for instant credit, or have them shipped to you.',
  },
} as const satisfies Partial<Record<RouteId, PageHead>>;

export function pageHeadFor(id: RouteId): PageHead | undefined {
  return (PAGE_HEADS as Partial<Record<RouteId, PageHead>>)[id];
}
