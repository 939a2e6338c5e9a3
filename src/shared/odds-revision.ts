/**
 * Odds revisions (issue 44; docs/fairness.md, "Odds revisions", is the normative description).
 * A revision is the terms a product's packs are drawn under: its price, its slots with their
 * integer weights, and for every class the slots name, the catalogue pool — the cards the pack
 * may give from that class whatever their stock, each with its value. It is addressed by the
 * SHA-256 of a canonical JSON text, published before the first opening under it, and every
 * opening names it. Runs unchanged in Node and the browser (the caller injects SHA-256).
 *
 * Two levels, so a revision of a 100,000-card catalogue stays small and a value edit of one card
 * stores one class again rather than the catalogue: each class pool has its own hash, and the
 * revision text names the classes by those hashes.
 */
import { cmp, sha256Hex, type FairCrypto, type SlotOdds } from './fairness.ts';

export const ODDS_REVISION_FORMAT = 1;

/** A class's catalogue pool: [cardId, valueCents] pairs (any order; canonical text sorts them). */
export interface ClassPoolInput {
  classId: string;
  cards: ReadonlyArray<readonly [string, number]>;
}

/**
 * `{"cards":[["<cardId>",<valueCents>],…],"classId":"<classId>"}`: cards sorted by id in code-unit
 * order, no whitespace, integers in decimal.
 */
export function classPoolCanonical(pool: ClassPoolInput): string {
  const cards = [...pool.cards].sort((a, b) => cmp(a[0], b[0])).map(([id, v]) => [id, v] as const);
  return JSON.stringify({ cards, classId: pool.classId });
}

export interface RevisionInput {
  productId: string;
  priceCents: number;
  slots: readonly SlotOdds[];
  /** Each class the slots name, with its class pool's hash. */
  classes: ReadonlyArray<{ classId: string; hash: string }>;
}

/**
 * `{"classes":[{"classId":"…","hash":"…"},…],"priceCents":N,"productId":"…","slots":[[["<classId>",<weight>],…],…],"v":1}`:
 * keys in this (alphabetical) order, classes sorted by id, slots and their odds in the stored
 * order, no whitespace.
 */
export function revisionCanonical(r: RevisionInput): string {
  const classes = [...r.classes].sort((a, b) => cmp(a.classId, b.classId)).map((c) => ({ classId: c.classId, hash: c.hash }));
  return JSON.stringify({
    classes,
    priceCents: r.priceCents,
    productId: r.productId,
    slots: r.slots.map((s) => s.odds.map((e) => [e.classId, e.weight] as const)),
    v: ODDS_REVISION_FORMAT,
  });
}

export const classPoolHash = (crypto: FairCrypto, pool: ClassPoolInput) => sha256Hex(crypto, classPoolCanonical(pool));
export const revisionHash = (crypto: FairCrypto, r: RevisionInput) => sha256Hex(crypto, revisionCanonical(r));

/** Per class: cards, Σ value, Σ value² (cents). */
export interface PoolMoments {
  n: number;
  sum: number;
  sumSq: number;
}

/**
 * Expected card value of a pack and its variance, every card of a class equally likely: the model
 * of the odds page and of the back office's drift test (modules/dashboard/drift.ts, packMoments).
 */
export function revisionMoments(slots: readonly SlotOdds[], classes: ReadonlyMap<string, PoolMoments>): { mean: number; variance: number } {
  let mean = 0;
  let variance = 0;
  for (const s of slots) {
    const total = s.odds.reduce((a, e) => a + e.weight, 0);
    if (!total) continue;
    let m1 = 0;
    let m2 = 0;
    for (const e of s.odds) {
      const c = classes.get(e.classId);
      if (!c || c.n === 0) continue;
      const p = e.weight / total;
      m1 += p * (c.sum / c.n);
      m2 += p * (c.sumSq / c.n);
    }
    mean += m1;
    variance += Math.max(0, m2 - m1 * m1);
  }
  return { mean, variance };
}

/** Expected cards of each class per pack: Σ over slots of weight ÷ slot total. */
export function classRates(slots: readonly SlotOdds[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of slots) {
    const total = s.odds.reduce((a, e) => a + e.weight, 0);
    for (const e of s.odds) out.set(e.classId, (out.get(e.classId) ?? 0) + (total ? e.weight / total : 0));
  }
  return out;
}

/** A published revision with its class pools in full (GET /api/fairness/revisions/{hash}). */
export interface PublishedRevision {
  hash: string;
  productId: string;
  priceCents: number;
  slots: SlotOdds[];
  classes: Array<{ classId: string; hash: string; cards: Array<[string, number]> }>;
}

/**
 * Checks a published revision: every class pool hashes to the hash the revision names, the
 * revision text hashes to `hash`, and the slots name exactly the classes listed. Returns the
 * problems (empty: it holds).
 */
export async function checkRevision(crypto: FairCrypto, rev: PublishedRevision): Promise<string[]> {
  const problems: string[] = [];
  for (const c of rev.classes) {
    const h = await classPoolHash(crypto, c);
    if (h !== c.hash) problems.push(`class ${c.classId}: its cards hash to ${h}, the revision names ${c.hash}`);
  }
  const named = [...new Set(rev.slots.flatMap((s) => s.odds.map((e) => e.classId)))].sort(cmp).join(',');
  const listed = rev.classes.map((c) => c.classId).sort(cmp).join(',');
  if (named !== listed) problems.push('the classes listed are not exactly the classes the slots name');
  const h = await revisionHash(crypto, rev);
  if (h !== rev.hash) problems.push(`the revision hashes to ${h}, not ${rev.hash}`);
  return problems;
}

/**
 * Checks that an opening was drawn under `rev`: the same slots and weights, and every card of the
 * pools it drew from (in stock at the time) in that class's published pool.
 */
export function checkOpeningUnderRevision(
  opening: { slots: readonly SlotOdds[]; pools: Readonly<Record<string, readonly string[]>> },
  rev: Pick<PublishedRevision, 'slots' | 'classes'>,
): string[] {
  const problems: string[] = [];
  const a = JSON.stringify(opening.slots.map((s) => s.odds.map((e) => [e.classId, e.weight])));
  const b = JSON.stringify(rev.slots.map((s) => s.odds.map((e) => [e.classId, e.weight])));
  if (a !== b) problems.push('the odds of the opening are not the odds of the revision');
  const published = new Map(rev.classes.map((c) => [c.classId, new Set(c.cards.map(([id]) => id))]));
  for (const [classId, ids] of Object.entries(opening.pools)) {
    const set = published.get(classId);
    if (!set) {
      problems.push(`class ${classId} of the opening's pool is not in the revision`);
      continue;
    }
    const outside = ids.filter((id) => !set.has(id));
    if (outside.length) problems.push(`class ${classId}: ${outside.length} card(s) of the opening's pool are not in the revision (${outside[0]}…)`);
  }
  return problems;
}
