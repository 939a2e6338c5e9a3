import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webCryptoFair, type FairCrypto } from './fairness.ts';
import { checkOpeningUnderRevision, checkRevision, classPoolCanonical, revisionCanonical, revisionHash, revisionMoments, type PublishedRevision } from './odds-revision.ts';

/**
 * Issue 44: the odds revision's canonical JSON (docs/fairness.md, "Odds revisions", whose test
 * vector these files are) and the standalone verifier (verifier/verify-opening.mjs), which shares
 * no code with this one: run on the vectors as downloaded, and on tampered, forged and truncated
 * copies, each of which must fail with a clear message.
 */

const root = path.resolve(import.meta.dirname, '../..');
const vectors = path.join(root, 'verifier/vectors');
const verifier = path.join(root, 'verifier/verify-opening.mjs');
const load = (name: string) => JSON.parse(readFileSync(path.join(vectors, name), 'utf8')) as Record<string, unknown>;
const tmp = mkdtempSync(path.join(tmpdir(), 'pv-verify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const nodeFair: FairCrypto = {
  hmacSha256: (key, message) => Promise.resolve(new Uint8Array(createHmac('sha256', key).update(message).digest())),
  sha256: (message) => Promise.resolve(new Uint8Array(createHash('sha256').update(message).digest())),
};

const REVISION_HASH = 'eaff62ec014f7b56c78b0e13136a94b45a3ed7028506eb83b27c4811a0cf82f7';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [verifier, ...args], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}
let n = 0;
function file(value: unknown, raw?: string) {
  const p = path.join(tmp, `f${n++}.json`);
  writeFileSync(p, raw ?? JSON.stringify(value));
  return p;
}
const clone = <T>(v: T): T => structuredClone(v);

describe('odds revision canonical JSON', () => {
  const rev = load('revision.json') as unknown as PublishedRevision;

  it('matches the documented text and hash on node:crypto and Web Crypto', async () => {
    expect(classPoolCanonical({ classId: 'c2', cards: [['b3', 700], ['b1', 500], ['b2', 600]] })).toBe('{"cards":[["b1",500],["b2",600],["b3",700]],"classId":"c2"}');
    expect(revisionCanonical(rev)).toBe(
      `{"classes":[${rev.classes.map((c) => `{"classId":"${c.classId}","hash":"${c.hash}"}`).join(',')}],"priceCents":1000,` +
        `"productId":"00000000-0000-4000-8000-000000000001","slots":[[["c1",70],["c2",25],["c3",5]],[["c1",70],["c2",25],["c3",5]],[["c2",3],["c3",1]]],"v":1}`,
    );
    expect(await revisionHash(nodeFair, rev)).toBe(REVISION_HASH);
    expect(await revisionHash(webCryptoFair(), rev)).toBe(REVISION_HASH);
    expect(await checkRevision(webCryptoFair(), rev)).toEqual([]);
  });

  it('any change to odds, price, pool or a value changes the hash', async () => {
    const changed = [
      (r: PublishedRevision) => (r.slots[2]!.odds[0]!.weight = 4),
      (r: PublishedRevision) => (r.priceCents = 999),
      (r: PublishedRevision) => (r.classes[0]!.cards[0]![1] = 51),
      (r: PublishedRevision) => r.classes[1]!.cards.pop(),
    ];
    for (const change of changed) {
      const r = clone(rev);
      change(r);
      expect((await checkRevision(nodeFair, r)).length, String(change)).toBeGreaterThan(0);
    }
  });

  it("refuses an opening whose odds or pool are not the revision's", () => {
    const pools = { c1: ['a1', 'a2'], c2: ['b1'], c3: ['z1'] };
    expect(checkOpeningUnderRevision({ slots: rev.slots, pools }, rev)).toEqual([]);
    expect(checkOpeningUnderRevision({ slots: rev.slots, pools: { ...pools, c3: ['z9'] } }, rev)[0]).toMatch(/not in the revision/);
    expect(checkOpeningUnderRevision({ slots: rev.slots.slice(1), pools }, rev)[0]).toMatch(/odds of the opening/);
  });

  it('gives the expected value the odds page and the drift test use', () => {
    const m = revisionMoments(rev.slots, new Map([['c1', { n: 2, sum: 100, sumSq: 5000 }], ['c2', { n: 1, sum: 1000, sumSq: 1_000_000 }]]));
    // Two slots of 0.7 × 50 + 0.25 × 1000 (c3 has no cards: skipped), one of 0.75 × 1000.
    expect(m.mean).toBeCloseTo(2 * (0.7 * 50 + 0.25 * 1000) + 0.75 * 1000);
  });
});

