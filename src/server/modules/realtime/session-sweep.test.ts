import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../auth/tables.ts';
import { signUpAndSignIn, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { sseReader } from '../../test/sse.ts';
import { createSessionCookie } from '../auth/users.ts';
import { createFanout } from './fanout.ts';
import type { Topic } from './bus.ts';
import { memoryBus } from './test-support.ts';

/**
 * Issue 39: every stream ends within 5 s of its session, whatever the race. Besides the bus's
 * `streams.end`, each process sweeps its open streams every SSE_SESSION_SWEEP_MS (2 s; short
 * here) with one query, and ends those whose session row is gone or expired, or whose user is
 * banned or deleted. These changes are made straight in the database, so no event is published.
 */

const SWEEP_MS = 300;
/** A sweep runs within SWEEP_MS of the change, plus its query and the frame's way to the reader. */
const WITHIN_MS = 2 * SWEEP_MS + 1_000;

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { sseSessionSweepMs: SWEEP_MS } });
});
afterAll(() => t.close());

async function open(cookie?: string) {
  const ctl = new AbortController();
  const res = await t.request('/api/events', { headers: cookie ? { cookie } : {}, signal: ctl.signal });
  expect(res.status).toBe(200);
  const reader = sseReader(res);
  expect(JSON.parse((await reader.next('hello')).data)).toEqual({ user: Boolean(cookie) });
  return { reader, close: () => (ctl.abort(), reader.close()) };
}
type Stream = Awaited<ReturnType<typeof open>>;

async function expectEndedSoon(s: Stream, since: number, what: string) {
  await expect(s.reader.next('session.ended', WITHIN_MS), what).resolves.toBeTruthy();
  expect(Date.now() - since, what).toBeLessThan(WITHIN_MS);
  await expect(s.reader.next(undefined, 1000), what).rejects.toThrow(/stream ended/);
}

async function expectOpen(s: Stream, topic: Topic, what: string) {
  await t.deps.bus.publish(topic, 'balance.changed', { probe: what });
  expect(JSON.parse((await s.reader.next('balance.changed')).data), what).toEqual({ probe: what });
}

const cookieOf = (u: TestUser) => createSessionCookie(t.deps, u.userId);

describe('the session sweep ends streams the bus did not', () => {
  it('a session row deleted behind the bus’s back: its stream ends within the sweep; the user’s other session and a visitor stay', async () => {
    const u = await signUpAndSignIn(t);
    const gone = await cookieOf(u);
    const kept = await cookieOf(u);
    const s = await open(gone.cookie);
    const other = await open(kept.cookie);
    const visitor = await open();
    const since = Date.now();
    await t.deps.db.delete(session).where(eq(session.id, gone.sessionId));
    await expectEndedSoon(s, since, 'deleted session');
    await expectOpen(other, `user:${u.userId}`, 'other session');
    await expectOpen(visitor, 'public', 'visitor');
    other.close();
    visitor.close();
  });

  it('an expired session, a banned user and a deleted user end too; a ban that is over does not', async () => {
    const expired = await signUpAndSignIn(t);
    const banned = await signUpAndSignIn(t);
    const deleted = await signUpAndSignIn(t);
    const pardoned = await signUpAndSignIn(t);
    const e = await cookieOf(expired);
    const streams = {
      expired: await open(e.cookie),
      banned: await open((await cookieOf(banned)).cookie),
      deleted: await open((await cookieOf(deleted)).cookie),
      pardoned: await open((await cookieOf(pardoned)).cookie),
    };
    const since = Date.now();
    await t.deps.db.update(session).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(session.id, e.sessionId));
    await t.deps.db.update(user).set({ banned: true, banReason: 'test' }).where(eq(user.id, banned.userId));
    await t.deps.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, deleted.userId));
    await t.deps.db.update(user).set({ banned: true, banExpires: new Date(Date.now() - 60_000) }).where(eq(user.id, pardoned.userId));
    await expectEndedSoon(streams.expired, since, 'expired');
    await expectEndedSoon(streams.banned, since, 'banned');
    await expectEndedSoon(streams.deleted, since, 'deleted');
    await expectOpen(streams.pardoned, `user:${pardoned.userId}`, 'ban over');
    streams.pardoned.close();
  });
});

describe('the sweep itself', () => {
  it('asks once per run for every open signed-in stream’s session, and never twice at once', async () => {
    const { bus } = memoryBus();
    const shutdown = new AbortController();
    const calls: string[][] = [];
    let valid = new Set(['s1', 's2', 's3']);
    let inFlight = 0;
    let overlapped = false;
    const fanout = createFanout(bus, shutdown.signal, t.deps.log, {
      sessionSweep: {
        everyMs: 20,
        async alive(ids) {
          overlapped ||= inFlight > 0;
          inFlight++;
          calls.push([...ids].sort());
          await new Promise((r) => setTimeout(r, 50)); // slower than the interval
          inFlight--;
          return new Set(ids.filter((id) => valid.has(id)));
        },
      },
    });
    const stream = (sessionId: string | null) =>
      sseReader(new Response(fanout.open({ userTopic: sessionId ? `user:${sessionId}` : null, signedIn: sessionId !== null, lastEventId: undefined, sessionId })));
    const [a, b, b2, visitor] = [stream('s1'), stream('s2'), stream('s2'), stream(null)];
    for (const r of [a, b, b2, visitor]) await r.next('hello');
    await new Promise((r) => setTimeout(r, 150));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]).toEqual(['s1', 's2']);
    expect(overlapped).toBe(false);
    valid = new Set(['s1']);
    await b.next('session.ended', 1000);
    await b2.next('session.ended', 1000);
    expect(fanout.clientCount).toBe(2);
    shutdown.abort();
    for (const r of [a, visitor]) await r.close();
  });
});
