import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deposits } from '../../db/schema/payments.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import { getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/**
 * A friend's two qualifying deposits confirmed at the same moment (issue 17): each deposit's
 * credit locks the friend's balance, then the referral row; the second finds it qualified and
 * pays nothing. On PostgreSQL the two really run in parallel; on PGlite they queue.
 */

const onPostgres = inject('dbKind') === 'postgres';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const json = async <T>(res: Response) => (await res.json()) as T;

async function startDeposit(u: string, amountCents: number): Promise<string> {
  const res = await t.as(u).post('/api/wallet/deposits', { amountCents }, idem());
  expect(res.status).toBe(201);
  return (await json<{ deposit: { id: string } }>(res)).deposit.id;
}

describe(`simultaneous qualifying deposits (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('pay the rewards once', async () => {
    for (let round = 0; round < (onPostgres ? 5 : 2); round++) {
      const r = await t.makeUser();
      const f = await t.makeUser();
      await t.deps.dbh.query(sql`delete from rate_limits`);
      const me = await json<{ code: string }>(await t.as(r).get('/api/referrals/me'));
      expect((await t.as(f).post('/api/referrals/claim', { code: me.code })).status).toBe(200);
      // Each deposit alone reaches the $20 threshold.
      const a = await startDeposit(f, 2500);
      const b = await startDeposit(f, 3000);
      const paid = await Promise.all([a, b].map((id) => t.as(f).post(`/api/payments/sandbox/deposits/${id}/pay`, {}, idem())));
      expect(paid.map((p) => p.status)).toEqual([200, 200]);
      const [ref] = await t.deps.db.select().from(referrals).where(eq(referrals.refereeId, f));
      expect(ref!.status).toBe('qualified');
      expect([a, b]).toContain(ref!.qualifyingDepositId);
      const rewards = await t.deps.db.select().from(referralRewards).where(eq(referralRewards.referralId, ref!.id));
      expect(rewards.map((x) => x.kind).sort()).toEqual(['referee_bonus', 'referrer_bonus']);
      expect((await getBalance(t.deps.db, r)).balanceCents).toBe(500);
      expect((await getBalance(t.deps.db, f)).balanceCents).toBe(5500 + 500);
      expect((await t.deps.db.select().from(deposits).where(eq(deposits.userId, f))).every((d) => d.status === 'succeeded')).toBe(true);
    }
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances).toBe(0);
  }, 120_000);
});
