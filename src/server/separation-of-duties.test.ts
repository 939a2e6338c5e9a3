import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS, SETTING_KEYS } from '../shared/contracts/settings.ts';
import type { ValueProposalList } from '../shared/contracts/value-proposals.ts';
import { auditLog } from './db/schema/audit.ts';
import { cards } from './db/schema/catalog.ts';
import { promoCodes } from './db/schema/promo.ts';
import { referrals } from './db/schema/referrals.ts';
import { giveCards, makeCard, makeClass } from './modules/buyback/test-support.ts';
import { addAddress, fund, shipOk } from './modules/shipping/test-support.ts';
import { createDrop, dropInput } from './modules/drops/test-support.ts';
import { liveProduct } from './modules/shop/test-support.ts';
import { getBalance } from './modules/wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from './modules/wallet/test-support.ts';

/**
 * Issue 39 item 1, ADR 0024: no staff member gains from their own admin action, by any path.
 * The five attacks of the second outside review, then a walk over every admin route that writes:
 * each is classified here (a new one fails until it is), and each that moves money, value or stock
 * is probed as a plain admin (role admin, second factor passed) against their own account and an
 * account they referred. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */

let t: MoneyTestContext;
let owner: string;
beforeAll(async () => {
  t = await moneyTestContext();
  owner = await t.makeUser({ role: 'owner' });
});
afterAll(() => t.close());

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; fields?: Record<string, string[]> } }).error;
const balance = async (id: string) => (await getBalance(t.deps.db, id)).balanceCents;
const refusedAudits = (actorId: string, action: string) =>
  t.deps.db.select().from(auditLog).where(and(eq(auditLog.actorId, actorId), eq(auditLog.action, `${action}.refused`)));

/** A plain admin and an account they referred (made before they were staff, or a sock puppet). */
async function adminWithPuppet() {
  const admin = await t.makeUser({ role: 'admin' });
  const puppet = await t.makeUser();
  await t.deps.db.insert(referrals).values({ referrerId: admin, refereeId: puppet, code: `C${randomUUID().slice(0, 8)}`, status: 'rejected', reason: 'test link' });
  return { admin, puppet };
}

const sell = (who: string, ownedCardIds: string[]) => t.as(who).post('/api/buyback', { ownedCardIds }, idem());
const valueOf = async (cardId: string) => (await t.deps.db.select({ v: cards.valueCents }).from(cards).where(eq(cards.id, cardId)))[0]!.v;

