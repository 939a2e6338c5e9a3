#!/usr/bin/env node
// Packvault — standalone check of a vault inclusion proof (issue 44, docs/fairness.md "Proof of the vault").
// Node's standard library only (node:crypto, node:fs): copy this file anywhere and run
//   node verify-vault.mjs <proof.json> --public-key <base64>      (or --public-key-file <file>)
// with the proof file downloaded from /collect and the public key published at /api/vault/key
// (and on /fairness). Never take the key from the proof file itself: a forger would sign with theirs.
// With --totals <file> (the snapshot as GET /api/vault/snapshots/<n> serves it, or its totalsText
// alone) it also checks the published totals per card: that they are the ones the statement signs,
// that they add up to the tree's leaf count, and that they count at least the holder's copies.
// Exit 0: every copy in the file is in the signed snapshot. 1: something does not check (said why).
// 2: the command line or the file could not be read.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const FORMAT = 'packvault-vault-proof/1';
const STATEMENT_TYPE = 'packvault-vault-snapshot/1';
const LEAF_TAG = 'packvault:vault:leaf:v1';
const HOLDER_TAG = 'packvault:vault:holder:v1';

const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const utf8 = (s) => Buffer.from(s, 'utf8');
const NUL = Buffer.from([0]);
const isHex = (s, bytes) => typeof s === 'string' && new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(s);

// commitment = SHA-256("packvault:vault:holder:v1" 0x00 holderId 0x00 salt[32])
const commitmentOf = (holderId, salt) => sha256(utf8(HOLDER_TAG), NUL, utf8(holderId), NUL, salt);
// leaf = SHA-256(0x00 "packvault:vault:leaf:v1" 0x00 cardId 0x00 copy 0x00 commitment[32])
const leafOf = (cardId, copy, commitment) => sha256(NUL, utf8(LEAF_TAG), NUL, utf8(cardId), NUL, utf8(copy), NUL, commitment);
// node = SHA-256(0x01 left right)
const nodeOf = (left, right) => sha256(Buffer.from([1]), left, right);

// The sibling sides of leaf `index` in a tree of `n` sorted leaves, bottom up: a level's last node
// without a partner is carried up unchanged and has no sibling.
function pathShape(index, n) {
  const sides = [];
  while (n > 1) {
    if (index % 2 === 1) sides.push('left');
    else if (index + 1 < n) sides.push('right');
    index = Math.floor(index / 2);
    n = Math.ceil(n / 2);
  }
  return sides;
}

function usage(message) {
  process.stderr.write(`${message}\nusage: node verify-vault.mjs <proof.json> --public-key <base64> | --public-key-file <file> [--totals <snapshot.json>]\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let file;
let keyText;
let totalsFile;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--public-key') keyText = args[++i];
  else if (args[i] === '--totals') totalsFile = args[++i] ?? usage('give the totals file after --totals');
  else if (args[i] === '--public-key-file') {
    const f = args[++i];
    try {
      keyText = readFileSync(f, 'utf8').trim();
    } catch (err) {
      usage(`cannot read the public key file ${f}: ${err.message}`);
    }
  } else if (!file) file = args[i];
  else usage(`unexpected argument: ${args[i]}`);
}
if (!file) usage('give the proof file');
if (!keyText) usage('give the published public key (GET /api/vault/key); the key inside the proof file proves nothing');

let proof;
try {
  proof = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  usage(`cannot read ${file} as JSON: ${err.message}`);
}

const problems = [];
const fail = (msg) => {
  process.stderr.write(`REFUSED: ${msg}\n`);
  process.exit(1);
};

if (!proof || proof.format !== FORMAT) fail(`${file} is not a vault proof (format is not "${FORMAT}")`);
const rawKey = Buffer.from(keyText, 'base64');
if (rawKey.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(keyText)) fail('the public key is not 32 bytes of base64');
const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: rawKey.toString('base64url') }, format: 'jwk' });
const signature = typeof proof.signature === 'string' ? Buffer.from(proof.signature, 'base64') : Buffer.alloc(0);
if (signature.length !== 64) fail('the signature is not 64 bytes of base64');
if (typeof proof.statement !== 'string') fail('the signed statement is missing');
if (!verify(null, utf8(proof.statement), publicKey, signature)) {
  fail('the signature does not verify with this public key: the statement was altered, or it was signed with another key');
}
let st;
try {
  st = JSON.parse(proof.statement);
} catch {
  fail('the signed statement is not JSON');
}
if (st.type !== STATEMENT_TYPE || !Number.isSafeInteger(st.leafCount) || st.leafCount < 0 || !isHex(st.root, 32)) {
  fail('the signed statement is not a vault snapshot statement');
}
const holder = proof.holder;
if (!holder || typeof holder.id !== 'string' || !isHex(holder.salt, 32)) fail('the holder id or salt is missing or malformed');
const commitment = commitmentOf(holder.id, Buffer.from(holder.salt, 'hex'));
if (!Array.isArray(proof.leaves)) fail('the file has no list of leaves');

proof.leaves.forEach((leaf, k) => {
  const name = `leaf ${k + 1}${leaf && typeof leaf.copy === 'string' ? ` (${leaf.copy})` : ''}`;
  if (!leaf || typeof leaf.cardId !== 'string' || typeof leaf.copy !== 'string' || !Array.isArray(leaf.path)) {
    problems.push(`${name}: malformed`);
    return;
  }
  if (leaf.commitment !== commitment.toString('hex')) {
    problems.push(`${name}: its holder commitment is not the one made from this holder's id and salt`);
    return;
  }
  if ([leaf.cardId, leaf.copy, holder.id].some((s) => s.includes('\0'))) {
    problems.push(`${name}: a field contains a NUL character`);
    return;
  }
  let hash = leafOf(leaf.cardId, leaf.copy, commitment);
  if (hash.toString('hex') !== leaf.leafHash) {
    problems.push(`${name}: its hash does not match its card, copy and commitment (the leaf was altered)`);
    return;
  }
  if (!Number.isSafeInteger(leaf.index) || leaf.index < 0 || leaf.index >= st.leafCount) {
    problems.push(`${name}: index ${leaf.index} is outside the tree of ${st.leafCount} leaves`);
    return;
  }
  const shape = pathShape(leaf.index, st.leafCount);
  if (leaf.path.length !== shape.length) {
    problems.push(`${name}: its path has ${leaf.path.length} hashes; a leaf at index ${leaf.index} of ${st.leafCount} needs ${shape.length} (truncated or padded)`);
    return;
  }
  for (const [j, side] of shape.entries()) {
    if (!isHex(leaf.path[j], 32)) {
      problems.push(`${name}: path entry ${j + 1} is not a 32-byte hex hash`);
      return;
    }
    const sibling = Buffer.from(leaf.path[j], 'hex');
    hash = side === 'left' ? nodeOf(sibling, hash) : nodeOf(hash, sibling);
  }
  if (hash.toString('hex') !== st.root) problems.push(`${name}: its path does not lead to the signed root (the leaf or its path was altered)`);
});

