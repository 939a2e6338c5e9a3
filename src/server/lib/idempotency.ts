import { createHash } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/platform.ts';
import { AppError, badRequest, errorBody } from '../http/errors.ts';
import type { AppEnv } from '../http/types.ts';

/**
 * Idempotency for every endpoint that moves money.
 *
 *   const key = requireIdempotencyKey(c);
 *   const r = await withIdempotency(db, { userId, key, scope: 'POST /api/…', body }, async (tx) => {
 *     …move money with tx…
 *     return { status: 201, body: {...} };
 *   });
 *   return sendIdempotent(c, r);
 *
 * The key row is inserted in the same transaction as the effect and the stored response, so:
 * - same key + same body → the stored first response is replayed (header Idempotent-Replayed: true);
 * - same key + different body (or another endpoint) → 409 'idempotency_conflict';
 * - concurrent duplicates: the unique index makes the second INSERT wait for the first
 *   transaction; once that commits the second finds the row and replays it. Exactly one effect,
 *   and a crash between effect and "remember the response" cannot happen.
 * Business errors (4xx AppError) are remembered too, so a retry gets the same answer;
 * unexpected failures (5xx) are not, so the client can retry.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_RE = /^[A-Za-z0-9_.:-]{8,200}$/;

/** The Idempotency-Key header, or a 400 telling the client what to send. */
export function requireIdempotencyKey(c: Context<AppEnv>): string {
  const key = c.req.header(IDEMPOTENCY_HEADER)?.trim();
  if (!key) {
    throw badRequest(
      'This request moves money and needs an Idempotency-Key header (a fresh random value, e.g. a UUID, reused only to retry the same request).',
      { [IDEMPOTENCY_HEADER]: ['Required.'] },
      'idempotency_key_required',
    );
  }
  if (!KEY_RE.test(key)) {
    throw badRequest(
      'The Idempotency-Key header must be 8–200 characters of letters, digits, ".", "_", ":" or "-".',
      { [IDEMPOTENCY_HEADER]: ['Use 8–200 characters of letters, digits, ".", "_", ":" or "-".'] },
      'idempotency_key_invalid',
    );
  }
  return key;
}

/** JSON with object keys sorted, so {a,b} and {b,a} hash the same. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}

export function requestHash(scope: string, body: unknown): string {
  return createHash('sha256').update(scope).update('\n').update(canonical(body)).digest('hex');
}

export interface IdempotentRequest {
  /** Whose key space: the signed-in actor. */
  userId: string;
  key: string;
  /** Method and concrete path, e.g. 'POST /api/wallet/promo/redeem'. */
  scope: string;
  /** The parsed body (and anything else that must match on a retry). */
  body: unknown;
}

export interface IdempotentResult<T> {
  status: ContentfulStatusCode;
  body: T;
  replayed: boolean;
}

export type TransactionRunner = <R>(fn: (tx: Tx) => Promise<R>) => Promise<R>;

/**
 * The key names one intent of the user (one buy, one sale…): reused for anything else — another
 * quantity, product, set of cards, endpoint — it is refused before anything runs, so a client that
 * mixes up its keys can never turn a retry into a different charge.
 */
const conflictError = () =>
  new AppError(
    409,
    'idempotency_conflict',
    'This Idempotency-Key was already used for a different request, so nothing was done. Send a new key for a new request.',
    { [IDEMPOTENCY_HEADER]: ['Already used for a different request: send a new key for a new request.'] },
  );

class Replay {
  constructor(readonly row: typeof idempotencyKeys.$inferSelect) {}
}

function replayOf<T>(row: typeof idempotencyKeys.$inferSelect, hash: string): IdempotentResult<T> {
  if (row.requestHash !== hash) throw conflictError();
  if (row.responseStatus === null) {
    // Only possible if a row was written outside withIdempotency; never replay a half state.
    throw new AppError(409, 'idempotency_in_progress', 'The first request with this key is still running. Retry in a moment.');
  }
  return { status: row.responseStatus as ContentfulStatusCode, body: row.responseBody as T, replayed: true };
}

export async function withIdempotency<T>(
  db: Db,
  req: IdempotentRequest,
  handler: (tx: Tx) => Promise<{ status: ContentfulStatusCode; body: T }>,
  runTransaction: TransactionRunner = (fn) => db.transaction(fn),
): Promise<IdempotentResult<T>> {
  const hash = requestHash(req.scope, req.body);
  const where = and(eq(idempotencyKeys.userId, req.userId), eq(idempotencyKeys.key, req.key));
  try {
    return await runTransaction(async (tx) => {
      const inserted = await tx
        .insert(idempotencyKeys)
        .values({ userId: req.userId, key: req.key, requestHash: hash })
        .onConflictDoNothing({ target: [idempotencyKeys.userId, idempotencyKeys.key] })
        .returning({ id: idempotencyKeys.id });
      if (inserted.length === 0) {
        // A committed first request exists (PostgreSQL made us wait for it if it was running).
        const [row] = await tx.select().from(idempotencyKeys).where(where);
        throw new Replay(row!);
      }
      const result = await handler(tx);
      await tx
        .update(idempotencyKeys)
        .set({ responseStatus: result.status, responseBody: result.body as object })
        .where(eq(idempotencyKeys.id, inserted[0]!.id));
      return { status: result.status, body: result.body, replayed: false };
    });
  } catch (err) {
    if (err instanceof Replay) return replayOf<T>(err.row, hash);
    if (err instanceof AppError && err.status < 500 && err.status !== 429) {
      // The effect rolled back; remember the answer so a retry of this request gets the same one.
      const stored = await db
        .insert(idempotencyKeys)
        .values({
          userId: req.userId,
          key: req.key,
          requestHash: hash,
          responseStatus: err.status,
          responseBody: errorBody(err),
        })
        .onConflictDoNothing({ target: [idempotencyKeys.userId, idempotencyKeys.key] })
        .returning({ id: idempotencyKeys.id });
      if (stored.length === 0) {
        // Someone else finished a request with this key meanwhile: answer as they did.
        const [row] = await db.select().from(idempotencyKeys).where(where);
        if (row) return replayOf<T>(row, hash);
      }
    }
    throw err;
  }
}

/**
 * Sends an idempotent result, marking replays. Typed `never` so an OpenAPI handler can return it
 * whatever its declared responses (a replay may carry a stored error).
 */
export function sendIdempotent<T>(c: Context<AppEnv>, r: IdempotentResult<T>): never {
  if (r.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(r.body as object, r.status) as never;
}

/**
 * The stored first response as a statement for a caller's CTE (the one-statement open: `with key as
 * (${storeKeySql(…)})`), so the key is written by the same statement as the sale. Returns "id" when
 * the key was new, nothing when it already existed.
 */
export function storeKeySql(p: { userId: SQL; key: SQL; requestHash: SQL; status: number; body: SQL }): SQL {
  return sql`insert into ${idempotencyKeys} ("user_id", "key", "request_hash", "response_status", "response_body")
      values (${p.userId}, ${p.key}, ${p.requestHash}, ${sql.raw(String(Math.trunc(p.status)))}, ${p.body})
      on conflict ("user_id", "key") do nothing
      returning "id"`;
}

/** A deleted account's stored responses (replay cache, nothing to keep). */
export async function forgetKeysOf(tx: DbOrTx, userId: string): Promise<void> {
  await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
}
