import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import { promoCodes } from '../../db/schema/promo.ts';
import { seedPromoCodes } from '../../seed/wallet.ts';
import { getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  t = await moneyTestContext();
  // The owner: codes here exceed what an admin may create alone (promo.limits, ADR 0024; see separation-of-duties.test.ts).
  admin = await t.makeUser({ role: 'owner' });
});
afterAll(() => t.close());

async function createPromo(body: Record<string, unknown>) {
  const res = await t.as(admin).post('/api/admin/promo', body);
  return { res, body: await res.json() };
}
const redeem = (u: string, code: string, key = idem()) => t.as(u).post('/api/wallet/promo/redeem', { code }, key);

describe('admin promo codes', () => {
  it('is admin-only', async () => {
    const u = await t.makeUser();
    expect((await t.as(null).get('/api/admin/promo')).status).toBe(401);
    expect((await t.as(u).get('/api/admin/promo')).status).toBe(403);
    expect((await t.as(u).post('/api/admin/promo', { code: 'HACK', kind: 'credit', amountCents: 100000 })).status).toBe(403);
  });

  it('creates, lists with usage, edits and deactivates, all audited', async () => {
    const { res, body } = await createPromo({ code: 'spring25', kind: 'credit', amountCents: 2500, totalLimit: 100, description: 'Spring' });
    expect(res.status).toBe(201);
    expect(body.promo).toMatchObject({ code: 'SPRING25', kind: 'credit', amountCents: 2500, redeemedCount: 0, active: true });
    const id = body.promo.id;

    const dup = await createPromo({ code: 'Spring25', kind: 'credit', amountCents: 100 });
    expect(dup.res.status).toBe(409);
    expect(dup.body.error.code).toBe('promo_code_taken');

    const u = await t.makeUser();
    expect((await redeem(u, 'spring25')).status).toBe(200);
    const list = await (await t.as(admin).get('/api/admin/promo')).json();
    expect(list.promos.find((p: { id: string }) => p.id === id).redeemedCount).toBe(1);

    const edit = await t.as(admin).patch(`/api/admin/promo/${id}`, { amountCents: 3000, endsAt: '2099-01-01T00:00:00Z' });
    expect(edit.status).toBe(200);
    expect((await edit.json()).promo).toMatchObject({ amountCents: 3000, endsAt: '2099-01-01T00:00:00.000Z' });
    const tooLow = await t.as(admin).patch(`/api/admin/promo/${id}`, { totalLimit: 1 });
    expect(tooLow.status).toBe(200);
    const belowUsed = await t.as(admin).patch(`/api/admin/promo/${id}`, { totalLimit: null, startsAt: '2100-01-01T00:00:00Z' });
    expect(belowUsed.status).toBe(400);
    expect((await belowUsed.json()).error.fields.endsAt).toBeDefined();

    const off = await t.as(admin).patch(`/api/admin/promo/${id}`, { active: false });
    expect((await off.json()).promo.active).toBe(false);
    const u2 = await t.makeUser();
    const refused = await redeem(u2, 'SPRING25');
    expect(refused.status).toBe(404);

    const detail = await (await t.as(admin).get(`/api/admin/promo/${id}`)).json();
    expect(detail.redemptions).toHaveLength(1);
    expect(detail.redemptions[0]).toMatchObject({ userId: u, status: 'credited', creditedCents: 2500 });
    const reds = await (await t.as(admin).get(`/api/admin/promo/${id}/redemptions`)).json();
    expect(reds.redemptions).toHaveLength(1);

    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audits.map((a) => a.action).sort()).toEqual(['promo.create', 'promo.deactivate', 'promo.update', 'promo.update']);
  });

  it('validates input with field messages', async () => {
    const { res, body } = await createPromo({ code: 'x', kind: 'deposit_bonus', bonusPercent: 150 });
    expect(res.status).toBe(400);
    expect(Object.keys(body.error.fields).sort()).toEqual(['bonusCapCents', 'bonusPercent', 'code']);
    const noAmount = await createPromo({ code: 'NOAMOUNT', kind: 'credit' });
    expect(noAmount.body.error.fields.amountCents).toBeDefined();
    expect((await t.as(admin).get('/api/admin/promo/not-a-uuid')).status).toBe(404);
    expect((await t.as(admin).get('/api/admin/promo/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('redeeming', () => {
  it('credits once per user, with an idempotent replay', async () => {
    await createPromo({ code: 'ONCE10', kind: 'credit', amountCents: 1000 });
    const u = await t.makeUser();
    const key = idem();
    const first = await redeem(u, 'once10', key);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ kind: 'credit', creditedCents: 1000, balanceCents: 1000 });
    const replay = await redeem(u, 'once10', key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const twice = await redeem(u, 'ONCE10');
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.code).toBe('promo_already_redeemed');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(1000);
    const [entry] = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u));
    expect(entry).toMatchObject({ kind: 'promo_credit', amountCents: 1000, referenceType: 'promo_redemption' });
  });

  it('honours the validity window, minimum account age and a verified email', async () => {
    await createPromo({ code: 'LATER', kind: 'credit', amountCents: 100, startsAt: '2099-01-01T00:00:00Z' });
    await createPromo({ code: 'GONE', kind: 'credit', amountCents: 100, startsAt: '2000-01-01T00:00:00Z', endsAt: '2001-01-01T00:00:00Z' });
    await createPromo({ code: 'VETERAN', kind: 'credit', amountCents: 100, minAccountAgeDays: 30 });
    const u = await t.makeUser();
    expect((await (await redeem(u, 'LATER')).json()).error.code).toBe('promo_not_started');
    expect((await (await redeem(u, 'GONE')).json()).error.code).toBe('promo_expired');
    expect((await (await redeem(u, 'VETERAN')).json()).error.code).toBe('promo_account_too_new');
    expect((await (await redeem(u, 'NOPE-NOPE')).json()).error.code).toBe('promo_invalid');
    const old = await t.makeUser({ createdAt: new Date(Date.now() - 40 * 86_400_000) });
    expect((await redeem(old, 'veteran')).status).toBe(200);
    const unverified = await t.makeUser({ verified: false });
    expect((await redeem(unverified, 'VETERAN')).status).toBe(403);
    expect((await t.as(u).post('/api/wallet/promo/redeem', { code: 'VETERAN' })).status).toBe(400);
  });

  it('50 parallel redemptions of a code limited to 5 → exactly 5', async () => {
    const { body } = await createPromo({ code: 'FIRST5', kind: 'credit', amountCents: 700, totalLimit: 5 });
    const users = await Promise.all(Array.from({ length: 50 }, () => t.makeUser()));
    const res = await Promise.all(users.map((u) => redeem(u, 'FIRST5')));
    expect(res.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = await Promise.all(res.filter((r) => r.status !== 200).map((r) => r.json()));
    expect(refused.map((b) => b.error.code)).toEqual(Array(45).fill('promo_limit_reached'));
    const [row] = await t.deps.db.select().from(promoCodes).where(eq(promoCodes.id, body.promo.id));
    expect(row!.redeemedCount).toBe(5);
    const credited = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.memo, 'Promo code FIRST5'));
    expect(credited).toHaveLength(5);
    expect((await ledgerInvariants(t)).mismatched).toEqual([]);
  });

  it('one user racing 20 redemptions with different keys gets it once', async () => {
    await createPromo({ code: 'RACE', kind: 'credit', amountCents: 300 });
    const u = await t.makeUser();
    const res = await Promise.all(Array.from({ length: 20 }, () => redeem(u, 'RACE')));
    expect(res.filter((r) => r.status === 200)).toHaveLength(1);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(300);
  });

  it('a deposit bonus waits for the next deposit and is capped', async () => {
    await createPromo({ code: 'BONUS50', kind: 'deposit_bonus', bonusPercent: 50, bonusCapCents: 1500 });
    await createPromo({ code: 'BONUS10', kind: 'deposit_bonus', bonusPercent: 10, bonusCapCents: 1000 });
    const u = await t.makeUser();
    const r = await (await redeem(u, 'bonus50')).json();
    expect(r).toMatchObject({ kind: 'deposit_bonus', creditedCents: 0, bonusPercent: 50, bonusCapCents: 1500 });
    expect((await (await redeem(u, 'BONUS10')).json()).error.code).toBe('promo_bonus_waiting');
    expect((await (await t.as(u).get('/api/wallet/promo/pending')).json()).pendingBonus).toMatchObject({ code: 'BONUS50' });

    const dep = await (await t.as(u).post('/api/wallet/deposits', { amountCents: 5000 }, idem())).json();
    const paid = await (await t.as(u).post(`/api/payments/sandbox/deposits/${dep.deposit.id}/pay`, {}, idem())).json();
    expect(paid.deposit).toMatchObject({ amountCents: 5000, bonusCents: 1500 });
    expect(paid.balanceCents).toBe(6500);
    expect((await (await t.as(u).get('/api/wallet/promo/pending')).json()).pendingBonus).toBeNull();
    const dep2 = await (await t.as(u).post('/api/wallet/deposits', { amountCents: 1000 }, idem())).json();
    await t.as(u).post(`/api/payments/sandbox/deposits/${dep2.deposit.id}/pay`, {}, idem());
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(7500);
    expect((await redeem(u, 'BONUS10')).status).toBe(200);
  });

  it('self-exclusion blocks redemptions', async () => {
    await createPromo({ code: 'BREAK', kind: 'credit', amountCents: 100 });
    const u = await t.makeUser();
    await t.as(u).post('/api/wallet/self-exclusion', { duration: '24h', confirm: true });
    const r = await redeem(u, 'BREAK');
    expect(r.status).toBe(403);
    expect((await r.json()).error.code).toBe('self_excluded');
  });

  it('seeds WELCOME5 once', async () => {
    await seedPromoCodes.run(t.deps);
    await seedPromoCodes.run(t.deps);
    const rows = await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, 'WELCOME5'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'credit', amountCents: 500, active: true });
    const u = await t.makeUser();
    expect(await (await redeem(u, 'welcome5')).json()).toMatchObject({ creditedCents: 500, balanceCents: 500 });
  });
});

describe('abuse', () => {
  it('limits redemption attempts per account (codes cannot be enumerated)', async () => {
    const { REDEEM_ATTEMPTS } = await import('./routes.ts');
    const u = await t.makeUser();
    let last: Response | undefined;
    for (let i = 0; i <= REDEEM_ATTEMPTS; i++) last = await redeem(u, `GUESS${i}`);
    expect(last!.status).toBe(429);
    expect((await last!.json()).error.code).toBe('rate_limited');
  });
});
