import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from './test-support.ts';

/**
 * Hundreds of concurrent money requests over HTTP (deposits, pays, promo redemptions, admin
 * debits and credits, retries with one key), then the books must balance. On PostgreSQL these
 * really run in parallel; PGlite serializes them.
 */
let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  // A 5xx here is a bug to find: log it with its stack.
  t = await moneyTestContext({ logLevel: 'error' });
  admin = await t.makeUser({ role: 'admin' });
  await t.as(admin).post('/api/admin/promo', { code: 'LOAD3', kind: 'credit', amountCents: 300, totalLimit: 7 });
});
afterAll(() => t.close());

describe('mixed concurrent money requests', () => {
  it('leave every balance equal to its ledger, none negative, nothing doubled', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => t.makeUser()));
    // A starting balance for each user.
    for (const u of users) {
      const r = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 1000, reason: 'seed' }, idem());
      expect(r.status).toBe(200);
    }
    const requests: Array<Promise<{ kind: string; user: string; status: number; replayed: boolean }>> = [];
    const run = (kind: string, user: string, p: Promise<Response>) =>
      requests.push(p.then((r) => ({ kind, user, status: r.status, replayed: r.headers.get('idempotent-replayed') === 'true' })));

    for (const u of users) {
      // Debits that together exceed the balance: only some can pass.
      for (let i = 0; i < 8; i++) {
        run('debit', u, t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: -300, reason: `spend ${i}` }, idem()));
      }
      // One credit retried 6 times with the same key.
      const key = { 'Idempotency-Key': randomUUID() };
      for (let i = 0; i < 6; i++) {
        run('retry', u, t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 111, reason: 'retry' }, key));
      }
      // A promo code limited to 7 in total, and one user trying it twice.
      run('promo', u, t.as(u).post('/api/wallet/promo/redeem', { code: 'LOAD3' }, idem()));
      run('promo', u, t.as(u).post('/api/wallet/promo/redeem', { code: 'load3' }, idem()));
      // Deposits that are paid from several tabs at once.
      run(
        'deposit',
        u,
        t.as(u)
          .post('/api/wallet/deposits', { amountCents: 700 }, idem())
          .then(async (r) => {
            const { deposit } = await r.json();
            const pays = await Promise.all(
              Array.from({ length: 4 }, () => t.as(u).post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {}, idem())),
            );
            return new Response(null, { status: pays.filter((p) => p.status === 200).length === 1 ? 200 : 500 });
          }),
      );
    }
    const results = await Promise.all(requests);
    expect(requests.length).toBeGreaterThan(200);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);

    const ok = (kind: string) => results.filter((r) => r.kind === kind && r.status === 200);
    expect(ok('promo')).toHaveLength(7);
    expect(ok('retry')).toHaveLength(users.length * 6);
    expect(results.filter((r) => r.kind === 'retry' && !r.replayed)).toHaveLength(users.length);
    expect(ok('deposit')).toHaveLength(users.length);
    const refusedDebits = results.filter((r) => r.kind === 'debit' && r.status !== 200);
    expect(refusedDebits.every((r) => r.status === 409)).toBe(true);

    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances).toBe(0);
    expect(inv.negativeAfter).toBe(0);
    expect(inv.orphanLedgers).toBe(0);

    // Per user: 1000 seed + 111 once + 700 deposit + (300 if the promo landed) − 300 × debits that passed.
    const promoUsers = new Set(ok('promo').map((r) => r.user));
    const rows = await t.deps.dbh.query<{ user_id: string; cents: string }>(sql`select user_id, cents from balances`);
    const balance = new Map(rows.map((r) => [r.user_id, Number(r.cents)]));
    for (const u of users) {
      const debits = ok('debit').filter((r) => r.user === u).length;
      expect(balance.get(u), u).toBe(1000 + 111 + 700 + (promoUsers.has(u) ? 300 : 0) - 300 * debits);
      expect(balance.get(u)!).toBeGreaterThanOrEqual(0);
    }
    // PGlite runs the ~250 requests one transaction at a time; give a busy machine room.
  }, 180_000);
});
