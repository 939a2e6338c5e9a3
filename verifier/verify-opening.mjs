#!/usr/bin/env node
// Packvault's standalone verifier for pack openings and daily drops (issue 44).
//
// Node's standard library only; it shares no code with the Packvault server or web app, so it
// checks them rather than repeating them. docs/fairness.md is the specification it follows.
//
//   node verify-opening.mjs opening <opening.json> <revision.json> <pool.json>
//   node verify-opening.mjs drop <drop-proof.json>
//
// The files are what the public API gives:
//   opening.json   GET /api/fairness/openings/{id}     (your own opening, once its seed is rotated)
//   revision.json  GET /api/fairness/revisions/{hash}  (the hash the opening names)
//   pool.json      GET /api/fairness/pools/{hash}      (the pool hash the opening names)
//   drop-proof.json GET /api/drops/{id}/proof          (after the drop's draw)
//
// Exit status: 0 when every check holds, 1 when one fails (each failure on its own "FAIL" line),
// 2 when the files cannot be read as those documents (missing, truncated, the wrong kind).

import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

const TWO_32 = 2 ** 32;

class InputError extends Error {}

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
/** Code-unit order, as the specification sorts ids. */
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function readJson(path, what) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read the ${what} file ${path}: ${err.code ?? err.message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError(`the ${what} file ${path} is not complete JSON (truncated or not the API's answer?)`);
  }
}

function need(cond, message) {
  if (!cond) throw new InputError(message);
}
const isInt = (n) => Number.isSafeInteger(n);
const isStr = (s) => typeof s === 'string';

// ── the random stream (docs/fairness.md, "The random stream of a slot") ──────────────────────────

function* words(key, prefix) {
  for (let round = 0; ; round++) {
    const block = createHmac('sha256', Buffer.from(key, 'utf8')).update(`${prefix}:${round}`, 'utf8').digest();
    for (let i = 0; i < 32; i += 4) yield block.readUInt32BE(i);
  }
}

function uniform(stream, n) {
  if (!isInt(n) || n < 1 || n > TWO_32) throw new InputError(`cannot draw uniformly from ${n} values`);
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const u = stream.next().value;
    if (u < limit) return u % n;
  }
}

// ── openings ─────────────────────────────────────────────────────────────────────────────────────

function oddsText(slots) {
  return slots.map((s) => s.odds.map((e) => `${e.classId}=${e.weight}`).join(',')).join('\n');
}

function poolText(pools) {
  return Object.keys(pools)
    .sort(cmp)
    .map((c) => `${c}:${[...pools[c]].sort(cmp).join(',')}`)
    .join('\n');
}

/** {"cards":[["<id>",<value>],…],"classId":"…"}, cards by id (docs/fairness.md, "Odds revisions"). */
function classPoolText(classId, cards) {
  const sorted = [...cards].sort((a, b) => cmp(a[0], b[0]));
  return `{"cards":[${sorted.map(([id, v]) => `[${JSON.stringify(id)},${v}]`).join(',')}],"classId":${JSON.stringify(classId)}}`;
}

function revisionText(rev) {
  const classes = [...rev.classes].sort((a, b) => cmp(a.classId, b.classId));
  const slots = rev.slots.map((s) => `[${s.odds.map((e) => `[${JSON.stringify(e.classId)},${e.weight}]`).join(',')}]`);
  return (
    `{"classes":[${classes.map((c) => `{"classId":${JSON.stringify(c.classId)},"hash":${JSON.stringify(c.hash)}}`).join(',')}],` +
    `"priceCents":${rev.priceCents},"productId":${JSON.stringify(rev.productId)},"slots":[${slots.join(',')}],"v":1}`
  );
}

function checkSlots(slots, what) {
  need(Array.isArray(slots) && slots.length > 0, `${what} has no slots`);
  for (const s of slots) {
    need(s && Array.isArray(s.odds) && s.odds.length > 0, `${what} has a slot without odds`);
    for (const e of s.odds) need(e && isStr(e.classId) && isInt(e.weight) && e.weight >= 1, `${what} has an odds entry that is not {classId, positive integer weight}`);
  }
}

function readOpening(doc) {
  const o = doc && typeof doc === 'object' && 'opening' in doc ? doc.opening : doc;
  need(o && typeof o === 'object' && o.fairness && typeof o.fairness === 'object', 'the opening file is not an opening (GET /api/fairness/openings/{id})');
  const f = o.fairness;
  need(isStr(f.serverSeedHash) && isStr(f.clientSeed) && isInt(f.nonce) && isStr(f.oddsHash) && isStr(f.poolHash), 'the opening file lacks its seed hash, client seed, nonce or hashes');
  checkSlots(f.slots, 'the opening');
  need(Array.isArray(f.draws), 'the opening file has no draws');
  for (const d of f.draws) {
    need(d && isInt(d.slot) && isStr(d.classId) && isInt(d.poolSize) && isInt(d.index) && isStr(d.cardId) && typeof d.exhausted === 'boolean', 'the opening file has a draw that is not {slot, classId, poolSize, index, cardId, exhausted}');
  }
  return o;
}

