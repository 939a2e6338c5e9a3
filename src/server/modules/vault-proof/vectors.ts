import { createHash, createPublicKey, sign } from 'node:crypto';
import { parseVaultSigningKey } from '../../config.ts';
import {
  copyOfOwned,
  copyOfSlab,
  copyOfStock,
  siblingPositions,
  VAULT_HOUSE_HOLDER,
  VAULT_PROOF_FORMAT,
  VAULT_STATEMENT_TYPE,
  type VaultProofFile,
  type VaultStatement,
  type VaultTotals,
} from '../../../shared/vault-proof.ts';
import { buildLevels, commitmentOf, leafHash, rootOf, sortOrder } from './tree.ts';

/**
 * The published test vectors of the vault proof (verifier/vectors/vault-*.json, docs/fairness.md):
 * a small tree with an odd level, one holder's proof, and tampered copies of it. Deterministic —
 * a fixed key (its seed is public: a test key, never a shop's), fixed salts — so
 * `npm run vault:vectors` rewrites the same bytes and verifier.test.ts checks they are current.
 */

const hex = (s: string) => createHash('sha256').update(s).digest();
export const VECTOR_KEY_SEED = hex('packvault vault-proof test vector key (public: never sign with it)').toString('base64');

export function vaultVectors(): Record<string, unknown> {
  const key = parseVaultSigningKey(VECTOR_KEY_SEED)!;
  const publicKey = Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url').toString('base64');
  const cardA = '6f1c3c0e-6c1e-4e8a-9d1a-0a0a0a0a0a01';
  const cardB = '6f1c3c0e-6c1e-4e8a-9d1a-0a0a0a0a0a02';
  const holders = {
    ada: { id: 'vector-holder-ada', salt: hex('salt of ada') },
    bo: { id: 'vector-holder-bo', salt: hex('salt of bo') },
    house: { id: VAULT_HOUSE_HOLDER, salt: Buffer.alloc(32) },
  };
  const copies: Array<{ cardId: string; copy: string; holder: keyof typeof holders }> = [
    { cardId: cardA, copy: copyOfStock(1), holder: 'house' },
    { cardId: cardA, copy: copyOfStock(2), holder: 'house' },
    { cardId: cardB, copy: copyOfSlab('PSA', '72184530'), holder: 'house' },
    { cardId: cardA, copy: copyOfOwned('0b7e2d4a-1111-4c4c-8888-000000000001'), holder: 'ada' },
    { cardId: cardB, copy: copyOfOwned('0b7e2d4a-1111-4c4c-8888-000000000002', { grader: 'PSA', cert: '72184531' }), holder: 'ada' },
    { cardId: cardA, copy: copyOfOwned('0b7e2d4a-1111-4c4c-8888-000000000003'), holder: 'bo' },
    { cardId: cardA, copy: copyOfStock(3), holder: 'house' },
  ];
  const commitments = Object.fromEntries(Object.entries(holders).map(([k, h]) => [k, commitmentOf(h.id, h.salt)])) as Record<keyof typeof holders, Buffer>;
  const raw = Buffer.concat(copies.map((c) => leafHash(c.cardId, c.copy, commitments[c.holder])));
  const order = sortOrder(raw, copies.length);
  const sortedLeaves = [...order].map((i) => ({ ...copies[i]!, leafHash: raw.subarray(i * 32, i * 32 + 32) }));
  const levels = buildLevels(Buffer.concat(sortedLeaves.map((l) => l.leafHash)));
  const root = rootOf(levels).toString('hex');
  const totals: VaultTotals = [
    [cardA, 3, 2],
    [cardB, 1, 1],
  ];
  const st: VaultStatement = {
    type: VAULT_STATEMENT_TYPE,
    snapshot: 1,
    takenAt: '2026-11-02T00:00:00.000Z',
    previousRoot: null,
    leafCount: copies.length,
    root,
    cards: 2,
    totalsSha256: createHash('sha256').update(JSON.stringify(totals)).digest('hex'),
  };
  const statement = JSON.stringify(st);
  const signature = sign(null, Buffer.from(statement), key).toString('base64');
  const at = (l: number, p: number) => levels[l]!.subarray(p * 32, p * 32 + 32).toString('hex');
  const proof: VaultProofFile = {
    format: VAULT_PROOF_FORMAT,
    statement,
    signature,
    publicKey,
    holder: { id: holders.ada.id, salt: holders.ada.salt.toString('hex') },
    leaves: sortedLeaves.flatMap((l, index) =>
      l.holder === 'ada'
        ? [{ index, cardId: l.cardId, copy: l.copy, commitment: commitments.ada.toString('hex'), leafHash: l.leafHash.toString('hex'), path: siblingPositions(index, copies.length).map(([lv, p]) => at(lv, p)) }]
        : [],
    ),
  };
  const clone = () => JSON.parse(JSON.stringify(proof)) as VaultProofFile;
  const forged = clone();
  forged.leaves[0]!.copy = copyOfOwned('0b7e2d4a-1111-4c4c-8888-000000000009');
  const rehashed = clone();
  rehashed.leaves[0]!.copy = copyOfOwned('0b7e2d4a-1111-4c4c-8888-000000000009');
  rehashed.leaves[0]!.leafHash = leafHash(rehashed.leaves[0]!.cardId, rehashed.leaves[0]!.copy, commitments.ada).toString('hex');
  const truncated = clone();
  truncated.leaves[1]!.path.pop();
  const resigned = clone();
  resigned.statement = JSON.stringify({ ...st, totalsSha256: createHash('sha256').update(JSON.stringify([[cardA, 3, 1], [cardB, 1, 1]])).digest('hex') });
  return {
    'vault-key.json': { publicKey, privateSeed: VECTOR_KEY_SEED, note: 'Test vector key: its private seed is public. A proof signed with it proves nothing about a shop.' },
    'vault-tree.json': {
      note: 'Every leaf of the vector tree, sorted by hash, with each level bottom up (the last is the root). Recompute them from the rules in docs/fairness.md.',
      holders: Object.fromEntries(Object.entries(holders).map(([k, h]) => [k, { id: h.id, salt: h.salt.toString('hex'), commitment: commitments[k as keyof typeof holders].toString('hex') }])),
      leaves: sortedLeaves.map((l, index) => ({ index, cardId: l.cardId, copy: l.copy, holder: l.holder, leafHash: l.leafHash.toString('hex') })),
      levels: levels.map((b) => Array.from({ length: b.length / 32 }, (_, i) => b.subarray(i * 32, i * 32 + 32).toString('hex'))),
      root,
    },
    'vault-totals.json': { note: 'The totals text of the vector snapshot: SHA-256 of this exact string is the statement\'s totalsSha256.', totalsText: JSON.stringify(totals), totalsSha256: st.totalsSha256 },
    'vault-proof.json': proof,
    'vault-forged-leaf.json': forged,
    'vault-forged-leaf-rehashed.json': rehashed,
    'vault-truncated-path.json': truncated,
    'vault-altered-statement.json': resigned,
  };
}