describe('the five attacks of the review', () => {
  it('High: raising a card to $1,000,000 and selling one’s own copy back pays on the value in effect, not the proposal', async () => {
    const { admin, puppet } = await adminWithPuppet();
    const collector = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 10 });
    const [mine1, mine2] = await giveCards(t, admin, card.id, 2);
    const [theirs] = await giveCards(t, puppet, card.id, 1);
    const [collectors] = await giveCards(t, collector, card.id, 1);

    const patch = await t.as(admin).patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 100_000_000 });
    expect(patch.status).toBe(200);
    const body = (await patch.json()) as { card: { valueCents: number }; valueProposal?: { id: string; toCents: number; message: string } };
    expect(body.card.valueCents).toBe(1000);
    expect(body.valueProposal).toMatchObject({ toCents: 100_000_000, message: expect.stringMatching(/waits for the owner/) });
    expect(await valueOf(card.id)).toBe(1000);

    // The sale pays 85% of the value in effect ($10), not of the proposal.
    const sold = await sell(admin, [mine1!]);
    expect(sold.status).toBe(201);
    expect(await balance(admin)).toBe(850);

    // The admin can't approve it; it waits in the owner's queue.
    const list = (await (await t.as(admin).get('/api/admin/catalog/value-proposals')).json()) as ValueProposalList;
    const p = list.items.find((i) => i.cardId === card.id)!;
    expect(p).toMatchObject({ status: 'pending', fromCents: 1000, toCents: 100_000_000, proposedBy: admin, copiesInVaults: 3 });
    expect(list.callerIsOwner).toBe(false);
    const selfApprove = await t.as(admin).post(`/api/admin/catalog/value-proposals/${p.id}/approve`);
    expect(selfApprove.status).toBe(403);
    expect(await valueOf(card.id)).toBe(1000);

    // Should the owner approve it, staff and the accounts they referred are still paid on the
    // value their copy came with; a collector is paid today's value.
    const ok = await t.as(owner).post(`/api/admin/catalog/value-proposals/${p.id}/approve`);
    expect(ok.status).toBe(200);
    expect(await valueOf(card.id)).toBe(100_000_000);
    expect((await sell(admin, [mine2!])).status).toBe(201);
    expect(await balance(admin)).toBe(1700);
    expect((await sell(puppet, [theirs!])).status).toBe(201);
    expect(await balance(puppet)).toBe(850);
    expect((await sell(collector, [collectors!])).status).toBe(201);
    expect(await balance(collector)).toBe(85_000_000);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.targetId, card.id), eq(auditLog.action, 'catalog.value_proposal.approve')));
    expect(audits).toHaveLength(1);
    await ledgerInvariants(t);
  });

  it('a change within the owner’s daily bound takes effect; more than the bound over 24 hours is held; the owner’s own edit applies and supersedes', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 10_000, stock: 1 });
    // Default bound: 25% and $250 of the value 24 hours ago ($100 → at most $125).
    const a = await t.as(admin).patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 12_000 });
    expect(((await a.json()) as { valueProposal?: unknown }).valueProposal).toBeUndefined();
    expect(await valueOf(card.id)).toBe(12_000);
    // Two steps can't add up past the bound: 10,000 → 12,000 → 13,000 is 30% in a day.
    const b = await t.as(admin).patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 13_000 });
    expect(((await b.json()) as { valueProposal?: unknown }).valueProposal).toBeDefined();
    expect(await valueOf(card.id)).toBe(12_000);
    // Lowering beyond the bound is held too (a collector's buyback is not cut by one admin).
    await t.as(admin).patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 10 });
    expect(await valueOf(card.id)).toBe(12_000);
    const pending = (await (await t.as(owner).get('/api/admin/catalog/value-proposals')).json()) as ValueProposalList;
    expect(pending.items.filter((i) => i.cardId === card.id)).toHaveLength(1); // the newer one superseded the first
    // The owner sets a value directly: it applies and the pending proposal is superseded.
    await t.as(owner).patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 50_000 });
    expect(await valueOf(card.id)).toBe(50_000);
    const after = (await (await t.as(owner).get('/api/admin/catalog/value-proposals')).json()) as ValueProposalList;
    expect(after.items.filter((i) => i.cardId === card.id)).toHaveLength(0);
    // Reject: the value stays, the note is kept.
    await t.as(admin).patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 5_000_000 });
    const held = ((await (await t.as(owner).get('/api/admin/catalog/value-proposals')).json()) as ValueProposalList).items.find((i) => i.cardId === card.id)!;
    const rej = await t.as(owner).post(`/api/admin/catalog/value-proposals/${held.id}/reject`, { note: 'No sale supports this.' });
    expect(rej.status).toBe(200);
    expect(await rej.json()).toMatchObject({ status: 'rejected', decisionNote: 'No sale supports this.', decidedBy: owner });
    expect(await valueOf(card.id)).toBe(50_000);
    expect((await t.as(owner).post(`/api/admin/catalog/value-proposals/${held.id}/approve`)).status).toBe(409);
  });

  it('Medium: a $100,000 credit code needs the owner; no staff account, nor one a code’s maker referred, redeems', async () => {
    const { admin, puppet } = await adminWithPuppet();
    const code = `BIG${randomUUID().slice(0, 6).toUpperCase()}`;
    const big = await t.as(admin).post('/api/admin/promo', { code, kind: 'credit', amountCents: 10_000_000, totalLimit: 1 });
    expect(big.status).toBe(403);
    expect((await errorOf(big)).code).toBe('owner_required');
    expect(await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, code))).toEqual([]);
    expect(await refusedAudits(admin, 'promo.create')).toHaveLength(1);
    // No total limit is no bound: the owner's too.
    const endless = await t.as(admin).post('/api/admin/promo', { code: `${code}X`, kind: 'credit', amountCents: 500 });
    expect((await errorOf(endless)).fields).toHaveProperty('totalLimit');

    // A small code within the limits: the maker and their referred account can't redeem it.
    const small = `SM${randomUUID().slice(0, 6).toUpperCase()}`;
    expect((await t.as(admin).post('/api/admin/promo', { code: small, kind: 'credit', amountCents: 2_000, totalLimit: 5 })).status).toBe(201);
    const r1 = await t.as(puppet).post('/api/wallet/promo/redeem', { code: small }, idem());
    expect(r1.status).toBe(403);
    expect((await errorOf(r1)).code).toBe('promo_own_code');
    const otherAdmin = await t.makeUser({ role: 'admin' });
    const r2 = await t.as(otherAdmin).post('/api/wallet/promo/redeem', { code: small }, idem());
    expect((await errorOf(r2)).code).toBe('promo_staff');
    expect(await balance(puppet)).toBe(0);
    expect(await balance(otherAdmin)).toBe(0);
    // Raising it past the cap afterwards needs the owner too.
    const [row] = await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, small));
    expect((await t.as(admin).patch(`/api/admin/promo/${row!.id}`, { amountCents: 10_000_000 })).status).toBe(403);
    const customer = await t.makeUser();
    expect((await t.as(customer).post('/api/wallet/promo/redeem', { code: small }, idem())).status).toBe(200);
    expect(await balance(customer)).toBe(2_000);
  });

  it('Medium: referral rewards are the owner’s; staff can’t refer a sock puppet, and a referral never pays a staff account', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const before = SETTINGS['referrals.settings'].default;
    const raised = { ...before, referrerRewardCents: 100_000, refereeRewardCents: 100_000 };
    for (const res of [await t.as(admin).put('/api/admin/settings/referrals.settings', { value: raised }), await t.as(admin).put('/api/admin/referrals/settings', raised)]) {
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('owner_role_required');
    }
    const { code } = (await (await t.as(admin).get('/api/referrals/me')).json()) as { code: string };
    const puppet = await t.makeUser();
    const claim = await t.as(puppet).post('/api/referrals/claim', { code });
    expect(claim.status).toBe(403);
    expect((await errorOf(claim)).code).toBe('referral_staff');
    expect(await t.deps.db.select().from(referrals).where(eq(referrals.referrerId, admin))).toEqual([]);
    // A staff member can't be referred either.
    const friend = await t.makeUser();
    const friendCode = ((await (await t.as(friend).get('/api/referrals/me')).json()) as { code: string }).code;
    expect((await errorOf(await t.as(admin).post('/api/referrals/claim', { code: friendCode }))).code).toBe('referral_staff');
  });

  it('Low: an admin can’t resolve their own (or a referred account’s) insured shipment as lost with a refund', async () => {
    const { admin, puppet } = await adminWithPuppet();
    const other = await t.makeUser({ role: 'admin' });
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 2000, stock: 10 });
    for (const who of [admin, puppet]) {
      await fund(t, who, 10_000);
      const address = await addAddress(t, who);
      const owned = await giveCards(t, who, card.id, 2);
      const { shipment } = await shipOk(t, who, { ownedCardIds: owned, addressId: address.id, insured: true });
      for (const [path, body] of [
        ['advance', { to: 'packing' }],
        ['cancel', { reason: 'my own' }],
      ] as const) {
        const res = await t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/${path}`, body);
        expect(res.status, path).toBe(403);
        expect((await errorOf(res)).code).toBe('self_dealing');
      }
      const bulk = (await (await t.as(admin).post('/api/admin/shipping/shipments/bulk-advance', { ids: [shipment.id], to: 'packing' })).json()) as { results: Array<{ error: { code: string } | null }> };
      expect(bulk.results[0]!.error?.code).toBe('self_dealing');
      // Another admin ships it; the admin then tries to call it lost.
      await t.as(other).post(`/api/admin/shipping/shipments/${shipment.id}/advance`, { to: 'packing' });
      await t.as(other).post(`/api/admin/shipping/shipments/${shipment.id}/advance`, { to: 'shipped', carrier: 'dhl', trackingNumber: 'JD014600003828' });
      const paid = await balance(who);
      const lost = await t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/resolve`, { outcome: 'lost', resolution: 'refund', reason: 'lost, honest' });
      expect(lost.status).toBe(403);
      expect((await errorOf(lost)).code).toBe('self_dealing');
      expect(await balance(who)).toBe(paid);
    }
    expect(await refusedAudits(admin, 'shipment.lost')).toHaveLength(2);
    expect(await refusedAudits(admin, 'shipment.cancel')).toHaveLength(2);
  });

  it('Low: the support email (and the site name) are the owner’s', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const res = await t.as(admin).put('/api/admin/settings/site.identity', { value: { siteName: 'Packvault', supportEmail: 'me@evil.example' } });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('owner_role_required');
    expect(await (await t.request('/api/config')).json()).toMatchObject({ supportEmail: SETTINGS['site.identity'].default.supportEmail });
    expect(await refusedAudits(admin, 'settings.update')).toHaveLength(1);
  });
});