function readRevision(doc) {
  need(doc && typeof doc === 'object' && isStr(doc.hash) && isStr(doc.productId) && isInt(doc.priceCents) && Array.isArray(doc.classes), 'the revision file is not an odds revision (GET /api/fairness/revisions/{hash})');
  checkSlots(doc.slots, 'the revision');
  for (const c of doc.classes) {
    need(c && isStr(c.classId) && isStr(c.hash) && Array.isArray(c.cards), 'the revision file has a class that is not {classId, hash, cards}');
    for (const card of c.cards) need(Array.isArray(card) && card.length === 2 && isStr(card[0]) && isInt(card[1]), `the revision file has a card of class ${c.classId} that is not [cardId, valueCents]`);
  }
  return doc;
}

function readPool(doc) {
  need(doc && typeof doc === 'object' && isStr(doc.hash) && Array.isArray(doc.classes), 'the pool file is not a pool snapshot (GET /api/fairness/pools/{hash})');
  const pools = {};
  for (const c of doc.classes) {
    need(c && isStr(c.classId) && Array.isArray(c.cardIds) && c.cardIds.every(isStr), 'the pool file has a class that is not {classId, cardIds}');
    pools[c.classId] = c.cardIds;
  }
  return { hash: doc.hash, pools };
}

/** Returns the failed checks (empty: the opening holds). */
export function verifyOpeningFiles(openingDoc, revisionDoc, poolDoc) {
  const o = readOpening(openingDoc);
  const rev = readRevision(revisionDoc);
  const pool = readPool(poolDoc);
  const f = o.fairness;
  const fails = [];
  const ok = [];

  // 1. The revision: each class pool, then the revision, hash to the published values.
  for (const c of rev.classes) {
    const h = sha256(classPoolText(c.classId, c.cards));
    if (h !== c.hash) fails.push(`revision: the cards of class ${c.classId} hash to ${h}, but the revision names ${c.hash}`);
  }
  const named = [...new Set(rev.slots.flatMap((s) => s.odds.map((e) => e.classId)))].sort(cmp).join(',');
  if (named !== rev.classes.map((c) => c.classId).sort(cmp).join(',')) fails.push('revision: its classes are not exactly the classes its slots name');
  const revHash = sha256(revisionText(rev));
  if (revHash !== rev.hash) fails.push(`revision: it hashes to ${revHash}, not to its stated hash ${rev.hash}`);
  else ok.push(`revision ${revHash} recomputes`);
  if (!f.revisionHash) fails.push('opening: it names no odds revision (opened before revisions were published?)');
  else if (f.revisionHash !== rev.hash) fails.push(`opening: it names revision ${f.revisionHash}, but the revision file is ${rev.hash}`);

  // 2. The opening was drawn under it: same odds, its pool inside the revision's pools.
  const oddsOf = (slots) => JSON.stringify(slots.map((s) => s.odds.map((e) => [e.classId, e.weight])));
  if (oddsOf(f.slots) !== oddsOf(rev.slots)) fails.push('opening: its odds are not the odds of its revision');
  if (pool.hash !== f.poolHash) fails.push(`pool: the pool file is ${pool.hash}, but the opening drew from ${f.poolHash}`);
  const ph = sha256(poolText(pool.pools));
  if (ph !== f.poolHash) fails.push(`pool: the pool hashes to ${ph}, not to the opening's pool hash ${f.poolHash}`);
  const inRevision = new Map(rev.classes.map((c) => [c.classId, new Set(c.cards.map(([id]) => id))]));
  for (const [classId, ids] of Object.entries(pool.pools)) {
    const set = inRevision.get(classId);
    const outside = set ? ids.filter((id) => !set.has(id)) : ids;
    if (!set || outside.length) fails.push(`pool: ${outside.length} card(s) of class ${classId} drawn from are not in the revision (${outside[0] ?? classId})`);
  }
  const oh = sha256(oddsText(f.slots));
  if (oh !== f.oddsHash) fails.push(`opening: its odds hash to ${oh}, not to the stored ${f.oddsHash}`);

  // 3. The draw, recomputed from the revealed seed.
  if (!isStr(f.serverSeed)) {
    fails.push('opening: its server seed is still secret; rotate your seed on /fairness and download the opening again');
  } else {
    const sh = sha256(f.serverSeed);
    if (sh !== f.serverSeedHash) fails.push(`seed: the server seed hashes to ${sh}, not to the published ${f.serverSeedHash}`);
    if (f.draws.length !== f.slots.length) fails.push(`draw: ${f.draws.length} cards stored for ${f.slots.length} slots`);
    const left = Object.fromEntries(Object.entries(pool.pools).map(([k, v]) => [k, [...v].sort(cmp)]));
    f.slots.forEach((s, slot) => {
      const stored = f.draws[slot];
      if (!stored) return;
      const stream = words(f.serverSeed, `${f.clientSeed}:${f.nonce}:${slot}`);
      const total = s.odds.reduce((a, e) => a + e.weight, 0);
      let r = uniform(stream, total);
      let i = 0;
      while (r >= s.odds[i].weight) r -= s.odds[i++].weight;
      const classId = s.odds[i].classId;
      const p = left[classId] ?? [];
      if (p.length === 0) {
        fails.push(`draw: slot ${slot} drew class ${classId}, whose pool is empty`);
        return;
      }
      const index = uniform(stream, p.length);
      const cardId = p[index];
      const want = `class ${classId}, pool of ${p.length}, index ${index}, card ${cardId}`;
      const got = `class ${stored.classId}, pool of ${stored.poolSize}, index ${stored.index}, card ${stored.cardId}`;
      if (want !== got) fails.push(`draw: slot ${slot} recomputes to ${want}; stored ${got}`);
      if (stored.exhausted) p.splice(index, 1);
    });
  }
  if (!fails.length) ok.push(`opening ${o.id ?? ''} (nonce ${f.nonce}) recomputes card by card under it`);
  return { fails, ok };
}

