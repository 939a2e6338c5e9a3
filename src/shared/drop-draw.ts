import { cmp, sha256Hex, WordStream, type FairCrypto } from './fairness.ts';

/**
 * The draw of a daily drop by commit–reveal (docs/fairness.md, "Daily drops", is the normative
 * description; keep them in step). Runs unchanged on the server (node:crypto) and in the browser
 * (Web Crypto), like the pack openings' draw.
 *
 * - When the drop opens, a secret seed (32 random bytes, 64 hex characters) is made and its
 *   SHA-256 published: the commitment.
 * - At close the entry list is frozen: the entries' public ids, sorted, one per line. Its SHA-256
 *   is published with the revealed seed.
 * - The words of HMAC-SHA256(key = seed, message = `${entryListHash}:${round}`), round = 0, 1, …
 *   draw the winners from the sorted list one after another, each by rejection sampling over the
 *   entries not yet drawn, so nobody wins twice.
 *
 * Entering cannot steer the draw: the seed was fixed (and committed) before the first entry, and
 * the entry list is only known after the last. Knowing the seed early would let us choose who
 * enters, which the published commitment and entry list let anyone check afterwards.
 */

/** What a public entry id may be: short, no separators that would make the list ambiguous. */
export const ENTRY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The canonical text of an entry list: the public ids sorted in code-unit order, joined by "\n". */
export function entryListCanonical(entryIds: readonly string[]): string {
  for (const id of entryIds) if (!ENTRY_ID_PATTERN.test(id)) throw new RangeError(`not an entry id: ${JSON.stringify(id)}`);
  const sorted = [...entryIds].sort(cmp);
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) throw new RangeError(`entry ${sorted[i]} is listed twice`);
  return sorted.join('\n');
}

export async function entryListHash(crypto: FairCrypto, entryIds: readonly string[]): Promise<string> {
  return sha256Hex(crypto, entryListCanonical(entryIds));
}

export interface DropWinner {
  /** 0 for the first winner drawn, 1 for the next, … */
  place: number;
  /** Position of the winner in the sorted entries still undrawn, as drawn. */
  index: number;
  entryId: string;
}

export interface DropDrawResult {
  entryListHash: string;
  winners: DropWinner[];
}

/**
 * Draws min(winners, entries) distinct winners. No entries: no winners (the prize goes back).
 */
export async function drawDropWinners(
  crypto: FairCrypto,
  input: { seed: string; entryIds: readonly string[]; winners: number },
): Promise<DropDrawResult> {
  if (!Number.isInteger(input.winners) || input.winners < 1) throw new RangeError(`a drop has at least one winner, got ${input.winners}`);
  const canonical = entryListCanonical(input.entryIds);
  const listHash = await sha256Hex(crypto, canonical);
  const left = canonical === '' ? [] : canonical.split('\n');
  const stream = new WordStream(crypto, input.seed, listHash);
  const winners: DropWinner[] = [];
  for (let place = 0; place < input.winners && left.length > 0; place++) {
    const index = await stream.uniform(left.length);
    winners.push({ place, index, entryId: left[index]! });
    left.splice(index, 1);
  }
  return { entryListHash: listHash, winners };
}

export interface DropProof {
  /** The revealed seed and its commitment, published when the drop opened. */
  seed: string;
  commitment: string;
  entryIds: readonly string[];
  entryListHash: string;
  winnerCount: number;
  /** The published winners' entry ids, in the order drawn. */
  winners: readonly string[];
}

export interface DropVerifyResult {
  ok: boolean;
  /** One line per failed check. */
  problems: string[];
  /** The recomputed winners' entry ids. */
  winners: string[];
}

/** Recomputes a drop's draw from its published proof and checks every published value. */
export async function verifyDrop(crypto: FairCrypto, p: DropProof): Promise<DropVerifyResult> {
  const problems: string[] = [];
  const seedHash = await sha256Hex(crypto, p.seed);
  if (seedHash !== p.commitment) problems.push(`the seed hashes to ${seedHash}, not the commitment ${p.commitment}`);
  let winners: string[] = [];
  try {
    const r = await drawDropWinners(crypto, { seed: p.seed, entryIds: p.entryIds, winners: p.winnerCount });
    if (r.entryListHash !== p.entryListHash) problems.push(`the entry list hashes to ${r.entryListHash}, not the published ${p.entryListHash}`);
    winners = r.winners.map((w) => w.entryId);
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
  }
  if (winners.length !== p.winners.length || winners.some((w, i) => w !== p.winners[i])) {
    problems.push(`recomputed winners ${winners.join(', ') || '(none)'}, published ${p.winners.join(', ') || '(none)'}`);
  }
  return { ok: problems.length === 0, problems, winners };
}
