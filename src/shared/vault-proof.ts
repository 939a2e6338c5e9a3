/**
 * Proof of the vault (issue 44, ADR 0030): the byte-exact rules of the daily Merkle snapshot of
 * every physical copy the shop holds. The server builds with these, the browser and
 * verifier/verify-vault.mjs check with the same rules (docs/fairness.md, "Proof of the vault").
 * No hashing here: callers bring SHA-256 (node:crypto on the server, WebCrypto in the browser).
 *
 * - holder commitment = SHA-256( "packvault:vault:holder:v1" 0x00 holderId 0x00 salt )
 *   (salt: 32 bytes; the house — the shop's own stock — is holderId "house" with 32 zero bytes)
 * - leaf  = SHA-256( 0x00 "packvault:vault:leaf:v1" 0x00 cardId 0x00 copy 0x00 commitment )
 * - node  = SHA-256( 0x01 left right )
 * - leaves sorted by their hash (unsigned bytes, ascending); a level's last node without a
 *   partner is carried up unchanged (never paired with itself); the root of one leaf is that
 *   leaf; of none, SHA-256("packvault:vault:empty:v1").
 * Strings are UTF-8; none may contain a NUL byte.
 */

export const VAULT_PROOF_FORMAT = 'packvault-vault-proof/1';
export const VAULT_STATEMENT_TYPE = 'packvault-vault-snapshot/1';
export const VAULT_LEAF_TAG = 'packvault:vault:leaf:v1';
export const VAULT_HOLDER_TAG = 'packvault:vault:holder:v1';
export const VAULT_EMPTY_TAG = 'packvault:vault:empty:v1';
export const VAULT_HOUSE_HOLDER = 'house';
export const VAULT_SALT_BYTES = 32;

/**
 * The signed statement (its exact UTF-8 bytes are what the Ed25519 signature covers). The totals
 * per card are signed through `totalsSha256`: the SHA-256 (hex) of the exact UTF-8 text of the
 * published totals, a JSON array of `[cardId, heldByHouse, inVaults]` sorted by card id (the
 * snapshot's `totalsText`). So every proof file carries a short statement, whatever the catalog's size.
 */
export interface VaultStatement {
  type: typeof VAULT_STATEMENT_TYPE;
  snapshot: number;
  takenAt: string;
  previousRoot: string | null;
  leafCount: number;
  root: string;
  cards: number;
  totalsSha256: string;
}

export type VaultTotals = Array<[string, number, number]>;

/** One copy in a proof file: what its leaf commits to and its path to the root. */
export interface VaultProofLeaf {
  index: number;
  cardId: string;
  /** Not committed: the card's name when the file was made, for people reading it. */
  cardName?: string;
  copy: string;
  commitment: string;
  leafHash: string;
  path: string[];
}

export interface VaultProofFile {
  format: typeof VAULT_PROOF_FORMAT;
  statement: string;
  /** Ed25519 over the statement's UTF-8 bytes, base64. */
  signature: string;
  /** The key the shop signed with (base64 of the 32 raw bytes). Check it against the published one. */
  publicKey: string;
  holder: { id: string; salt: string };
  leaves: VaultProofLeaf[];
}

/**
 * The `copy` field: a raw card's n-th copy in stock or n-th prize set aside for a drop, a slab the
 * house holds (by certificate, or by id while its certificate is missing), or a collector's copy.
 */
export const copyOfStock = (n: number) => `stock:${n}`;
export const copyOfReserved = (dropId: string, n: number) => `reserved:${dropId}:${n}`;
export const copyOfUncertifiedSlab = (slabId: string) => `slab:${slabId}`;
export const copyOfSlab = (grader: string, cert: string) => `cert:${grader}:${cert}`;
export const copyOfOwned = (ownedCardId: string, slab?: { grader: string; cert: string } | null) =>
  slab ? `owned:${ownedCardId};cert:${slab.grader}:${slab.cert}` : `owned:${ownedCardId}`;

const utf8 = (s: string) => new TextEncoder().encode(s);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const NUL = new Uint8Array([0]);

function noNul(s: string, what: string): Uint8Array {
  if (s.includes('\0')) throw new Error(`${what} contains a NUL character`);
  return utf8(s);
}

export function holderPreimage(holderId: string, salt: Uint8Array): Uint8Array {
  if (salt.length !== VAULT_SALT_BYTES) throw new Error(`a holder salt is ${VAULT_SALT_BYTES} bytes`);
  return concat([utf8(VAULT_HOLDER_TAG), NUL, noNul(holderId, 'holder id'), NUL, salt]);
}

export function leafPreimage(cardId: string, copy: string, commitment: Uint8Array): Uint8Array {
  if (commitment.length !== 32) throw new Error('a commitment is 32 bytes');
  return concat([NUL, utf8(VAULT_LEAF_TAG), NUL, noNul(cardId, 'card id'), NUL, noNul(copy, 'copy'), NUL, commitment]);
}

export function nodePreimage(left: Uint8Array, right: Uint8Array): Uint8Array {
  return concat([new Uint8Array([1]), left, right]);
}

export const emptyRootPreimage = () => utf8(VAULT_EMPTY_TAG);

/**
 * Where each sibling of leaf `index` sits, from the leaf up: 'left' or 'right' of the running
 * hash. Levels where the node is carried up have no sibling. Null when index is out of range.
 * A path of any other length than this shape is refused: that is what catches a truncated path.
 */
