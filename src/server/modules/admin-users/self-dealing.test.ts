import { randomUUID } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit.ts';
import { appSettings } from '../../db/schema/settings.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import { giveCards, makeCard, makeClass, stockOf } from '../buyback/test-support.ts';
import { processSettings } from '../settings/store.ts';
import { ADJUST_LIMITS_KEY } from '../wallet/adjust-policy.ts';
import { getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/**
 * Issue 13 item 2: no self-dealing in the back office. Nobody (owner included) adjusts, grants to
 * or revokes from their own account; an admin needs the owner above the single and daily limits.
 */

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const adjust = (actor: string, target: string, amountCents: number, reason = 'goodwill') =>
  t.as(actor).post(`/api/admin/users/${target}/balance/adjust`, { amountCents, reason }, idem());

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

const ledgerOf = (userId: string) => t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));
const auditsBy = (actorId: string, action: string) =>
  t.deps.db.select().from(auditLog).where(and(eq(auditLog.actorId, actorId), eq(auditLog.action, action)));

describe('self-dealing: one’s own account', () => {
  for (const role of ['admin', 'owner'] as const) {
    it(`an ${role} can't adjust their own balance: 403 self_dealing, nothing moved, the attempt audited`, async () => {
      const me = await t.makeUser({ role });
      for (const amount of [100, -100]) {
        const res = await adjust(me, me, amount, 'my own bonus');
        expect(res.status).toBe(403);
        const err = await errorOf(res);
        expect(err.code).toBe('self_dealing');
        expect(err.message).toMatch(/Ask another admin/);
      }
      expect((await getBalance(t.deps.db, me)).balanceCents).toBe(0);
      expect(await ledgerOf(me)).toEqual([]);
      expect(await auditsBy(me, 'wallet.adjust')).toEqual([]);
      const refused = await auditsBy(me, 'wallet.adjust.refused');
      expect(refused).toHaveLength(2);
      expect(refused[0]!.after).toMatchObject({ code: 'self_dealing', reason: 'my own bonus' });
      expect(refused[0]!.targetId).toBe(me);
    });

    it(`an ${role} can't grant a card to themselves (by id, username or email) nor revoke their own`, async () => {
      const me = await t.makeUser({ role });
      const cls = await makeClass(t);
      const card = await makeCard(t, { classId: cls.id, valueCents: 50_000, stock: 5 });
      for (const who of [me, me.slice(0, 20).toUpperCase(), `${me}@EXAMPLE.test`]) {
        const res = await t.as(me).post('/api/admin/owned/grant', { cardId: card.id, user: who, reason: 'a little treat' });
        expect(res.status).toBe(403);
        expect((await errorOf(res)).code).toBe('self_dealing');
      }
      expect(await stockOf(t, card.id)).toBe(5);
      expect(await t.deps.db.select().from(ownedCards).where(eq(ownedCards.ownerId, me))).toEqual([]);

      // A card they own anyway (bought, or granted by someone else) can't be revoked by them.
      const [mine] = await giveCards(t, me, card.id);
      const stock = await stockOf(t, card.id);
      const rev = await t.as(me).post(`/api/admin/owned/${mine}/revoke`, { reason: 'take it back' });
      expect(rev.status).toBe(403);
      expect((await errorOf(rev)).code).toBe('self_dealing');
      const [row] = await t.deps.db.select().from(ownedCards).where(eq(ownedCards.id, mine!));
      expect(row!.status).toBe('in_vault');
      expect(await stockOf(t, card.id)).toBe(stock);

      expect(await auditsBy(me, 'owned.grant')).toEqual([]);
      expect(await auditsBy(me, 'owned.revoke')).toEqual([]);
      expect(await auditsBy(me, 'owned.grant.refused')).toHaveLength(3);
      expect(await auditsBy(me, 'owned.revoke.refused')).toHaveLength(1);
    });
  }

  it('grant and revoke for someone else still work', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 700, stock: 2 });
    const g = await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: u, reason: 'stream prize' });
    expect(g.status).toBe(201);
    const id = ((await g.json()) as { ownedCard: { id: string } }).ownedCard.id;
    expect((await t.as(admin).post(`/api/admin/owned/${id}/revoke`, { reason: 'granted twice' })).status).toBe(200);
  });

  it("an admin can't redeem a promo code they created or edited (no staff account redeems any); a customer can", async () => {
    const creator = await t.makeUser({ role: 'admin' });
    const editor = await t.makeUser({ role: 'admin' });
    const customer = await t.makeUser();
    const code = `SELF${randomUUID().slice(0, 6).toUpperCase()}`;
    const created = await t.as(creator).post('/api/admin/promo', { code, kind: 'credit', amountCents: 2_000, totalLimit: 10 });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { promo: { id: string } }).promo;
    expect((await t.as(editor).patch(`/api/admin/promo/${id}`, { amountCents: 2_500 })).status).toBe(200);
    for (const who of [creator, editor]) {
      const res = await t.as(who).post('/api/wallet/promo/redeem', { code }, idem());
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('promo_staff');
      expect((await getBalance(t.deps.db, who)).balanceCents).toBe(0);
    }
    const ok = await t.as(customer).post('/api/wallet/promo/redeem', { code }, idem());
    expect(ok.status).toBe(200);
    expect((await getBalance(t.deps.db, customer)).balanceCents).toBe(2_500);
  });
});

