import { createHash, hash } from 'node:crypto';
import { VAULT_EMPTY_TAG, VAULT_HOLDER_TAG, VAULT_LEAF_TAG } from '../../../shared/vault-proof.ts';

/**
 * The Merkle tree of shared/vault-proof.ts, built fast on the server: one SHA-256 per leaf and
 * per node with node:crypto, hashes kept in flat buffers (32 bytes each) rather than objects,
 * so a million leaves is 32 MB per level and no garbage per hash. tree.test.ts checks these
 * agree byte for byte with the shared rules the browser and the standalone verifier use.
 */

const LEAF_HEAD = Buffer.from(`\0${VAULT_LEAF_TAG}\0`, 'utf8');

export function commitmentOf(holderId: string, salt: Buffer): Buffer {
  return createHash('sha256').update(`${VAULT_HOLDER_TAG}\0${holderId}\0`, 'utf8').update(salt).digest();
}

// One reused buffer per preimage kind: node's one-shot `crypto.hash` on it costs a third of a
// createHash/update/digest round (a million leaves and as many nodes per snapshot).
let scratch = Buffer.allocUnsafe(512);

export function leafHash(cardId: string, copy: string, commitment: Buffer): Buffer {
  const need = LEAF_HEAD.length + Buffer.byteLength(cardId) + Buffer.byteLength(copy) + 2 + 32;
  if (need > scratch.length) scratch = Buffer.allocUnsafe(need * 2);
  let at = LEAF_HEAD.copy(scratch, 0);
  at += scratch.write(cardId, at, 'utf8');
  scratch[at++] = 0;
  at += scratch.write(copy, at, 'utf8');
  scratch[at++] = 0;
  at += commitment.copy(scratch, at);
  return hash('sha256', scratch.subarray(0, at), 'buffer');
}

const nodeScratch = Buffer.allocUnsafe(65);
nodeScratch[0] = 1;

export function nodeHash(left: Buffer, right: Buffer): Buffer {
  left.copy(nodeScratch, 1);
  right.copy(nodeScratch, 33);
  return hash('sha256', nodeScratch, 'buffer');
}

/** The node over the two adjacent hashes at `offset` of a level (0x01 ‖ left ‖ right). */
function pairHash(level: Buffer, offset: number): Buffer {
  level.copy(nodeScratch, 1, offset, offset + 64);
  return hash('sha256', nodeScratch, 'buffer');
}

export const EMPTY_ROOT = createHash('sha256').update(VAULT_EMPTY_TAG, 'utf8').digest();

/**
 * The order of the leaves: by hash, ascending unsigned bytes. Returns the permutation (sorted
 * position → original position). A native sort of 64-bit keys (the hash's first 32 bits, then the
 * position) instead of a comparator over a million entries; the few runs whose first 32 bits tie
 * are then put in full-hash order.
 */
export function sortOrder(hashes: Buffer, n: number): Uint32Array {
  const keys = new BigUint64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (BigInt(hashes.readUInt32BE(i * 32)) << 32n) | BigInt(i);
  keys.sort();
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = Number(keys[k]! & 0xffffffffn);
  const full = (a: number, b: number) => Buffer.compare(hashes.subarray(a * 32, a * 32 + 32), hashes.subarray(b * 32, b * 32 + 32));
  for (let k = 0; k < n; ) {
    let end = k + 1;
    while (end < n && keys[end]! >> 32n === keys[k]! >> 32n) end++;
    if (end - k > 1) order.set(Array.from(order.subarray(k, end)).sort(full), k);
    k = end;
  }
  return order;
}

/** Every level, leaves first; the last holds the root alone. A node without a partner is carried up. */
export function buildLevels(leaves: Buffer): Buffer[] {
  const levels = [leaves];
  let cur = leaves;
  while (cur.length > 32) {
    const n = cur.length / 32;
    const next = Buffer.allocUnsafe(Math.ceil(n / 2) * 32);
    for (let i = 0; i + 1 < n; i += 2) pairHash(cur, i * 32).copy(next, (i / 2) * 32);
    if (n % 2 === 1) cur.copy(next, ((n - 1) / 2) * 32, (n - 1) * 32, n * 32);
    levels.push(next);
    cur = next;
  }
  return levels;
}

export function rootOf(levels: Buffer[]): Buffer {
  const top = levels[levels.length - 1]!;
  return top.length === 0 ? EMPTY_ROOT : top.subarray(0, 32);
}
