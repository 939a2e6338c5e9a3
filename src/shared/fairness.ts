/**
 * The provably-fair draw (docs/fairness.md is the normative description; keep them in step).
 * Runs unchanged in Node and the browser: the caller injects the two hash primitives, so the
 * server uses node:crypto and the browser Web Crypto (`webCryptoFair()` below).
 *
 * For each slot s of an opening with nonce n, a stream of uint32 words is read from
 *   HMAC-SHA256(key = serverSeed, message = `${clientSeed}:${n}:${s}:${round}`), round = 0, 1, 2, …
 * each 32-byte block giving 8 big-endian words. The slot's class is drawn from its integer
 * weights, then the card's index in that class's pool (card ids sorted ascending), both by
 * rejection sampling so there is no modulo bias.
 */

export interface FairCrypto {
  /** HMAC-SHA256 with the UTF-8 bytes of key and message. */
  hmacSha256(key: string, message: string): Promise<Uint8Array>;
  /** SHA-256 of the UTF-8 bytes of message. */
  sha256(message: string): Promise<Uint8Array>;
}

export interface OddsEntry {
  classId: string;
  weight: number;
}
export interface SlotOdds {
  odds: OddsEntry[];
}

export interface Draw {
  slot: number;
  classId: string;
  poolSize: number;
  index: number;
  cardId: string;
  exhausted: boolean;
}

const TWO_32 = 0x1_0000_0000;

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/**
 * A stream of uint32 words: HMAC-SHA256(key, `${prefix}:${round}`) for round = 0, 1, 2, …, each
 * 32-byte block read as 8 big-endian words, a further round computed only when needed.
 */
export class WordStream {
  private words: number[] = [];
  private pos = 0;
  private round = 0;
  /** How many words this stream has handed out (for tests and the docs' vectors). */
  used = 0;

  constructor(
    private readonly crypto: FairCrypto,
    private readonly key: string,
    private readonly prefix: string,
  ) {}

  async nextUint32(): Promise<number> {
    if (this.pos >= this.words.length) {
      const block = await this.crypto.hmacSha256(this.key, `${this.prefix}:${this.round}`);
      this.round += 1;
      this.words = [];
      for (let i = 0; i + 4 <= block.length; i += 4) {
        this.words.push(((block[i]! << 24) | (block[i + 1]! << 16) | (block[i + 2]! << 8) | block[i + 3]!) >>> 0);
      }
      this.pos = 0;
    }
    this.used += 1;
    return this.words[this.pos++]!;
  }

  /**
   * A uniform integer in [0, n), 1 ≤ n ≤ 2^32: words at or above the largest multiple of n that
   * fits in 2^32 are rejected and the next word is read. Always reads at least one word.
   */
  async uniform(n: number): Promise<number> {
    if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`uniform(n) needs 1 ≤ n ≤ 2^32, got ${n}`);
    const limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      const u = await this.nextUint32();
      if (u < limit) return u % n;
    }
  }
}

/** The word stream of one slot of an opening: key = server seed, prefix = `${clientSeed}:${nonce}:${slot}`. */
export class SlotStream extends WordStream {
  constructor(crypto: FairCrypto, serverSeed: string, clientSeed: string, nonce: number, slot: number) {
    super(crypto, serverSeed, `${clientSeed}:${nonce}:${slot}`);
  }
}

/** Index into `weights` chosen with probability weight / total (weights: positive integers, in the listed order). */
export async function pickWeighted(stream: WordStream, weights: readonly number[]): Promise<number> {
  let total = 0;
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 1) throw new RangeError(`weights must be positive integers, got ${w}`);
    total += w;
  }
  if (total > TWO_32) throw new RangeError('the weights of one slot must sum to at most 2^32');
  const r = await stream.uniform(total);
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    acc += weights[i]!;
    if (r < acc) return i;
  }
  throw new Error('unreachable');
}

/** Canonical text of an odds table: one line per slot, `classId=weight` joined by ",". */
export function oddsCanonical(slots: readonly SlotOdds[]): string {
  return slots.map((s) => s.odds.map((e) => `${e.classId}=${e.weight}`).join(',')).join('\n');
}

