import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  drawOpening,
  oddsHash,
  pickWeighted,
  poolHash,
  sha256Hex,
  SlotStream,
  toHex,
  verifyOpening,
  webCryptoFair,
  type FairCrypto,
} from './fairness.ts';

const nodeFair: FairCrypto = {
  hmacSha256: async (k, m) => new Uint8Array(createHmac('sha256', k).update(m).digest()),
  sha256: async (m) => new Uint8Array(createHash('sha256').update(m).digest()),
};

// The known-answer vectors published in docs/fairness.md (checked there with a Python reference).
const SERVER_SEED = '7f3c2a1b9e8d4c6f5a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5';
const CLIENT_SEED = 'packvault-demo';
const SLOTS = [
  { odds: [{ classId: 'c1', weight: 70 }, { classId: 'c2', weight: 25 }, { classId: 'c3', weight: 5 }] },
  { odds: [{ classId: 'c1', weight: 70 }, { classId: 'c2', weight: 25 }, { classId: 'c3', weight: 5 }] },
  { odds: [{ classId: 'c2', weight: 3 }, { classId: 'c3', weight: 1 }] },
];
const POOLS = { c1: ['a1', 'a2', 'a3', 'a4', 'a5'], c2: ['b1', 'b2', 'b3'], c3: ['z1'] };
const EXPECTED: Record<number, Array<[string, number, number, string]>> = {
  0: [['c1', 5, 0, 'a1'], ['c1', 5, 2, 'a3'], ['c3', 1, 0, 'z1']],
  1: [['c2', 3, 1, 'b2'], ['c1', 5, 3, 'a4'], ['c2', 3, 2, 'b3']],
  2: [['c1', 5, 3, 'a4'], ['c2', 3, 1, 'b2'], ['c2', 3, 0, 'b1']],
};

describe.each([
  ['node:crypto', nodeFair],
  ['Web Crypto', webCryptoFair()],
])('known-answer vectors (%s)', (_name, fair) => {
  it('hashes the server seed and produces the first HMAC block and words', async () => {
    expect(await sha256Hex(fair, SERVER_SEED)).toBe('35f70e8bce62fb726d728417ba7c444d95d450001d4d996d12c017c568fefad1');
    expect(toHex(await fair.hmacSha256(SERVER_SEED, `${CLIENT_SEED}:0:0:0`))).toBe(
      'eddffb7c1f2907bff1cfcfbf995756cb0096c3ae314a5eca4a247372056024c7',
    );
    const s = new SlotStream(fair, SERVER_SEED, CLIENT_SEED, 0, 0);
    expect([await s.nextUint32(), await s.nextUint32(), await s.nextUint32()]).toEqual([3990879100, 522782655, 4056928191]);
  });

  it('hashes odds and pools canonically', async () => {
    expect(await oddsHash(fair, SLOTS)).toBe('87503718c7149efc76f501843994d245e22c4140a1cba497a941c1e3202f5648');
    expect(await poolHash(fair, POOLS)).toBe('31322e742754f99e7a8989a1932bb33ae40bb34099e45397c217ab1e8ca32a03');
    // Order of pool ids and of classes does not matter (both are sorted).
    expect(await poolHash(fair, { c3: ['z1'], c2: ['b3', 'b1', 'b2'], c1: ['a5', 'a4', 'a3', 'a2', 'a1'] })).toBe(
      '31322e742754f99e7a8989a1932bb33ae40bb34099e45397c217ab1e8ca32a03',
    );
  });

  it.each([0, 1, 2])('draws nonce %i as published', async (nonce) => {
    const { draws } = await drawOpening(fair, { serverSeed: SERVER_SEED, clientSeed: CLIENT_SEED, nonce, slots: SLOTS, pools: POOLS });
    expect(draws.map((d) => [d.classId, d.poolSize, d.index, d.cardId])).toEqual(EXPECTED[nonce]);
  });
});

describe('rejection sampling', () => {
  /** A stream fed with chosen words, to exercise the rejection branch. */
  function scripted(words: number[]): SlotStream {
    const s = new SlotStream(nodeFair, 'k', 'c', 0, 0);
    let i = 0;
    s.nextUint32 = async () => words[i++]!;
    return s;
  }

  it('rejects words at or above the largest multiple of n', async () => {
    // n = 3: limit = 2^32 - (2^32 mod 3) = 4294967295; 4294967295 is rejected, then 7 % 3 = 1.
    expect(await scripted([4294967295, 7]).uniform(3)).toBe(1);
    expect(await scripted([4294967294]).uniform(3)).toBe(4294967294 % 3);
    // n = 100: limit 4294967200.
    expect(await scripted([4294967200, 4294967199]).uniform(100)).toBe(99);
  });

  it('maps the weighted pick by cumulative weights in the listed order', async () => {
    expect(await pickWeighted(scripted([69]), [70, 25, 5])).toBe(0);
    expect(await pickWeighted(scripted([70]), [70, 25, 5])).toBe(1);
    expect(await pickWeighted(scripted([95]), [70, 25, 5])).toBe(2);
    await expect(pickWeighted(scripted([0]), [1, 0])).rejects.toThrow(RangeError);
  });

  it('observed class frequencies over 120,000 draws match the odds (chi-square)', async () => {
    const weights = [6000, 2500, 1000, 400, 100]; // Common … Legendary, 60/25/10/4/1 %
    const total = weights.reduce((a, b) => a + b, 0);
    const counts = new Array<number>(weights.length).fill(0);
    const N = 120_000;
    for (let nonce = 0; nonce < N; nonce++) {
      const s = new SlotStream(nodeFair, SERVER_SEED, 'chi-square', nonce, 0);
      counts[await pickWeighted(s, weights)]! += 1;
    }
    const chi = counts.reduce((acc, obs, i) => {
      const exp = (N * weights[i]!) / total;
      return acc + (obs - exp) ** 2 / exp;
    }, 0);
    // 4 degrees of freedom: P(χ² > 18.47) = 0.001. Deterministic seeds, so this never flakes.
    expect(chi).toBeLessThan(18.47);
    // And a biased sampler would fail it: shifting 1% of Common into Uncommon does.
    const biased = [...counts];
    biased[0]! -= N / 100;
    biased[1]! += N / 100;
    const chiBiased = biased.reduce((acc, obs, i) => acc + (obs - (N * weights[i]!) / total) ** 2 / ((N * weights[i]!) / total), 0);
    expect(chiBiased).toBeGreaterThan(18.47);
  });
});

