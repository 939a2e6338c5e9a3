import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../shared/contracts/settings.ts';
import type { AdminPackDetail, PackSlot } from '../../../shared/contracts/shop.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { packs, products } from '../../db/schema/shop.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { liveProduct, makeCatalog, slots } from './test-support.ts';

/**
 * ADR 0024, pack prices and odds: a non-owner admin's change that leaves a product live stays
 * within the owner's `shop.returnLimits` (by default: a pack promises back at most 100% of its
 * price at card value, and a live price falls at most 25% in 24 hours); beyond it, 403
 * owner_required with the bound on the field, nothing changes, and the refusal is audited. The
 * owner's own changes pass.
 */

let t: MoneyTestContext;
let owner: string;
let admin: string;
let cat: Awaited<ReturnType<typeof makeCatalog>>;

beforeAll(async () => {
  t = await moneyTestContext();
  owner = await t.makeUser({ role: 'owner' });
  admin = await t.makeUser({ role: 'admin' });
  cat = await makeCatalog(t, [
    { name: 'Plain', cards: [{ value: 100, stock: 50 }] },
    { name: 'Top', cards: [{ value: 10_000, stock: 5 }] },
  ]);
});
afterAll(() => t.close());

type ApiError = { error: { code: string; message: string; fields?: Record<string, string[]> } };
const errorOf = async (res: Response) => ((await res.json()) as ApiError).error;

/** One card: Plain (worth $1) with `topWeight` in 100 for Top (worth $100). */
const odds = (topWeight: number): PackSlot[] =>
  slots(1, [
    { classId: cat.classes.Plain!, weight: 100 - topWeight },
    { classId: cat.classes.Top!, weight: topWeight },
  ]);

let seq = 0;
/** A live product made by the owner: $4.00, EV $1.99 (1% Top), about 50% back. */
async function ownersProduct(priceCents = 400) {
  return liveProduct(t, owner, { name: `Bounded ${++seq}`, priceCents, slots: odds(1) });
}

const priceOf = async (id: string) => (await t.deps.db.select().from(products).where(eq(products.id, id)))[0]!;
const refused = (action: string, targetId: string) =>
  t.deps.db.select().from(auditLog).where(and(eq(auditLog.actorId, admin), eq(auditLog.action, `${action}.refused`), eq(auditLog.targetId, targetId)));