/**
 * Canonical text of the pools: one line per class, classes sorted by id, `classId:` followed by
 * the class's card ids sorted ascending and joined by ",". Empty pools are kept (`classId:`).
 */
export function poolCanonical(pools: Readonly<Record<string, readonly string[]>>): string {
  return Object.keys(pools)
    .sort(cmp)
    .map((classId) => `${classId}:${[...pools[classId]!].sort(cmp).join(',')}`)
    .join('\n');
}

function isSorted(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (cmp(ids[i - 1]!, ids[i]!) > 0) return false;
  return true;
}

/** Plain code-unit order (ids are lowercase hex UUIDs, so this is also byte order). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function sha256Hex(crypto: FairCrypto, text: string): Promise<string> {
  return toHex(await crypto.sha256(text));
}
export const oddsHash = (crypto: FairCrypto, slots: readonly SlotOdds[]) => sha256Hex(crypto, oddsCanonical(slots));
export const poolHash = (crypto: FairCrypto, pools: Readonly<Record<string, readonly string[]>>) =>
  sha256Hex(crypto, poolCanonical(pools));

export class PoolEmptyError extends Error {
  constructor(
    readonly slot: number,
    readonly classId: string,
  ) {
    super(`slot ${slot}: class ${classId} has no card left in its pool`);
    this.name = 'PoolEmptyError';
  }
}

export interface DrawInput {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
  slots: readonly SlotOdds[];
  /** classId → eligible card ids with stock (any order; sorted here). Not modified. */
  pools: Readonly<Record<string, readonly string[]>>;
  /**
   * Copies available per card. A draw that takes a card's last copy marks it exhausted and the
   * card leaves its pool for the later slots. Omitted = unlimited (nothing is ever exhausted).
   */
  stock?: Pick<ReadonlyMap<string, number>, 'get'>;
  /**
   * The caller guarantees every pool is already in `cmp` order (the server keeps its cached pools
   * so), which skips checking 100,000 ids on every draw. Verifiers leave it unset.
   */
  presorted?: boolean;
}

/**
 * Draws one opening. Returns one record per slot and the pools left afterwards (what the next
 * opening of the same request starts from); they share unchanged arrays with `input.pools`, so
 * neither may be modified.
 */
export async function drawOpening(
  crypto: FairCrypto,
  input: DrawInput,
): Promise<{ draws: Draw[]; poolsAfter: Record<string, readonly string[]> }> {
  // A pool of 100,000 ids already in order (the server keeps them so) is neither copied nor
  // re-sorted; a class's array is copied only when a draw removes a card from it.
  const pools: Record<string, readonly string[]> = {};
  const copied = new Set<string>();
  for (const [k, v] of Object.entries(input.pools)) {
    if (input.presorted || isSorted(v)) pools[k] = v;
    else {
      pools[k] = [...v].sort(cmp);
      copied.add(k);
    }
  }
  const left = new Map<string, number>();
  const draws: Draw[] = [];
  for (let slot = 0; slot < input.slots.length; slot++) {
    const odds = input.slots[slot]!.odds;
    const stream = new SlotStream(crypto, input.serverSeed, input.clientSeed, input.nonce, slot);
    const classId = odds[await pickWeighted(stream, odds.map((o) => o.weight))]!.classId;
    const pool = pools[classId];
    if (!pool || pool.length === 0) throw new PoolEmptyError(slot, classId);
    const index = await stream.uniform(pool.length);
    const cardId = pool[index]!;
    let exhausted = false;
    if (input.stock) {
      const remaining = (left.get(cardId) ?? input.stock.get(cardId) ?? 0) - 1;
      left.set(cardId, remaining);
      exhausted = remaining <= 0;
    }
    draws.push({ slot, classId, poolSize: pool.length, index, cardId, exhausted });
    if (exhausted) {
      const own = copied.has(classId) ? (pool as string[]) : [...pool];
      copied.add(classId);
      own.splice(index, 1);
      pools[classId] = own;
    }
  }
  return { draws, poolsAfter: pools };
}

