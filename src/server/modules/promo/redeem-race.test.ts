import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { promoRedemptions } from '../../db/schema/promo.ts';
import { fund } from '../shop/test-support.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/**
 * Concurrent redemptions of one user, on PostgreSQL (PGlite runs one transaction at a time).
 * The interleaving is forced: a third transaction holds the user's row, which every redemption
 * needs (the redemption row's foreign key) after it has checked for a waiting bonus.
 */
const onPostgres = inject('dbKind') === 'postgres';

let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  t = await moneyTestContext({ logLevel: 'error' });
  admin = await t.makeUser({ role: 'owner' });
});
afterAll(() => t.close());

async function waitingOnLocks(n: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await t.deps.dbh.query<{ n: string }>(
      sql`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (Number(row!.n) >= n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`expected ${n} backend(s) waiting on a lock`);
}

describe.skipIf(!onPostgres)('two deposit-bonus codes redeemed at once by one user', () => {
  it('leave one bonus waiting; the other is refused with 409 promo_bonus_waiting', async () => {
    for (const code of ['RACEA', 'RACEB']) {
      const res = await t.as(admin).post('/api/admin/promo', { code, kind: 'deposit_bonus', bonusPercent: 50, bonusCapCents: 1000 });
      expect(res.status).toBe(201);
    }
    const user = await t.makeUser();
    await fund(t, user, 1000);

    let release!: () => void;
    let held!: () => void;
    const isHeld = new Promise<void>((r) => (held = r));
    const holder = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from "user" where id = ${user} for update`);
      held();
      await new Promise<void>((r) => (release = r));
    });
    await isHeld;
    const a = t.as(user).post('/api/wallet/promo/redeem', { code: 'RACEA' }, idem());
    const b = t.as(user).post('/api/wallet/promo/redeem', { code: 'RACEB' }, idem());
    await waitingOnLocks(2);
    release();
    await holder;

    const answers = await Promise.all([a, b]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('promo_bonus_waiting');
    const waiting = await t.deps.db
      .select({ id: promoRedemptions.id })
      .from(promoRedemptions)
      .where(and(eq(promoRedemptions.userId, user), eq(promoRedemptions.status, 'pending_deposit')));
    expect(waiting).toHaveLength(1);
    const inv = await ledgerInvariants(t);
    expect(inv).toMatchObject({ mismatched: [], negativeBalances: 0, negativeAfter: 0, orphanLedgers: 0 });
  });
});