describe('verifier/verify-opening.mjs', () => {
  const opening = load('opening.json');
  const revision = load('revision.json');
  const pool = load('pool.json');
  const drop = load('drop-proof.json');
  const openingArgs = (o = opening, r = revision, p = pool) => ['opening', file(o), file(r), file(p)];

  it('verifies the vectors: an opening with its revision and pool, and a drop', () => {
    const a = run(['opening', path.join(vectors, 'opening.json'), path.join(vectors, 'revision.json'), path.join(vectors, 'pool.json')]);
    expect(a.code, a.out).toBe(0);
    expect(a.out).toContain(`OK: revision ${REVISION_HASH} recomputes`);
    expect(a.out).toContain('VERIFIED');
    const b = run(['drop', path.join(vectors, 'drop-proof.json')]);
    expect(b.code, b.out).toBe(0);
    // It imports nothing but node: modules.
    const src = readFileSync(verifier, 'utf8');
    for (const m of src.matchAll(/^import .* from '([^']+)'/gm)) expect(m[1]).toMatch(/^node:/);
  });

  const tampered: Array<[string, (o: any, r: any, p: any) => void, RegExp]> = [
    ['a value in the revision', (_o, r) => (r.classes[0].cards[2][1] = 7000), /cards of class c1 hash to/],
    ['a weight in the revision', (_o, r) => (r.slots[0].odds[0].weight = 71), /revision: it hashes to/],
    ['the revision hash the opening names', (o) => (o.opening.fairness.revisionHash = 'ab'.repeat(32)), /names revision abab/],
    ['a card drawn', (o) => (o.opening.fairness.draws[1].cardId = 'a4'), /slot 1 recomputes to .*card a3; stored .*card a4/],
    ['the server seed', (o) => (o.opening.fairness.serverSeed = '0'.repeat(64)), /server seed hashes to/],
    ['the pool: a card outside the revision', (o, _r, p) => {
      p.classes[0].cardIds.push('x9');
      void o;
    }, /pool hashes to|not in the revision/],
    ['the opening odds', (o) => (o.opening.fairness.slots[2].odds[0].weight = 4), /odds are not the odds of its revision/],
  ];
  for (const [what, change, message] of tampered) {
    it(`refuses a tampered opening: ${what}`, () => {
      const [o, r, p] = [clone(opening), clone(revision), clone(pool)];
      change(o, r, p);
      const res = run(openingArgs(o, r, p));
      expect(res.code, res.out).toBe(1);
      expect(res.out).toMatch(message);
      expect(res.out).toContain('NOT VERIFIED');
    });
  }

  it('refuses a forged revision: another pool and odds whose hashes are self-consistent', () => {
    // Rebuild the revision with a card removed and its hashes recomputed, as a forger would: the
    // opening still names the published hash, so the forgery shows.
    const r = clone(revision) as unknown as PublishedRevision;
    r.classes[2]!.cards = [['z2', 1]];
    const forged = execFileSync(process.execPath, ['-e', `
      const { createHash } = require('node:crypto');
      const r = JSON.parse(process.argv[1]);
      const h = (t) => createHash('sha256').update(t).digest('hex');
      for (const c of r.classes) c.hash = h(JSON.stringify({ cards: [...c.cards].sort((a, b) => (a[0] < b[0] ? -1 : 1)), classId: c.classId }));
      r.hash = h(JSON.stringify({ classes: r.classes.map((c) => ({ classId: c.classId, hash: c.hash })), priceCents: r.priceCents, productId: r.productId,
        slots: r.slots.map((s) => s.odds.map((e) => [e.classId, e.weight])), v: 1 }));
      process.stdout.write(JSON.stringify(r));`, JSON.stringify(r)], { encoding: 'utf8' });
    const res = run(['opening', file(opening), file(null, forged), file(pool)]);
    expect(res.code, res.out).toBe(1);
    expect(res.out).toMatch(/names revision eaff62ec.*but the revision file is/);
    expect(res.out).toMatch(/card\(s\) of class c3 drawn from are not in the revision/);
  });

  it('refuses a tampered drop: seed, entries or winners', () => {
    const cases: Array<[(d: any) => void, RegExp]> = [
      [(d) => (d.seed = d.seed.replace(/^5/, '6')), /seed: it hashes to/],
      [(d) => d.entryIds.push('late1'), /entries: the list hashes to/],
      [(d) => (d.winners[0].entryId = 'zz01'), /winners: the draw gives/],
    ];
    for (const [change, message] of cases) {
      const d = clone(drop);
      change(d);
      const res = run(['drop', file(d)]);
      expect(res.code, res.out).toBe(1);
      expect(res.out).toMatch(message);
    }
  });

  it('refuses truncated, missing and wrong files with a clear message (exit 2)', () => {
    const text = readFileSync(path.join(vectors, 'revision.json'), 'utf8');
    const truncated = run(['opening', path.join(vectors, 'opening.json'), file(null, text.slice(0, text.length / 2)), path.join(vectors, 'pool.json')]);
    expect(truncated.code).toBe(2);
    expect(truncated.out).toMatch(/revision file .* is not complete JSON \(truncated/);
    const missing = run(['drop', path.join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/cannot read the drop proof file/);
    const swapped = run(['opening', path.join(vectors, 'revision.json'), path.join(vectors, 'opening.json'), path.join(vectors, 'pool.json')]);
    expect(swapped.code).toBe(2);
    expect(swapped.out).toMatch(/the opening file is not an opening/);
    const secret = clone(opening) as any;
    secret.opening.fairness.serverSeed = null;
    const unrevealed = run(openingArgs(secret));
    expect(unrevealed.code).toBe(1);
    expect(unrevealed.out).toMatch(/server seed is still secret; rotate your seed/);
    expect(run([]).code).toBe(2);
  });
});