export interface VerifyInput {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  slots: readonly SlotOdds[];
  oddsHash: string;
  poolHash: string;
  /** The pool snapshot (GET /api/fairness/pools/{poolHash}). */
  pools: Readonly<Record<string, readonly string[]>>;
  /** The stored result. */
  draws: readonly Draw[];
}

export interface VerifyResult {
  ok: boolean;
  /** One line per failed check, e.g. "slot 2: expected card …, stored …". */
  problems: string[];
  /** The recomputed draws. */
  draws: Draw[];
}

/**
 * Recomputes an opening from its revealed seed and checks every stored field: the seed's hash,
 * the odds and pool hashes, and each slot's class, pool size, index and card. The stored
 * `exhausted` flags say when a card's last copy was taken (stock is not part of the proof).
 */
export async function verifyOpening(crypto: FairCrypto, v: VerifyInput): Promise<VerifyResult> {
  const problems: string[] = [];
  const seedHash = await sha256Hex(crypto, v.serverSeed);
  if (seedHash !== v.serverSeedHash) problems.push(`server seed hashes to ${seedHash}, not the published ${v.serverSeedHash}`);
  const oh = await oddsHash(crypto, v.slots);
  if (oh !== v.oddsHash) problems.push(`odds hash is ${oh}, stored ${v.oddsHash}`);
  const ph = await poolHash(crypto, v.pools);
  if (ph !== v.poolHash) problems.push(`pool hash is ${ph}, stored ${v.poolHash}`);
  // Replay with stock derived from the stored exhausted flags: a card is exhausted exactly at the
  // draws flagged so, which is what a stock of "number of draws up to the flag" reproduces.
  const stock = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const d of v.draws) {
    counts.set(d.cardId, (counts.get(d.cardId) ?? 0) + 1);
    if (d.exhausted && !stock.has(d.cardId)) stock.set(d.cardId, counts.get(d.cardId)!);
  }
  for (const d of v.draws) if (!stock.has(d.cardId)) stock.set(d.cardId, Number.MAX_SAFE_INTEGER);
  let draws: Draw[] = [];
  try {
    draws = (
      await drawOpening(crypto, {
        serverSeed: v.serverSeed,
        clientSeed: v.clientSeed,
        nonce: v.nonce,
        slots: v.slots,
        pools: v.pools,
        stock,
      })
    ).draws;
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
  }
  if (draws.length && draws.length !== v.draws.length) problems.push(`recomputed ${draws.length} cards, stored ${v.draws.length}`);
  for (let i = 0; i < Math.min(draws.length, v.draws.length); i++) {
    const a = draws[i]!;
    const b = v.draws[i]!;
    if (a.classId !== b.classId) problems.push(`slot ${i}: class ${a.classId}, stored ${b.classId}`);
    else if (a.poolSize !== b.poolSize) problems.push(`slot ${i}: pool of ${a.poolSize} cards, stored ${b.poolSize}`);
    else if (a.index !== b.index) problems.push(`slot ${i}: index ${a.index}, stored ${b.index}`);
    else if (a.cardId !== b.cardId) problems.push(`slot ${i}: card ${a.cardId}, stored ${b.cardId}`);
  }
  return { ok: problems.length === 0, problems, draws };
}

/** FairCrypto over Web Crypto (browsers, and Node ≥ 20 via globalThis.crypto). */
export function webCryptoFair(subtle: SubtleCrypto = globalThis.crypto.subtle): FairCrypto {
  const enc = new TextEncoder();
  const keys = new Map<string, Promise<CryptoKey>>();
  const keyFor = (k: string) => {
    let p = keys.get(k);
    if (!p) {
      p = subtle.importKey('raw', enc.encode(k), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      keys.set(k, p);
    }
    return p;
  };
  return {
    async hmacSha256(key, message) {
      return new Uint8Array(await subtle.sign('HMAC', await keyFor(key), enc.encode(message)));
    },
    async sha256(message) {
      return new Uint8Array(await subtle.digest('SHA-256', enc.encode(message)));
    },
  };
}
