import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../../config.ts';
import { user } from '../../db/schema/auth.ts';
import type { Actor, AppEnv } from '../../http/types.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { reconcileStock } from '../inventory/service.ts';
import { reconcileMoney } from './books.ts';

/**
 * Test actors for the money suites: a request carrying `x-test-user: <id>` acts as that user
 * (registered with makeUser). The users are real rows so ledger foreign keys hold.
 */
export interface MoneyTestContext extends TestContext {
  makeUser(opts?: { role?: Actor['role']; verified?: boolean; mfa?: boolean; createdAt?: Date }): Promise<string>;
  as(userId: string | null): ActorClient;
}

export interface ActorClient {
  get(path: string): Promise<Response>;
  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<Response>;
  put(path: string, json: unknown): Promise<Response>;
  patch(path: string, json: unknown): Promise<Response>;
  delete(path: string): Promise<Response>;
}

export async function moneyTestContext(config: Partial<Config> = {}): Promise<MoneyTestContext> {
  const actors = new Map<string, Actor>();
  const actorMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const id = c.req.header('x-test-user');
    const actor = id ? actors.get(id) : undefined;
    if (actor) c.set('actor', actor);
    await next();
  };
  const t = await createTestContext({ config, appOptions: { actorMiddleware } });
  let n = 0;
  return Object.assign(t, {
    async makeUser(opts: { role?: Actor['role']; verified?: boolean; mfa?: boolean; createdAt?: Date } = {}) {
      const id = `u_${randomUUID().slice(0, 8)}_${++n}`;
      const role = opts.role ?? 'user';
      const verified = opts.verified ?? true;
      await t.deps.db.insert(user).values({
        id,
        name: id,
        email: `${id}@example.test`,
        username: id.slice(0, 20),
        role,
        emailVerified: verified,
        ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
      });
      actors.set(id, { userId: id, role, emailVerified: verified, mfaPassed: opts.mfa ?? true, sessionId: `s_${id}` });
      return id;
    },
    as(userId: string | null): ActorClient {
      const h = (extra: Record<string, string> = {}) => ({ ...(userId ? { 'x-test-user': userId } : {}), ...extra });
      return {
        get: (path) => t.request(path, { headers: h() }),
        post: (path, json = {}, headers = {}) => t.request(path, { method: 'POST', json, headers: h(headers) }),
        put: (path, json) => t.request(path, { method: 'PUT', json, headers: h() }),
        patch: (path, json) => t.request(path, { method: 'PATCH', json, headers: h() }),
        delete: (path) => t.request(path, { method: 'DELETE', headers: h() }),
      };
    },
  });
}

/**
 * The invariants every money test ends with: each balance equals its ledger, none negative. The
 * books must reconcile too, both halves (reconcileMoney, ADR 0010; reconcileStock, ADR 0011): if
 * they don't, this throws with the failed checks, so every concurrency test that ends here proves
 * the books.
 */
export async function ledgerInvariants(t: TestContext) {
  const books = await reconcileMoney(t.deps.db);
  if (!books.ok) throw new Error(`the books do not reconcile: ${JSON.stringify(books.checks.filter((c) => !c.ok))}`);
  const stock = await reconcileStock(t.deps.db);
  if (!stock.ok) throw new Error(`the stock does not reconcile: ${JSON.stringify(stock.details)}`);
  const rows = await t.deps.dbh.query<{ user_id: string; cents: string; ledger: string | null; last_after: string | null }>(sql`
    select b.user_id, b.cents,
      (select sum(amount_cents) from ledger_entries l where l.user_id = b.user_id) as ledger,
      (select balance_after from ledger_entries l where l.user_id = b.user_id order by seq desc limit 1) as last_after
    from balances b`);
  const orphan = await t.deps.dbh.query<{ n: string }>(sql`
    select count(*) as n from (select distinct user_id from ledger_entries) l
    where not exists (select 1 from balances b where b.user_id = l.user_id)`);
  const negatives = await t.deps.dbh.query<{ n: string }>(sql`
    select count(*) as n from ledger_entries where balance_after < 0`);
  return {
    mismatched: rows.filter((r) => Number(r.cents) !== Number(r.ledger ?? 0) || (r.last_after !== null && Number(r.last_after) !== Number(r.cents))),
    negativeBalances: rows.filter((r) => Number(r.cents) < 0).length,
    negativeAfter: Number(negatives[0]?.n ?? 0),
    orphanLedgers: Number(orphan[0]?.n ?? 0),
    total: rows.reduce((s, r) => s + Number(r.cents), 0),
  };
}

export const idem = () => ({ 'Idempotency-Key': randomUUID() });
