import { sql } from 'drizzle-orm';
import type { DbHandle } from '../db/client.ts';
import { tooManyRequests } from '../http/errors.ts';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counter in the database, so a limit holds across every app process.
 * One upsert per hit: no read-then-write race.
 */
export async function hitRateLimit(
  dbh: DbHandle,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const rows = await dbh.query<{ count: number; reset_in: number }>(sql`
    insert into rate_limits (key, count, window_start) values (${key}, 1, now())
    on conflict (key) do update set
      count = case when rate_limits.window_start <= now() - make_interval(secs => ${windowSeconds})
                   then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start <= now() - make_interval(secs => ${windowSeconds})
                   then now() else rate_limits.window_start end
    returning count,
      ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now())))::int as reset_in`);
  const row = rows[0]!;
  const count = Number(row.count);
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Number(row.reset_in)) };
}

/** Throws a 429 with the retry time when the limit is exceeded. */
export async function enforceRateLimit(
  dbh: DbHandle,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<void> {
  const r = await hitRateLimit(dbh, key, limit, windowSeconds);
  if (!r.allowed) throw tooManyRequests(r.retryAfterSeconds);
}
