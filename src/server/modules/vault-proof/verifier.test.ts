import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, verify as edVerify, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVaultProof, holderPreimage, leafPreimage, nodePreimage, pathShape, siblingPositions } from '../../../shared/vault-proof.ts';
import { buildLevels, commitmentOf, EMPTY_ROOT, leafHash, nodeHash, rootOf } from './tree.ts';
import { vaultVectors } from './vectors.ts';

/**
 * The vault proof's rules, three ways (issue 44): the server's fast tree (tree.ts), the shared
 * rules the browser checks with, and the standalone verifier (verifier/verify-vault.mjs, Node's
 * standard library only) on the published vectors, good and tampered.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const VECTORS = path.join(ROOT, 'verifier/vectors');
const VERIFIER = path.join(ROOT, 'verifier/verify-vault.mjs');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();
const vectorKey = (JSON.parse(readFileSync(path.join(VECTORS, 'vault-key.json'), 'utf8')) as { publicKey: string }).publicKey;

const run = (file: string, key: string) => spawnSync(process.execPath, [VERIFIER, path.join(VECTORS, file), '--public-key', key], { encoding: 'utf8' });

describe('the committed vectors', () => {
  it('are what the code makes now (npm run vault:vectors rewrites them)', () => {
    for (const [name, data] of Object.entries(vaultVectors())) {
      expect(readFileSync(path.join(VECTORS, name), 'utf8'), name).toBe(`${JSON.stringify(data, null, 2)}\n`);
    }
  });
});

describe('verify-vault.mjs', () => {
  it('accepts the good proof with the published key', () => {
    const out = execFileSync(process.execPath, [VERIFIER, path.join(VECTORS, 'vault-proof.json'), '--public-key', vectorKey], { encoding: 'utf8' });
    expect(out).toMatch(/^OK: all 2 copies of holder vector-holder-ada are in vault snapshot 1/);
  });

  it.each([
    ['vault-forged-leaf.json', /its hash does not match its card, copy and commitment/],
    ['vault-forged-leaf-rehashed.json', /its path does not lead to the signed root/],
    ['vault-truncated-path.json', /its path has 2 hashes; a leaf at index 4 of 7 needs 3/],
    ['vault-altered-statement.json', /signature does not verify/],
  ])('refuses %s with a clear message', (file, message) => {
    const r = run(file, vectorKey);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^REFUSED: /);
    expect(r.stderr).toMatch(message);
  });

  it('refuses a good proof under another key, a malformed key, and no key', () => {
    const other = Buffer.from(createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ format: 'jwk' }).x!, 'base64url').toString('base64');
    const wrong = run('vault-proof.json', other);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/signature does not verify with this public key/);
    const bad = run('vault-proof.json', 'not-a-key');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/not 32 bytes of base64/);
    const none = spawnSync(process.execPath, [VERIFIER, path.join(VECTORS, 'vault-proof.json')], { encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/give the published public key/);
  });

  it('with --totals, checks the published totals against the signed statement; altered totals are refused', () => {
    const totals = path.join(VECTORS, 'vault-totals.json');
    const ok = execFileSync(process.execPath, [VERIFIER, path.join(VECTORS, 'vault-proof.json'), '--public-key', vectorKey, '--totals', totals], { encoding: 'utf8' });
    expect(ok).toMatch(/The signed totals check: 2 cards, 4 copies held by the shop and 3 in vaults\./);
    // One more copy of a card in a vault than the shop signed for: the text no longer hashes to totalsSha256.
    const doc = JSON.parse(readFileSync(totals, 'utf8')) as { totalsText: string };
    const altered = path.join(mkdtempSync(path.join(tmpdir(), 'pv-totals-')), 'totals.json');
    writeFileSync(altered, JSON.stringify({ totalsText: doc.totalsText.replace(/,1,1\]/, ',1,2]') }));
    const r = spawnSync(process.execPath, [VERIFIER, path.join(VECTORS, 'vault-proof.json'), '--public-key', vectorKey, '--totals', altered], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^REFUSED: the totals are not the ones the signed statement names/);
  });

  it('imports nothing but node: built-ins', () => {
    const imports = [...readFileSync(VERIFIER, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });
});

describe('the tree rules', () => {
  const ed = (key: Uint8Array, sig: Uint8Array, msg: Uint8Array) =>
    edVerify(null, msg, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') }, format: 'jwk' }), sig);

  it('the server hashes agree byte for byte with the shared (browser) rules', () => {
    const salt = sha(Buffer.from('s'));
    const c = commitmentOf('user-1', salt);
    expect(c.equals(sha(holderPreimage('user-1', salt)))).toBe(true);
    expect(leafHash('card-1', 'owned:x;cert:PSA:1', c).equals(sha(leafPreimage('card-1', 'owned:x;cert:PSA:1', c)))).toBe(true);
    expect(nodeHash(c, salt).equals(sha(nodePreimage(c, salt)))).toBe(true);
  });

  it('carries an odd node up unchanged, and roots 0, 1, 2, 3 leaves as documented', () => {
    const l = [0, 1, 2].map((i) => sha(Buffer.from([i])));
    expect(rootOf(buildLevels(Buffer.alloc(0))).equals(EMPTY_ROOT)).toBe(true);
    expect(rootOf(buildLevels(l[0]!)).equals(l[0]!)).toBe(true);
    expect(rootOf(buildLevels(Buffer.concat([l[0]!, l[1]!]))).equals(nodeHash(l[0]!, l[1]!))).toBe(true);
    expect(rootOf(buildLevels(Buffer.concat(l))).equals(nodeHash(nodeHash(l[0]!, l[1]!), l[2]!))).toBe(true);
    // Index 2 of 3 is carried over the first level: one sibling only.
    expect(pathShape(2, 3)).toEqual(['left']);
    expect(siblingPositions(2, 3)).toEqual([[1, 0]]);
    expect(pathShape(3, 3)).toBeNull();
  });

  it('the browser check (shared checkVaultProof) agrees with the verifier on every vector', async () => {
    const v = vaultVectors();
    const check = (name: string, key = vectorKey) => checkVaultProof(v[name], key, sha, ed);
    expect((await check('vault-proof.json')).ok).toBe(true);
    for (const name of ['vault-forged-leaf.json', 'vault-forged-leaf-rehashed.json', 'vault-truncated-path.json', 'vault-altered-statement.json']) {
      const r = await check(name);
      expect(r.ok, name).toBe(false);
      expect(r.problems.join(' ')).not.toBe('');
    }
    const other = Buffer.from(createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ format: 'jwk' }).x!, 'base64url').toString('base64');
    expect((await check('vault-proof.json', other)).problems[0]).toMatch(/signature does not verify/);
  });
});