// ── drops (docs/fairness.md, "Daily drops") ─────────────────────────────────────────────────────

export function verifyDropFile(doc) {
  need(doc && typeof doc === 'object' && isStr(doc.seed) && isStr(doc.commitment) && Array.isArray(doc.entryIds) && isStr(doc.entryListHash) && isInt(doc.winnerCount) && Array.isArray(doc.winners), 'the drop file is not a drop proof (GET /api/drops/{id}/proof)');
  const fails = [];
  const ok = [];
  const c = sha256(doc.seed);
  if (c !== doc.commitment) fails.push(`seed: it hashes to ${c}, not to the commitment ${doc.commitment}`);
  const bad = doc.entryIds.find((id) => !isStr(id) || !/^[A-Za-z0-9_-]{1,64}$/.test(id));
  if (bad !== undefined) fails.push(`entries: ${JSON.stringify(bad)} is not an entry id`);
  const sorted = [...doc.entryIds].sort(cmp);
  if (sorted.some((id, i) => i > 0 && id === sorted[i - 1])) fails.push('entries: an entry is listed twice');
  const listHash = sha256(sorted.join('\n'));
  if (listHash !== doc.entryListHash) fails.push(`entries: the list hashes to ${listHash}, not to the published ${doc.entryListHash}`);
  need(doc.winnerCount >= 1, 'the drop file has no winner count');
  const stream = words(doc.seed, listHash);
  const left = [...sorted];
  const drawn = [];
  while (drawn.length < doc.winnerCount && left.length) drawn.push(left.splice(uniform(stream, left.length), 1)[0]);
  const published = [...doc.winners].sort((a, b) => a.place - b.place).map((w) => w.entryId);
  if (drawn.join(',') !== published.join(',')) fails.push(`winners: the draw gives ${drawn.join(', ') || '(none)'}; published ${published.join(', ') || '(none)'}`);
  if (!fails.length) ok.push(`drop ${doc.dropId ?? ''}: commitment, entry list and ${drawn.length} winner(s) recompute`);
  return { fails, ok };
}

// ── command line ─────────────────────────────────────────────────────────────────────────────────

const USAGE = `usage:
  node verify-opening.mjs opening <opening.json> <revision.json> <pool.json>
  node verify-opening.mjs drop <drop-proof.json>`;

function main(argv) {
  const [kind, ...files] = argv;
  let result;
  try {
    if (kind === 'opening' && files.length === 3) {
      result = verifyOpeningFiles(readJson(files[0], 'opening'), readJson(files[1], 'revision'), readJson(files[2], 'pool'));
    } else if (kind === 'drop' && files.length === 1) {
      result = verifyDropFile(readJson(files[0], 'drop proof'));
    } else {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
  } catch (err) {
    if (err instanceof InputError) {
      process.stderr.write(`ERROR: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  for (const line of result.ok) process.stdout.write(`OK: ${line}\n`);
  for (const line of result.fails) process.stdout.write(`FAIL: ${line}\n`);
  process.stdout.write(result.fails.length ? `NOT VERIFIED: ${result.fails.length} check(s) failed\n` : 'VERIFIED\n');
  return result.fails.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('verify-opening.mjs')) {
  process.exitCode = main(process.argv.slice(2));
}