export function pathShape(index: number, leafCount: number): Array<'left' | 'right'> | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(leafCount) || index < 0 || index >= leafCount) return null;
  const sides: Array<'left' | 'right'> = [];
  let i = index;
  let n = leafCount;
  while (n > 1) {
    if (i % 2 === 1) sides.push('left');
    else if (i + 1 < n) sides.push('right');
    i = Math.floor(i / 2);
    n = Math.ceil(n / 2);
  }
  return sides;
}

/** The sibling positions of leaf `index`: one `[level, position]` per entry of its path. */
export function siblingPositions(index: number, leafCount: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = index;
  let n = leafCount;
  let level = 0;
  while (n > 1) {
    if (i % 2 === 1) out.push([level, i - 1]);
    else if (i + 1 < n) out.push([level, i + 1]);
    i = Math.floor(i / 2);
    n = Math.ceil(n / 2);
    level++;
  }
  return out;
}

export function toHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function fromHex(s: string): Uint8Array | null {
  if (typeof s !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(s)) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function fromBase64(s: string): Uint8Array | null {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return null;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export type Sha256 = (data: Uint8Array) => Promise<Uint8Array> | Uint8Array;

export interface VaultCheck {
  ok: boolean;
  /** What failed, for people: names the leaf and the step. */
  problems: string[];
  statement: VaultStatement | null;
}

/**
 * Checks a proof file against a public key (base64, 32 raw bytes): the signature over the
 * statement, then for each leaf its commitment (from the holder's id and salt), its hash and its
 * path to the signed root. `verify` is Ed25519 (WebCrypto or node:crypto).
 */
export async function checkVaultProof(
  file: unknown,
  publicKey: string,
  sha256: Sha256,
  verify: (publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array) => Promise<boolean> | boolean,
): Promise<VaultCheck> {
  const problems: string[] = [];
  const fail = (p: string): VaultCheck => ({ ok: false, problems: [...problems, p], statement: null });
  if (!file || typeof file !== 'object') return fail('The file is not a vault proof (not a JSON object).');
  const f = file as Partial<VaultProofFile>;
  if (f.format !== VAULT_PROOF_FORMAT) return fail(`The file is not a vault proof (format is not "${VAULT_PROOF_FORMAT}").`);
  const key = fromBase64(publicKey);
  if (!key || key.length !== 32) return fail('The public key is not 32 bytes of base64.');
  const sig = typeof f.signature === 'string' ? fromBase64(f.signature) : null;
  if (!sig || sig.length !== 64) return fail('The signature is not 64 bytes of base64.');
  if (typeof f.statement !== 'string') return fail('The statement is missing.');
  let signed: boolean;
  try {
    signed = await verify(key, sig, utf8(f.statement));
  } catch {
    signed = false;
  }
  if (!signed) return fail('The signature does not verify with this public key: the statement was altered or signed with another key.');
  let st: VaultStatement;
  try {
    st = JSON.parse(f.statement) as VaultStatement;
  } catch {
    return fail('The signed statement is not JSON.');
  }
  if (st.type !== VAULT_STATEMENT_TYPE || !Number.isSafeInteger(st.leafCount) || !fromHex(st.root) || st.root.length !== 64) {
    return fail('The signed statement is not a vault snapshot statement.');
  }
  const holder = f.holder;
  const salt = holder && typeof holder.salt === 'string' ? fromHex(holder.salt) : null;
  if (!holder || typeof holder.id !== 'string' || !salt || salt.length !== VAULT_SALT_BYTES) return fail('The holder id or salt is missing or malformed.');
  const commitment = toHex(await sha256(holderPreimage(holder.id, salt)));
  if (!Array.isArray(f.leaves)) return fail('The file has no list of leaves.');
  for (const [k, leaf] of f.leaves.entries()) {
    const name = `Leaf ${k + 1}${leaf && typeof leaf.copy === 'string' ? ` (${leaf.copy})` : ''}`;
    if (!leaf || typeof leaf.cardId !== 'string' || typeof leaf.copy !== 'string' || !Array.isArray(leaf.path)) {
      problems.push(`${name}: malformed.`);
      continue;
    }
    if (leaf.commitment !== commitment) {
      problems.push(`${name}: its holder commitment is not the one made from this holder's id and salt.`);
      continue;
    }
    let hash: Uint8Array;
    try {
      hash = await sha256(leafPreimage(leaf.cardId, leaf.copy, fromHex(commitment)!));
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}.`);
      continue;
    }
    if (toHex(hash) !== leaf.leafHash) {
      problems.push(`${name}: its hash does not match its card, copy and commitment (the leaf was altered).`);
      continue;
    }
    const shape = pathShape(leaf.index, st.leafCount);
    if (!shape) {
      problems.push(`${name}: index ${String(leaf.index)} is outside the tree of ${st.leafCount} leaves.`);
      continue;
    }
    if (leaf.path.length !== shape.length) {
      problems.push(`${name}: its path has ${leaf.path.length} hashes; a leaf at index ${leaf.index} of ${st.leafCount} needs ${shape.length} (truncated or padded).`);
      continue;
    }
    let bad = false;
    for (const [j, side] of shape.entries()) {
      const sib = fromHex(leaf.path[j]!);
      if (!sib || sib.length !== 32) {
        bad = true;
        break;
      }
      hash = await sha256(side === 'left' ? nodePreimage(sib, hash) : nodePreimage(hash, sib));
    }
    if (bad) {
      problems.push(`${name}: its path holds something that is not a 32-byte hex hash.`);
      continue;
    }
    if (toHex(hash) !== st.root) problems.push(`${name}: its path does not lead to the signed root (the leaf or its path was altered).`);
  }
  return { ok: problems.length === 0, problems, statement: st };
}