if (problems.length) fail(`${problems.length} of ${proof.leaves.length} copies do not check:\n  ${problems.join('\n  ')}`);

// The published totals: [[cardId, heldByTheShop, inVaults], ...] sorted by card id, signed through
// the statement's totalsSha256 over their exact text.
let totalsLine = '';
if (totalsFile) {
  let text;
  try {
    text = readFileSync(totalsFile, 'utf8');
  } catch (err) {
    usage(`cannot read ${totalsFile}: ${err.message}`);
  }
  let totalsText = text.trim();
  try {
    const doc = JSON.parse(totalsText);
    if (doc && !Array.isArray(doc) && typeof doc.totalsText === 'string') totalsText = doc.totalsText;
  } catch (err) {
    usage(`cannot read ${totalsFile} as JSON: ${err.message}`);
  }
  if (sha256(utf8(totalsText)).toString('hex') !== st.totalsSha256) {
    fail('the totals are not the ones the signed statement names (their SHA-256 differs from totalsSha256): altered, or from another snapshot');
  }
  const totals = JSON.parse(totalsText);
  const count = (n) => Number.isSafeInteger(n) && n >= 0;
  if (!Array.isArray(totals) || !totals.every((t) => Array.isArray(t) && t.length === 3 && typeof t[0] === 'string' && count(t[1]) && count(t[2]))) {
    fail('the totals are not a list of [cardId, held by the shop, in vaults]');
  }
  for (let k = 1; k < totals.length; k++) if (!(totals[k - 1][0] < totals[k][0])) fail(`the totals are not sorted by card id with each card once (at ${totals[k][0]})`);
  if (totals.length !== st.cards) fail(`the totals list ${totals.length} cards; the statement signs ${st.cards}`);
  const house = totals.reduce((a, t) => a + t[1], 0);
  const vaults = totals.reduce((a, t) => a + t[2], 0);
  if (house + vaults !== st.leafCount) fail(`the totals add up to ${house + vaults} copies; the signed tree has ${st.leafCount} leaves`);
  const inVaults = new Map(totals.map((t) => [t[0], t[2]]));
  const mine = new Map();
  for (const leaf of proof.leaves) mine.set(leaf.cardId, (mine.get(leaf.cardId) ?? 0) + 1);
  for (const [cardId, n] of mine) {
    if ((inVaults.get(cardId) ?? 0) < n) fail(`the totals count ${inVaults.get(cardId) ?? 0} copies of card ${cardId} in vaults; this holder alone has ${n}`);
  }
  totalsLine = ` The signed totals check: ${totals.length} cards, ${house} copies held by the shop and ${vaults} in vaults.`;
}

process.stdout.write(
  `OK: all ${proof.leaves.length} copies of holder ${holder.id} are in vault snapshot ${st.snapshot}` +
    ` (taken ${st.takenAt}, ${st.leafCount} copies in all, root ${st.root}), signed by the given key.${totalsLine}\n`,
);
