import { sql } from 'drizzle-orm';
import type { Bus } from './bus.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { session, user } from '../auth/tables.ts';

/**
 * Streams end with the session (issue 39): an open GET /api/events keeps the user topic it was
 * opened with, so when a session ends (sign-out, revoke, revoke-others, password change or reset,
 * ban, deletion) or the user's rights change (role change, two-factor reset), every process must
 * close the streams it holds for it. The revocation travels on the bus's internal topic (NOTIFY on
 * PostgreSQL, so it reaches every process); each process's fanout closes the matching streams.
 */
export const STREAMS_END = 'streams.end';

export interface StreamsEnd {
  userId: string;
  /** Only the streams opened with these sessions; absent: every stream of the user… */
  sessionIds?: string[];
  /** …except the one opened with this session (revoke-others, change password). */
  exceptSessionId?: string;
}

/** Publishes the revocation after the change has committed. Never throws: a failure is logged. */
export async function endStreams(deps: { bus: Bus; log: Logger }, end: StreamsEnd): Promise<void> {
  try {
    await deps.bus.publish('internal', STREAMS_END, end);
  } catch (err) {
    deps.log.error('could not publish the end of realtime streams', { err, userId: end.userId });
  }
}

export function isStreamsEnd(data: unknown): data is StreamsEnd {
  return typeof data === 'object' && data !== null && typeof (data as StreamsEnd).userId === 'string';
}

/**
 * Of `sessionIds`, those that still exist, have not expired, and whose user is neither banned
 * (a ban without an end, or one not over yet) nor deleted: the periodic sweep's one query for
 * every open stream of the process (fanout.ts, SessionSweep). The ids go as one JSON parameter,
 * so ten thousand streams are still one statement.
 */
export async function liveSessions(db: DbOrTx, sessionIds: readonly string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: session.id })
    .from(session)
    .innerJoin(user, sql`${user.id} = ${session.userId}`)
    .where(
      sql`${session.id} in (select jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb))
        and ${session.expiresAt} > now()
        and ${user.deletedAt} is null
        and not (${user.banned} and (${user.banExpires} is null or ${user.banExpires} > now()))`,
    );
  return new Set(rows.map((r) => r.id));
}
