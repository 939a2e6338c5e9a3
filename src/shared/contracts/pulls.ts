import { z } from 'zod';
import { lookRefsSchema } from './catalog.ts';
import { pullSchema } from './shop.ts';

/**
 * Shared pulls (issue 19 item 2): every card drawn in an opening has a public page at
 * /pulls/{ownedCardId}. The owned card's id is the pull: its row stays when the copy is sold back
 * or shipped, so the link keeps working. Only public facts leave the server: the card, the pack,
 * the puller's username and the opening's commitment — never the owner's id, email or the copy's
 * current status.
 */

export const pullIdSchema = z.string().uuid('Not a valid pull id.');

export const pullProofSchema = z.object({
  openingId: z.string(),
  /** 0-based slot of this card in the opening. */
  slot: z.number().int(),
  nonce: z.number().int(),
  /** The commitment published before the opening. */
  serverSeedHash: z.string(),
  /** The pools the draw used: GET /api/fairness/pools/{poolHash}. */
  poolHash: z.string(),
  /** The odds revision it was drawn under (GET /api/fairness/revisions/{hash}); null before issue 44. */
  revisionHash: z.string().nullable(),
  /** True once the owner rotated the seed, so the opening can be recomputed. */
  seedRevealed: z.boolean(),
});
export type PullProof = z.infer<typeof pullProofSchema>;

/** GET /api/pulls/{id} */
export const sharedPullSchema = z.object({
  pull: pullSchema,
  proof: pullProofSchema,
  refs: lookRefsSchema,
});
export type SharedPull = z.infer<typeof sharedPullSchema>;

export const OG_IMAGE_WIDTH = 1200;
export const OG_IMAGE_HEIGHT = 630;

/** Where a pull's page (pull-path.ts, free of zod for the web's public pages) and its preview image live. */
export { pullPagePath } from '../pull-path.ts';
export const pullOgImagePath = (id: string) => `/api/pulls/${encodeURIComponent(id)}/og.png`;
