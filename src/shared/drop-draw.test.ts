import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawDropWinners, entryListCanonical, entryListHash, verifyDrop } from './drop-draw.ts';
import { sha256Hex, webCryptoFair, type FairCrypto } from './fairness.ts';

const nodeFair: FairCrypto = {
  hmacSha256: async (k, m) => new Uint8Array(createHmac('sha256', k).update(m).digest()),
  sha256: async (m) => new Uint8Array(createHash('sha256').update(m).digest()),
};

// The known-answer vectors published in docs/fairness.md ("Daily drops"), computed there with
// an independent Python reference.
const SEED = '5e0f4d3c2b1a09f8e7d6c5b4a3928170e1d2c3b4a5968778695a4b3c2d1e0f9a';
const COMMITMENT = '725e9440401e783f096b7202d4aff73ddd048ca952781c3de9c9d4d9fee6d47b';
const IDS = ['k7QpX2', 'Ab3dE9', 'zz01', 'm4N5p6', 'B0b', 'q-9_x', 'C3PO', 'r2d2'];
const LIST_HASH = 'a1a49de021af63995c6d6e5d2db2ab344327748a5534fac4c394a81add5194b7';
const ALL_EIGHT: Array<[number, string]> = [
  [4, 'm4N5p6'],
  [0, 'Ab3dE9'],
  [1, 'C3PO'],
  [4, 'zz01'],
  [0, 'B0b'],
  [0, 'k7QpX2'],
  [1, 'r2d2'],
  [0, 'q-9_x'],
];

/**
 * A second implementation written from docs/fairness.md alone, sharing no code with drop-draw.ts:
 * synchronous node:crypto, the words read with DataView, the undrawn list filtered rather than
 * spliced.
 */
function reference(seed: string, ids: readonly string[], k: number): { listHash: string; winners: string[] } {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const listHash = createHash('sha256').update(sorted.join('\n'), 'utf8').digest('hex');
  const queue: number[] = [];
  let round = 0;
  const next = () => {
    if (queue.length === 0) {
      const d = createHmac('sha256', Buffer.from(seed, 'utf8')).update(`${listHash}:${round++}`, 'utf8').digest();
      const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
      for (let o = 0; o < 32; o += 4) queue.push(view.getUint32(o, false));
    }
    return queue.shift()!;
  };
  let undrawn = sorted;
  const winners: string[] = [];
  while (winners.length < k && undrawn.length > 0) {
    const n = undrawn.length;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let u = next();
    while (u >= limit) u = next();
    const pick = undrawn[u % n]!;
    winners.push(pick);
    undrawn = undrawn.filter((x) => x !== pick);
  }
  return { listHash, winners };
}

describe.each([
  ['node:crypto', nodeFair],
  ['Web Crypto', webCryptoFair()],
])('drop draw known-answer vectors (%s)', (_name, fair) => {
  it('commitment and entry-list hash', async () => {
    expect(await sha256Hex(fair, SEED)).toBe(COMMITMENT);
    expect(entryListCanonical(IDS)).toBe('Ab3dE9\nB0b\nC3PO\nk7QpX2\nm4N5p6\nq-9_x\nr2d2\nzz01');
    expect(await entryListHash(fair, IDS)).toBe(LIST_HASH);
    expect(await entryListHash(fair, [])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(Buffer.from(await fair.hmacSha256(SEED, `${LIST_HASH}:0`)).toString('hex')).toBe(
      '89b07dfcc82482bc73848259d78093e5eafef644c41b1b4a8d664c1d0b5a6e71',
    );
  });

  it('three winners of eight, then all eight in order', async () => {
    const three = await drawDropWinners(fair, { seed: SEED, entryIds: IDS, winners: 3 });
    expect(three).toEqual({ entryListHash: LIST_HASH, winners: ALL_EIGHT.slice(0, 3).map(([index, entryId], place) => ({ place, index, entryId })) });
    const all = await drawDropWinners(fair, { seed: SEED, entryIds: [...IDS].reverse(), winners: 8 });
    expect(all.winners.map((w) => [w.index, w.entryId])).toEqual(ALL_EIGHT);
  });

  it('more winners than entries draws everyone once; no entries, no winner', async () => {
    expect((await drawDropWinners(fair, { seed: SEED, entryIds: ['solo'], winners: 5 })).winners).toEqual([{ place: 0, index: 0, entryId: 'solo' }]);
    expect(await drawDropWinners(fair, { seed: SEED, entryIds: [], winners: 2 })).toEqual({
      entryListHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      winners: [],
    });
  });
});

describe('verifyDrop', () => {
  const proof = {
    seed: SEED,
    commitment: COMMITMENT,
    entryIds: IDS,
    entryListHash: LIST_HASH,
    winnerCount: 3,
    winners: ['m4N5p6', 'Ab3dE9', 'C3PO'],
  };
  it('accepts the published proof', async () => {
    expect(await verifyDrop(webCryptoFair(), proof)).toEqual({ ok: true, problems: [], winners: proof.winners });
  });
  it.each([
    ['another seed', { seed: SEED.replace('5e', '5f') }, /commitment/],
    ['an entry dropped from the list', { entryIds: IDS.slice(1) }, /entry list hashes/],
    ['an entry added to the list', { entryIds: [...IDS, 'late'] }, /entry list hashes/],
    ['other winners', { winners: ['m4N5p6', 'C3PO', 'Ab3dE9'] }, /recomputed winners/],
    ['fewer winners', { winners: ['m4N5p6'] }, /recomputed winners/],
    ['a duplicated entry', { entryIds: [...IDS, 'B0b'] }, /listed twice/],
  ])('rejects %s', async (_what, change, problem) => {
    const r = await verifyDrop(nodeFair, { ...proof, ...change });
    expect(r.ok).toBe(false);
    expect(r.problems.join('\n')).toMatch(problem);
  });
  it('refuses ids that would make the list ambiguous', async () => {
    await expect(entryListHash(nodeFair, ['a\nb'])).rejects.toThrow(/not an entry id/);
    await expect(entryListHash(nodeFair, [''])).rejects.toThrow(/not an entry id/);
  });
});

describe('properties', () => {
  const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
  it('matches the independent reference; winners are distinct entries, min(k, n) of them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(idArb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 50 }),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        async (ids, k, seed) => {
          const r = await drawDropWinners(nodeFair, { seed, entryIds: ids, winners: k });
          const ref = reference(seed, ids, k);
          expect(r.entryListHash).toBe(ref.listHash);
          expect(r.winners.map((w) => w.entryId)).toEqual(ref.winners);
          expect(new Set(ref.winners).size).toBe(Math.min(k, ids.length));
          for (const w of ref.winners) expect(ids).toContain(w);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives every entry the same chance (chi-square, 0.1 % level)', async () => {
    // 7 entries, one winner, 14,000 seeds: each entry expected 2,000 times.
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const counts = new Map(ids.map((id) => [id, 0]));
    const runs = 14_000;
    for (let i = 0; i < runs; i++) {
      const r = await drawDropWinners(nodeFair, { seed: createHash('sha256').update(`seed${i}`).digest('hex'), entryIds: ids, winners: 1 });
      counts.set(r.winners[0]!.entryId, counts.get(r.winners[0]!.entryId)! + 1);
    }
    const expected = runs / ids.length;
    const chi2 = [...counts.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(22.46); // 6 degrees of freedom, p = 0.001
  });
});