describe('adjustment limits', () => {
  // The defaults: $500 per adjustment, $2,000 per admin per 24 hours.
  it('an adjustment of someone else within the limits works', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const u = await t.makeUser();
    const res = await adjust(admin, u, 500_00);
    expect(res.status).toBe(200);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(500_00);
    expect(await auditsBy(admin, 'wallet.adjust')).toHaveLength(1);
  });

  it('above the single limit: an admin gets 403 owner_required (nothing written, audited); the owner may', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const owner = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    for (const amount of [500_01, -500_01]) {
      const res = await adjust(admin, u, amount, 'big make-good');
      expect(res.status).toBe(403);
      const err = await errorOf(res);
      expect(err.code).toBe('owner_required');
      expect(err.message).toMatch(/Ask the owner/);
    }
    expect(await ledgerOf(u)).toEqual([]);
    const refused = await auditsBy(admin, 'wallet.adjust.refused');
    expect(refused.map((r) => (r.after as { code: string; amountCents: number }).amountCents).sort()).toEqual([-500_01, 500_01]);

    const res = await adjust(owner, u, 5_000_00, 'big make-good');
    expect(res.status).toBe(200);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(5_000_00);
  });

  it('the hard maximum binds everyone, checked by zod', async () => {
    const owner = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    for (const amount of [10_000_01, 1_000_000_00, -10_000_01]) {
      const res = await adjust(owner, u, amount);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('validation_failed');
    }
    expect((await adjust(owner, u, 10_000_00)).status).toBe(200);
  });

  it('the daily cap counts credits and debits across calls and users; the owner is not capped', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const owner = await t.makeUser({ role: 'owner' });
    const [a, b] = [await t.makeUser(), await t.makeUser()];
    expect((await adjust(admin, a, 500_00)).status).toBe(200);
    expect((await adjust(admin, b, 500_00)).status).toBe(200);
    expect((await adjust(admin, a, -400_00)).status).toBe(200);
    expect((await adjust(admin, b, 500_00)).status).toBe(200); // 1,900 so far
    const over = await adjust(admin, a, 100_01);
    expect(over.status).toBe(403);
    const err = await errorOf(over);
    expect(err.code).toBe('owner_required');
    expect(err.message).toContain('$100.00 left');
    expect((await adjust(admin, a, 100_00)).status).toBe(200); // exactly 2,000
    expect((await adjust(admin, a, 1)).status).toBe(403);
    expect((await getBalance(t.deps.db, a)).balanceCents).toBe(200_00);

    const view = (await (await t.as(admin).get('/api/admin/wallet/adjust-limits')).json()) as Record<string, unknown>;
    expect(view).toEqual({ singleLimitCents: 500_00, dailyLimitCents: 2_000_00, hardMaxCents: 10_000_00, usedTodayCents: 2_000_00, callerIsOwner: false });

    // Another admin has their own allowance; the owner none.
    const other = await t.makeUser({ role: 'admin' });
    expect((await adjust(other, a, 500_00)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await adjust(owner, a, 1_000_00)).status).toBe(200);

    // Adjustments older than 24 hours no longer count.
    await t.deps.db
      .update(auditLog)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(auditLog.actorId, admin), eq(auditLog.action, 'wallet.adjust')));
    expect((await adjust(admin, a, 500_00)).status).toBe(200);
  });

  it('card grants are held to the same limits, at the card’s value, and share the daily total', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const owner = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const dear = await makeCard(t, { classId: cls.id, valueCents: 600_00, stock: 3 });
    const fair = await makeCard(t, { classId: cls.id, valueCents: 450_00, stock: 10 });

    const refused = await t.as(admin).post('/api/admin/owned/grant', { cardId: dear.id, user: u, reason: 'stream prize' });
    expect(refused.status).toBe(403);
    const err = await errorOf(refused);
    expect(err.code).toBe('owner_required');
    expect(err.message).toMatch(/Ask the owner/);
    expect(await stockOf(t, dear.id)).toBe(3);
    expect(await t.deps.db.select().from(ownedCards).where(eq(ownedCards.ownerId, u))).toEqual([]);
    expect(await auditsBy(admin, 'owned.grant.refused')).toHaveLength(1);
    expect((await t.as(owner).post('/api/admin/owned/grant', { cardId: dear.id, user: u, reason: 'stream prize' })).status).toBe(201);

    // $450 × 4 = $1,800 granted, then a $300 adjustment would pass $2,000.
    for (let i = 0; i < 4; i++) {
      expect((await t.as(admin).post('/api/admin/owned/grant', { cardId: fair.id, user: u, reason: `prize ${i}` })).status).toBe(201);
    }
    expect((await adjust(admin, u, 300_00)).status).toBe(403);
    expect((await adjust(admin, u, 200_00)).status).toBe(200);
    expect((await t.as(admin).post('/api/admin/owned/grant', { cardId: fair.id, user: u, reason: 'one more' })).status).toBe(403);
    expect(await stockOf(t, fair.id)).toBe(6);
  });

  it('parallel adjustments by one admin never pass the daily cap together', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const users = await Promise.all(Array.from({ length: 4 }, () => t.makeUser()));
    // 12 × $300 = $3,600 asked at once: at most 6 ($1,800) fit under $2,000.
    const res = await Promise.all(Array.from({ length: 12 }, (_, i) => adjust(admin, users[i % 4]!, 300_00, `parallel ${i}`)));
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 403)).toHaveLength(6);
    let total = 0;
    for (const u of users) total += (await getBalance(t.deps.db, u)).balanceCents;
    expect(total).toBe(1_800_00);
    expect(await auditsBy(admin, 'wallet.adjust')).toHaveLength(6);
    expect(await auditsBy(admin, 'wallet.adjust.refused')).toHaveLength(6);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
  });
});