/**
 * Every admin route that writes, classified. `probe` routes move money, value or stock and are
 * exercised below against the acting admin's own account and an account they referred; `none`
 * routes move nothing of value to anyone (with why). A route missing here fails the walk.
 */
const ROUTES: Record<string, { probe: string } | { none: string }> = {
  'POST /api/admin/users/:id/balance/adjust': { probe: 'adjust' },
  'PUT /api/admin/wallet/adjust-limits': { probe: 'owner-only' },
  'POST /api/admin/owned/grant': { probe: 'grant' },
  'POST /api/admin/owned/:id/revoke': { probe: 'revoke' },
  'POST /api/admin/market/listings/:id/remove': {
    none: 'ends a listing: the copy goes back to its owner and held offers to their buyers; refused on staff’s own, referred or competing listings (market/admin.test.ts)',
  },
  'PUT /api/admin/settings/:key': { probe: 'settings' },
  'POST /api/admin/vault/snapshots': { none: 'signs a snapshot of what the shop holds (owner only); nothing moves' },
  'PUT /api/admin/buyback/rates': { probe: 'owner-only' },
  'PUT /api/admin/referrals/settings': { probe: 'owner-only' },
  'PUT /api/admin/shipping/settings': { probe: 'owner-only' },
  'POST /api/admin/referrals/:id/void': { none: 'only takes rewards back (a clawback never credits anyone)' },
  'POST /api/admin/promo': { probe: 'promo' },
  'PATCH /api/admin/promo/:id': { probe: 'promo' },
  'POST /api/admin/shipping/shipments/bulk-advance': { probe: 'attacks: own shipments' },
  'POST /api/admin/shipping/shipments/:id/advance': { probe: 'attacks: own shipments' },
  'POST /api/admin/shipping/shipments/:id/cancel': { probe: 'attacks: own shipments' },
  'POST /api/admin/shipping/shipments/:id/resolve': { probe: 'attacks: own shipments' },
  'POST /api/admin/shipping/pick-list/:id': { none: 'a picked check-off; no money, card or stock moves' },
  'POST /api/admin/shipping/origins': { none: 'a warehouse address' },
  'PATCH /api/admin/shipping/origins/:id': { none: 'a warehouse address' },
  'POST /api/admin/shipping/origins/:id/default': { none: 'which warehouse is the default' },
  'PUT /api/admin/shipping/cards/:id/location': { none: 'a shelf location' },
  'POST /api/admin/catalog/cards': { probe: 'new card value' },
  'PATCH /api/admin/catalog/cards/:id': { probe: 'attacks: value' },
  'POST /api/admin/catalog/cards/import': { probe: 'import' },
  'POST /api/admin/catalog/cards/:id/stock': { none: 'shop stock only: no one’s balance or vault changes (the inventory logs it)' },
  'POST /api/admin/catalog/cards/:id/slabs': { none: 'adds graded copies to shop stock, each with its certificate: no one’s balance or vault changes' },
  'PATCH /api/admin/catalog/cards/:id/slabs/:slabId': { none: 'a slab’s certificate and photos (a held slab returns to shop stock)' },
  'DELETE /api/admin/catalog/cards/:id/slabs/:slabId': { none: 'takes an in-stock slab out of the shop' },
  'POST /api/admin/catalog/cards/:id/archive': { none: 'takes a card off sale' },
  'POST /api/admin/catalog/cards/:id/restore': { none: 'restores an archived card as inactive' },
  'DELETE /api/admin/catalog/cards/:id': { none: 'only a card with no stock and no references' },
  'POST /api/admin/catalog/classes': { probe: 'class rate' },
  'PATCH /api/admin/catalog/classes/:id': { probe: 'class rate' },
  'DELETE /api/admin/catalog/classes/:id': { none: 'only an unused class' },
  'POST /api/admin/catalog/classes/:id/archive': { none: 'looks and listing only' },
  'POST /api/admin/catalog/classes/:id/restore': { none: 'looks and listing only' },
  'POST /api/admin/catalog/textures': { none: 'card looks' },
  'PATCH /api/admin/catalog/textures/:id': { none: 'card looks' },
  'DELETE /api/admin/catalog/textures/:id': { none: 'card looks' },
  'POST /api/admin/catalog/textures/:id/archive': { none: 'card looks' },
  'POST /api/admin/catalog/textures/:id/restore': { none: 'card looks' },
  'POST /api/admin/catalog/architects': { none: 'card frames' },
  'PATCH /api/admin/catalog/architects/:id': { none: 'card frames' },
  'DELETE /api/admin/catalog/architects/:id': { none: 'card frames' },
  'POST /api/admin/catalog/architects/:id/archive': { none: 'card frames' },
  'POST /api/admin/catalog/architects/:id/restore': { none: 'card frames' },
  'POST /api/admin/catalog/value-proposals/:id/approve': { probe: 'owner-only' },
  'POST /api/admin/catalog/value-proposals/:id/reject': { probe: 'owner-only' },
  'POST /api/admin/uploads': { none: 'an image file' },
  'POST /api/admin/drops': { probe: 'drops' },
  'PATCH /api/admin/drops/:id': { probe: 'drops' },
  'POST /api/admin/drops/:id/cancel': { probe: 'drops' },
  'POST /api/admin/drop-templates': { none: 'schedules drops, which the same entry rules bind (staff and accounts they referred never enter)' },
  'PATCH /api/admin/drop-templates/:id': { none: 'as above' },
  'DELETE /api/admin/drop-templates/:id': { none: 'as above' },
  'POST /api/admin/users/:id/ban': { none: 'access only' },
  'POST /api/admin/users/:id/unban': { none: 'access only' },
  'POST /api/admin/users/:id/reset-two-factor': { none: 'access only' },
  'POST /api/admin/reset-password': { none: 'access only' },
  'POST /api/admin/admins/promote': { none: 'owner only (requireOwner); roles, no money' },
  'POST /api/admin/admins/:id/demote': { none: 'owner only (requireOwner); roles, no money' },
  'PUT /api/admin/maintenance': { none: 'owner only; availability' },
  'POST /api/admin/products': { probe: 'pack price and odds' },
  'PATCH /api/admin/products/:id': { probe: 'pack price and odds' },
  'DELETE /api/admin/products/:id': { none: 'only a product never sold' },
  'PUT /api/admin/packs/:id': { probe: 'pack price and odds' },
  'POST /api/admin/packs/preview': { none: 'a read: computes odds, writes nothing' },
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('every admin route that writes', () => {
  it('is classified here (a new route fails until it is), and every classified route exists', () => {
    const keys = new Set<string>();
    for (const r of t.app.routes) if (r.path.startsWith('/api/admin/') && UNSAFE.has(r.method)) keys.add(`${r.method} ${r.path}`);
    expect([...keys].filter((k) => !(k in ROUTES)).sort()).toEqual([]);
    expect(Object.keys(ROUTES).filter((k) => !keys.has(k)).sort()).toEqual([]);
  });

  it('owner-only routes refuse a plain admin', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const calls: Array<[string, string, unknown]> = [
      ['PUT', '/api/admin/wallet/adjust-limits', { singleLimitCents: 100_000_000, dailyLimitCents: 100_000_000 }],
      ['PUT', '/api/admin/buyback/rates', { defaultRateBp: 10_000, classes: [] }],
      ['PUT', '/api/admin/referrals/settings', { ...SETTINGS['referrals.settings'].default, referrerRewardCents: 100_000 }],
      ['PUT', '/api/admin/shipping/settings', { ...SETTINGS['shipping.settings'].default, insuranceRateBp: 0 }],
      ['POST', `/api/admin/catalog/value-proposals/${randomUUID()}/approve`, {}],
      ['POST', `/api/admin/catalog/value-proposals/${randomUUID()}/reject`, { note: 'not mine to say' }],
    ];
    for (const [method, path, json] of calls) {
      const res = await t.request(path, { method, json, headers: { 'x-test-user': admin } });
      expect(res.status, path).toBe(403);
      expect((await errorOf(res)).code, path).toBe('owner_role_required');
    }
  });

  it('settings: every key that creates or moves money, and the site identity, is owner-only', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    for (const k of SETTING_KEYS) {
      const moneyOrIdentity = k !== 'pulls.thresholds';
      expect('ownerOnly' in SETTINGS[k] && SETTINGS[k].ownerOnly === true, k).toBe(moneyOrIdentity);
      if (!moneyOrIdentity) continue;
      const res = await t.as(admin).put(`/api/admin/settings/${k}`, { value: SETTINGS[k].default });
      expect(res.status, k).toBe(403);
    }
  });

  it('adjust, grant and revoke: never on one’s own account nor one they referred', async () => {
    const { admin, puppet } = await adminWithPuppet();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 5 });
    for (const who of [admin, puppet]) {
      const adj = await t.as(admin).post(`/api/admin/users/${who}/balance/adjust`, { amountCents: 100, reason: 'bonus' }, idem());
      expect((await errorOf(adj)).code).toBe('self_dealing');
      const grant = await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: who, reason: 'a treat' });
      expect((await errorOf(grant)).code).toBe('self_dealing');
      const [copy] = await giveCards(t, who, card.id, 1);
      const revoke = await t.as(admin).post(`/api/admin/owned/${copy}/revoke`, { reason: 'take it' });
      expect((await errorOf(revoke)).code).toBe('self_dealing');
      expect(await balance(who)).toBe(0);
    }
  });

  it('promo: above the owner’s limits needs the owner (create and edit)', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const limits = SETTINGS['promo.limits'].default;
    const over = await t.as(admin).post('/api/admin/promo', { code: `P${randomUUID().slice(0, 7)}`, kind: 'deposit_bonus', bonusPercent: 100, bonusCapCents: limits.maxPerRedemptionCents + 1, totalLimit: 1 });
    expect((await errorOf(over)).code).toBe('owner_required');
    const total = await t.as(admin).post('/api/admin/promo', { code: `P${randomUUID().slice(0, 7)}`, kind: 'credit', amountCents: limits.maxPerRedemptionCents, totalLimit: Math.floor(limits.maxTotalCents / limits.maxPerRedemptionCents) + 1 });
    expect((await errorOf(total)).code).toBe('owner_required');
    const ok = await t.as(owner).post('/api/admin/promo', { code: `P${randomUUID().slice(0, 7)}`, kind: 'credit', amountCents: 10_000_000, totalLimit: 1 });
    expect(ok.status).toBe(201);
    expect((await errorOf(await t.as(owner).post('/api/wallet/promo/redeem', { code: ((await ok.json()) as { promo: { code: string } }).promo.code }, idem()))).code).toBe('promo_staff');
  });

  it('catalog: a new card above the bound, a class rate and an import beyond the bound need the owner', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 0 });
    const base = { name: 'Big one', setName: 'SoD', number: 77, classId: cls.id, architectId: card.architectId, imageKey: card.imageKey, description: '', active: false, stock: 0 };
    const big = await t.as(admin).post('/api/admin/catalog/cards', { ...base, valueCents: SETTINGS['catalog.valueLimits'].default.newCardMaxCents + 1 });
    expect(big.status).toBe(403);
    expect((await errorOf(big)).fields).toHaveProperty('valueCents');
    expect(await refusedAudits(admin, 'catalog.card.create')).toHaveLength(1);

    const rate = await t.as(admin).patch(`/api/admin/catalog/classes/${cls.id}`, { buybackRateBp: 10_000 });
    expect((await errorOf(rate)).code).toBe('owner_role_required');
    const newClass = await t.as(admin).post('/api/admin/catalog/classes', { name: `C${randomUUID().slice(0, 6)}`, colour: '#112233', sortOrder: 1, buybackRateBp: 10_000 });
    expect((await errorOf(newClass)).code).toBe('owner_role_required');
    expect((await t.as(owner).patch(`/api/admin/catalog/classes/${cls.id}`, { buybackRateBp: 9_000 })).status).toBe(200);

    const exported = await (await t.as(admin).get('/api/admin/catalog/cards/export')).text();
    const [header] = exported.split(/\r?\n/);
    const row = exported.split(/\r?\n/).find((l) => l.includes(card.name))!;
    const raised = row.replace(/,10\.00,/, ',999999.00,');
    expect(raised).not.toBe(row);
    const imp = await t.as(admin).post('/api/admin/catalog/cards/import', { csv: `${header}\n${raised}\n`, dryRun: false });
    expect(imp.status).toBe(422);
    expect(((await imp.json()) as { errors: Array<{ field?: string }> }).errors[0]).toMatchObject({ field: 'value' });
    expect(await valueOf(card.id)).toBe(1000);
  });

  it('pack price and odds: beyond the owner’s bound needs the owner, and within it the admin’s own accounts buy at a loss', async () => {
    const { admin, puppet } = await adminWithPuppet();
    const plain = await makeClass(t);
    const top = await makeClass(t);
    const exact = await makeClass(t);
    await makeCard(t, { classId: plain.id, valueCents: 100, stock: 50 });
    await makeCard(t, { classId: top.id, valueCents: 100_000, stock: 5 });
    await makeCard(t, { classId: exact.id, valueCents: 400, stock: 5 });
    const oneSlot = (odds: Array<{ classId: string; weight: number }>) => [{ odds }];
    const { productId, packId } = await liveProduct(t, owner, { name: 'SoD pack', priceCents: 400, slots: oneSlot([{ classId: plain.id, weight: 99 }, { classId: top.id, weight: 1 }]) });
    const setOdds = (who: string, odds: Array<{ classId: string; weight: number }>) => t.as(who).put(`/api/admin/packs/${packId}`, { name: 'SoD pack', slots: oneSlot(odds), pool: { mode: 'classes' } });

    // The attack: a price of one cent, or odds that give the top card every time. Both refused.
    const cut = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 1 });
    expect(cut.status).toBe(403);
    expect((await errorOf(cut)).fields).toHaveProperty('priceCents');
    const rig = await setOdds(admin, [{ classId: top.id, weight: 1 }]);
    expect(rig.status).toBe(403);
    expect((await errorOf(rig)).fields).toHaveProperty('slots');
    const copy = await t.as(admin).post('/api/admin/products', { name: 'SoD copy', priceCents: 1, status: 'live', packId });
    expect((await errorOf(copy)).code).toBe('owner_required');
    expect(await refusedAudits(admin, 'product.update')).toHaveLength(1);
    expect(await refusedAudits(admin, 'pack.update')).toHaveLength(1);
    expect(await refusedAudits(admin, 'product.create')).toHaveLength(1);

    // The most an admin may do alone: a pack that gives back exactly its price at card value.
    // Bought and sold back by the admin's own accounts, it loses (a buyback pays at most the value).
    expect((await setOdds(admin, [{ classId: exact.id, weight: 1 }])).status).toBe(200);
    for (const who of [admin, puppet]) {
      await fund(t, who, 400);
      const opened = await t.as(who).post('/api/shop/open', { productId, quantity: 1 }, idem());
      expect(opened.status, await opened.clone().text()).toBe(201);
      const ids = ((await opened.json()) as { openings: Array<{ cards: Array<{ ownedCardId: string }> }> }).openings.flatMap((o) => o.cards.map((c) => c.ownedCardId));
      expect((await sell(who, ids)).status).toBe(201);
      expect(await balance(who)).toBeLessThan(400);
    }
    await ledgerInvariants(t);
  });

  it('drops: an account the admin referred can’t enter, and the admin can’t change a drop it entered', async () => {
    const { admin, puppet } = await adminWithPuppet();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 500, stock: 5 });
    const drop = await createDrop(t, owner, dropInput(card.id, { opensAt: new Date(Date.now() - 60_000).toISOString() }));
    const enter = await t.as(puppet).post(`/api/drops/${drop.id}/entries`);
    expect((await errorOf(enter)).code).toBe('staff_not_eligible');
    // One that entered before its referrer became staff: the admin can't touch that drop.
    const later = await t.makeUser();
    const entered = await t.as(later).post(`/api/drops/${drop.id}/entries`);
    expect(entered.status).toBeLessThan(300);
    await t.deps.db.insert(referrals).values({ referrerId: admin, refereeId: later, code: `C${randomUUID().slice(0, 8)}`, status: 'rejected', reason: 'test link' });
    for (const res of [await t.as(admin).patch(`/api/admin/drops/${drop.id}`, { title: 'mine now' }), await t.as(admin).post(`/api/admin/drops/${drop.id}/cancel`)]) {
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('self_dealing');
    }
    expect(await refusedAudits(admin, 'drop.update')).toHaveLength(1);
    expect(await refusedAudits(admin, 'drop.cancel')).toHaveLength(1);
  });
});