describe('depletion and verification', () => {
  it('draws the same from pools in any order, and never changes the pools it is given', async () => {
    const slots = Array.from({ length: 6 }, () => ({ odds: [{ classId: 'c2', weight: 1 }] }));
    const stock = new Map([['b1', 1], ['b2', 1], ['b3', 5]]);
    const sorted = Object.fromEntries(Object.entries(POOLS).map(([k, v]) => [k, [...v].sort()]));
    const shuffled = Object.fromEntries(Object.entries(POOLS).map(([k, v]) => [k, [...v].reverse()]));
    const before = JSON.stringify(sorted);
    const input = { serverSeed: SERVER_SEED, clientSeed: CLIENT_SEED, nonce: 9, slots, stock };
    const a = await drawOpening(nodeFair, { ...input, pools: sorted, presorted: true });
    const b = await drawOpening(nodeFair, { ...input, pools: shuffled });
    expect(a.draws).toEqual(b.draws);
    expect(a.poolsAfter).toEqual(b.poolsAfter);
    expect(JSON.stringify(sorted)).toBe(before);
  });

  it('removes a card whose last copy is drawn and records it', async () => {
    const slots = Array.from({ length: 6 }, () => ({ odds: [{ classId: 'c2', weight: 1 }] }));
    const stock = new Map([['b1', 1], ['b2', 1], ['b3', 5]]);
    const { draws, poolsAfter } = await drawOpening(nodeFair, { serverSeed: SERVER_SEED, clientSeed: CLIENT_SEED, nonce: 9, slots, pools: POOLS, stock });
    const counts = new Map<string, number>();
    for (const d of draws) counts.set(d.cardId, (counts.get(d.cardId) ?? 0) + 1);
    expect((counts.get('b1') ?? 0) <= 1 && (counts.get('b2') ?? 0) <= 1).toBe(true);
    for (const d of draws.filter((x) => x.exhausted)) expect(poolsAfter.c2).not.toContain(d.cardId);
    // Pool sizes shrink exactly when something was exhausted.
    for (let i = 1; i < draws.length; i++) {
      expect(draws[i]!.poolSize).toBe(draws[i - 1]!.poolSize - (draws[i - 1]!.exhausted ? 1 : 0));
    }
    const v = await verifyOpening(nodeFair, {
      serverSeed: SERVER_SEED,
      serverSeedHash: await sha256Hex(nodeFair, SERVER_SEED),
      clientSeed: CLIENT_SEED,
      nonce: 9,
      slots,
      oddsHash: await oddsHash(nodeFair, slots),
      poolHash: await poolHash(nodeFair, POOLS),
      pools: POOLS,
      draws,
    });
    expect(v.problems).toEqual([]);
    expect(v.ok).toBe(true);
  });

  it('reports a tampered result, seed or pool', async () => {
    const { draws } = await drawOpening(nodeFair, { serverSeed: SERVER_SEED, clientSeed: CLIENT_SEED, nonce: 1, slots: SLOTS, pools: POOLS });
    const base = {
      serverSeed: SERVER_SEED,
      serverSeedHash: await sha256Hex(nodeFair, SERVER_SEED),
      clientSeed: CLIENT_SEED,
      nonce: 1,
      slots: SLOTS,
      oddsHash: await oddsHash(nodeFair, SLOTS),
      poolHash: await poolHash(nodeFair, POOLS),
      pools: POOLS,
      draws,
    };
    expect((await verifyOpening(nodeFair, base)).ok).toBe(true);
    const swapped = draws.map((d, i) => (i === 0 ? { ...d, cardId: 'b1' } : d));
    expect((await verifyOpening(nodeFair, { ...base, draws: swapped })).problems[0]).toMatch(/slot 0: card b2, stored b1/);
    expect((await verifyOpening(nodeFair, { ...base, serverSeed: SERVER_SEED.replace('7f', '7e') })).ok).toBe(false);
    expect((await verifyOpening(nodeFair, { ...base, pools: { ...POOLS, c3: ['z1', 'z2'] } })).ok).toBe(false);
    expect((await verifyOpening(nodeFair, { ...base, nonce: 2 })).ok).toBe(false);
  });
});