describe('adjustment limit settings', () => {
  it('only the owner changes them (validated, audited); admins read them and are bound by them', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const owner = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();

    const denied = await t.as(admin).put('/api/admin/wallet/adjust-limits', { singleLimitCents: 5_000_00, dailyLimitCents: 10_000_00 });
    expect(denied.status).toBe(403);
    expect((await errorOf(denied)).code).toBe('owner_role_required');
    expect(await t.deps.db.select().from(appSettings).where(eq(appSettings.key, ADJUST_LIMITS_KEY))).toEqual([]);

    for (const bad of [
      { singleLimitCents: 0, dailyLimitCents: 100 },
      { singleLimitCents: 10_000_01, dailyLimitCents: 20_000_00 },
      { singleLimitCents: 500_00, dailyLimitCents: 100_00 },
      { singleLimitCents: 1.5, dailyLimitCents: 100_00 },
      { singleLimitCents: 100 },
      { singleLimitCents: 100, dailyLimitCents: 200, extra: true },
    ]) {
      const res = await t.as(owner).put('/api/admin/wallet/adjust-limits', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await t.deps.db.select().from(appSettings).where(eq(appSettings.key, ADJUST_LIMITS_KEY))).toEqual([]);

    const ok = await t.as(owner).put('/api/admin/wallet/adjust-limits', { singleLimitCents: 50_00, dailyLimitCents: 80_00 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ singleLimitCents: 50_00, dailyLimitCents: 80_00, callerIsOwner: true });
    const [row] = await auditsBy(owner, 'wallet.adjust_limits.update');
    expect(row).toMatchObject({
      before: { singleLimitCents: 500_00, dailyLimitCents: 2_000_00 },
      after: { singleLimitCents: 50_00, dailyLimitCents: 80_00 },
    });
    expect(await (await t.as(admin).get('/api/admin/wallet/adjust-limits')).json()).toMatchObject({ singleLimitCents: 50_00, dailyLimitCents: 80_00 });

    expect((await adjust(admin, u, 50_01)).status).toBe(403);
    expect((await adjust(admin, u, 50_00)).status).toBe(200);
    expect((await adjust(admin, u, 30_01)).status).toBe(403);
    expect((await adjust(admin, u, 30_00)).status).toBe(200);

    // Back to the defaults so the other tests' numbers hold whatever the order.
    await t.deps.db.delete(appSettings).where(eq(appSettings.key, ADJUST_LIMITS_KEY));
    // Written behind the settings cache's back: re-read it (as its periodic re-read would).
    await processSettings().reload(ADJUST_LIMITS_KEY);
    expect(await t.deps.db.select().from(auditLog).where(like(auditLog.action, 'wallet.adjust_limits%'))).toHaveLength(1);
  });
});