describe('pack prices and odds are bounded by the owner (shop.returnLimits)', () => {
  it('is an owner-only setting with the documented defaults', () => {
    expect(SETTINGS['shop.returnLimits']).toMatchObject({ ownerOnly: true, default: { maxReturnBp: 10_000, maxPriceCutBp: 2_500 } });
  });

  it('an admin’s price cut beyond the bound is refused with the bound on the field, and nothing changes', async () => {
    const { productId } = await ownersProduct();
    const res = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 250, name: 'Renamed too' });
    expect(res.status).toBe(403);
    const err = await errorOf(res);
    expect(err.code).toBe('owner_required');
    expect(err.message).toMatch(/at most 25% in 24 hours/);
    expect(err.fields?.priceCents?.[0]).toMatch(/At least \$3\.00 without the owner/);
    expect(await priceOf(productId)).toMatchObject({ priceCents: 400, status: 'live', name: expect.stringMatching(/^Bounded/) });
    expect(await refused('product.update', productId)).toHaveLength(1);
  });

  it('an admin’s change within the bound passes; steps cannot add up past it, nor a detour through draft', async () => {
    const { productId } = await ownersProduct();
    // 20% off: within 25%.
    const ok = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 320 });
    expect(ok.status).toBe(200);
    expect((await priceOf(productId)).priceCents).toBe(320);
    // A second step is measured from the highest live price of the day ($4.00): $2.90 is 27.5% off.
    const step = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 290 });
    expect(step.status).toBe(403);
    expect((await errorOf(step)).fields?.priceCents?.[0]).toMatch(/\$3\.00/);
    // Off sale, cheaper, back on sale: going live is checked against the same peak.
    expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'draft' })).status).toBe(200);
    expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 200 })).status).toBe(200);
    const back = await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'live' });
    expect(back.status).toBe(403);
    expect((await errorOf(back)).code).toBe('owner_required');
    expect(await priceOf(productId)).toMatchObject({ priceCents: 200, status: 'draft' });
    // A raise, and edits that touch neither price nor odds, are never bounded.
    expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 380, status: 'live' })).status).toBe(200);
    expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { description: 'Now with words.' })).status).toBe(200);
  });

  it('the owner’s cuts and odds pass, even far beyond the bound', async () => {
    const { productId, setSlots } = await ownersProduct();
    expect((await t.as(owner).patch(`/api/admin/products/${productId}`, { priceCents: 100 })).status).toBe(200);
    expect((await priceOf(productId)).priceCents).toBe(100);
    expect((await setSlots(odds(50))).status).toBe(200);
  });

  it('an admin’s odds change that pushes EV / price above the cap is refused; one within it passes', async () => {
    const { productId, packId } = await ownersProduct();
    const slotsBefore = (await t.deps.db.select().from(packs).where(eq(packs.id, packId)))[0]!.slots;
    // 10% Top: EV $10.90 on a $4.00 pack (272.5%).
    const res = await t.as(admin).put(`/api/admin/packs/${packId}`, { name: 'Generous', slots: odds(10), pool: { mode: 'classes' } });
    expect(res.status).toBe(403);
    const err = await errorOf(res);
    expect(err.code).toBe('owner_required');
    expect(err.fields?.slots?.[0]).toMatch(/promise back 272\.5% of the price .* at most 100% without the owner/);
    expect((await t.deps.db.select().from(packs).where(eq(packs.id, packId)))[0]!.slots).toEqual(slotsBefore);
    expect(await refused('pack.update', packId)).toHaveLength(1);
    // 2% Top: EV $2.98 on $4.00 (75%).
    const ok = await t.as(admin).put(`/api/admin/packs/${packId}`, { name: 'Fair', slots: odds(2), pool: { mode: 'classes' } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as AdminPackDetail).stats.expectedValueCents).toBe(298);
    // A price cut within 25% that would promise more than the price back is refused on the price.
    const cut = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 310 });
    expect(cut.status).toBe(200);
    const under = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 300 });
    expect(under.status).toBe(200);
    expect((await t.as(owner).put(`/api/admin/packs/${packId}`, { name: 'Fair', slots: odds(3), pool: { mode: 'classes' } })).status).toBe(200);
    // EV is now $3.97 on $3.00: a further admin step (within 25% of the day's peak) is refused.
    const over = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 301 });
    expect(over.status).toBe(200); // a raise lowers what it promises: always allowed
    const worse = await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 300 });
    expect(worse.status).toBe(403);
    expect((await errorOf(worse)).fields?.priceCents?.[0]).toMatch(/At least \$3\.97 without the owner/);
  });

  it('creating a live product whose pack promises more than its price needs the owner', async () => {
    const { packId } = await ownersProduct();
    await t.as(owner).put(`/api/admin/packs/${packId}`, { name: 'Rich', slots: odds(10), pool: { mode: 'classes' } });
    const name = `Cheap copy ${++seq}`;
    const res = await t.as(admin).post('/api/admin/products', { name, priceCents: 500, status: 'live', packId });
    expect(res.status).toBe(403);
    const err = await errorOf(res);
    expect(err.code).toBe('owner_required');
    expect(err.fields?.priceCents?.[0]).toMatch(/At least \$10\.90 without the owner/);
    expect(await t.deps.db.select().from(products).where(eq(products.name, name))).toEqual([]);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.actorId, admin), eq(auditLog.action, 'product.create.refused')));
    expect(audits.length).toBeGreaterThan(0);
    // At a price above what it gives back, or as a draft, an admin may.
    expect((await t.as(admin).post('/api/admin/products', { name: `${name} fair`, priceCents: 1_200, status: 'live', packId })).status).toBe(201);
    expect((await t.as(admin).post('/api/admin/products', { name: `${name} draft`, priceCents: 500, packId })).status).toBe(201);
    expect((await t.as(owner).post('/api/admin/products', { name: `${name} owner`, priceCents: 500, status: 'live', packId })).status).toBe(201);
  });

  it('follows the owner’s setting', async () => {
    const { productId } = await ownersProduct(1_000);
    const put = await t.as(owner).put('/api/admin/settings/shop.returnLimits', { value: { maxReturnBp: 10_000, maxPriceCutBp: 6_000 } });
    expect(put.status).toBe(200);
    try {
      expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 450 })).status).toBe(200);
      expect((await t.as(admin).put('/api/admin/settings/shop.returnLimits', { value: { maxReturnBp: 20_000, maxPriceCutBp: 10_000 } })).status).toBe(403);
    } finally {
      await t.as(owner).put('/api/admin/settings/shop.returnLimits', { value: SETTINGS['shop.returnLimits'].default });
    }
  });
});
