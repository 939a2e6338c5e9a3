/**
 * PostgreSQL error codes the code branches on (SQLSTATE, the same from PGlite and the server),
 * and how to read them off an error: Drizzle wraps the driver's error in `cause`.
 */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  /** Raised by our own triggers and statements (e.g. the one-statement open's stock race). */
  packvaultStockRace: 'PV001',
} as const;

/** The SQLSTATE of a failed query, looking through a few levels of `cause`. */
export function pgCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < 4; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => pgCode(err) === PG.uniqueViolation;
export const isForeignKeyViolation = (err: unknown) => pgCode(err) === PG.foreignKeyViolation;
/** A transaction the database rolled back to break a tie: safe to run again from the start. */
export const isRetryableTxError = (err: unknown) => {
  const code = pgCode(err);
  return code === PG.serializationFailure || code === PG.deadlockDetected;
};
