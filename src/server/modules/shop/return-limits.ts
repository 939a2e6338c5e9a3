import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { ProductStatus } from '../../../shared/contracts/shop.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ActorCtx } from '../../http/types.ts';
import { ownerRequiredError, type StaffRole } from '../audit/duties.ts';
import { auditLog } from '../audit/tables.ts';
import { setting } from '../settings/store.ts';
import { packStats } from './odds.ts';
import { poolStats, type PackRow } from './read.ts';

/**
 * Separation of duties for pack prices and odds (ADR 0024). A staff member who could cut a live
 * pack's price, or move its odds toward the top card, could buy it and ship or sell back what it
 * gives. So a non-owner's change that leaves a product live is bound by the owner's
 * `shop.returnLimits`:
 *
 * - the promised return to player, the pack's expected value at card value over the price, may
 *   not go above `maxReturnBp` (unless the change lowers it: an admin may always make a pack
 *   that card values pushed over the bound less generous). At card value, not at the buyback
 *   rate: a pulled card can be shipped home and sold at its value, so the value is what a buyer
 *   takes away; and it holds whatever buyback rate the owner sets later.
 * - its price may fall at most `maxPriceCutBp` below the highest price it was live at in the
 *   last 24 hours (from the audit log, which every product write records in its transaction),
 *   so neither steps nor a detour through draft add up to a bigger cut.
 *
 * Beyond either, 403 owner_required with the bound on the field; the owner's own changes pass.
 * A held proposal like a card value's does not fit: a price and a pack's odds change together
 * with a product's other fields, and a held price would leave the live pack selling at the old
 * one with no clear "in effect" for a buyer; the admin asks the owner instead.
 */

export type ShopActor = ActorCtx & { role: StaffRole; currency: string };

/** The state of a product that decides what it promises: its price, status and its pack's EV. */
export interface ReturnState {
  priceCents: number;
  status: ProductStatus;
  /** Expected value of one pack at card value, as the pool stands (cents). */
  evCents: number;
}

/** 2500 → "25%", 27250 → "272.5%". */
const pct = (bp: number) => `${Number((bp / 100).toFixed(2))}%`;

/** The expected value of a pack at card value, from the same odds and pool the draw uses. */
export async function packExpectedValue(db: DbOrTx, pack: Pick<PackRow, 'slots' | 'pool'>): Promise<number> {
  const stats = (await poolStats(db, [{ id: 'pack', slots: pack.slots, pool: pack.pool }])).get('pack')!;
  return packStats(pack.slots, stats, null).expectedValueCents;
}

/** EV over price in basis points (rounded up, so a message never understates it). */
const returnBp = (s: ReturnState) => Math.ceil((s.evCents * 10_000) / s.priceCents);

/**
 * Refuses a non-owner's change after which a live product promises back more than the owner's
 * bound, unless it promised at least as much before. `field` is where the form shows why:
 * `priceCents` (a product's price, status or pack) or `slots` (a pack's odds).
 */
export function assertReturnWithinLimits(
  actor: Pick<ShopActor, 'role' | 'currency'>,
  product: { name: string },
  before: ReturnState | null,
  after: ReturnState,
  field: 'priceCents' | 'slots',
): void {
  if (actor.role === 'owner' || after.status !== 'live') return;
  const max = setting('shop.returnLimits').maxReturnBp;
  if (after.evCents * 10_000 <= max * after.priceCents) return;
  // No worse than it was (EV/price compared by cross-multiplying: no rounding).
  if (before?.status === 'live' && after.evCents * before.priceCents <= before.evCents * after.priceCents) return;
  const money = (c: number) => formatMoney(c, actor.currency);
  const promised = `“${product.name}” would promise back ${pct(returnBp(after))} of its price on average (expected value ${money(after.evCents)} at ${money(after.priceCents)})`;
  if (field === 'slots') {
    throw ownerRequiredError(`${promised}; admins may set at most ${pct(max)}. Ask the owner to make this change.`, {
      slots: [`These odds promise back ${pct(returnBp(after))} of the price of “${product.name}”; at most ${pct(max)} without the owner.`],
    });
  }
  const lowest = max === 0 ? null : Math.ceil((after.evCents * 10_000) / max);
  throw ownerRequiredError(`${promised}; admins may set at most ${pct(max)}. Ask the owner to make this change.`, {
    priceCents: [
      lowest === null
        ? 'Only the owner puts a pack with value live at this bound.'
        : `At least ${money(lowest)} without the owner: the pack is worth ${money(after.evCents)} on average, and admins may promise back at most ${pct(max)} of the price.`,
    ],
  });
}

/** Product writes whose before/after record its price and status (product DTOs). */
const PRODUCT_WRITES = ['product.create', 'product.update'];

/**
 * The highest price the product was live at over the last 24 hours (its state now included), or
 * null when it was not live in that time.
 */
export async function highestLivePrice(tx: DbOrTx, productId: string, now: { priceCents: number; status: ProductStatus }, at = new Date()): Promise<number | null> {
  const dayAgo = new Date(at.getTime() - 86_400_000);
  const where = (time: ReturnType<typeof lte>) =>
    and(eq(auditLog.targetType, 'product'), eq(auditLog.targetId, productId), inArray(auditLog.action, PRODUCT_WRITES), time);
  // What it was at the start of the window (the last write before it), and every write since.
  const start = await tx.select({ after: auditLog.after }).from(auditLog).where(where(lte(auditLog.createdAt, dayAgo))).orderBy(desc(auditLog.createdAt)).limit(1);
  const recent = await tx.select({ before: auditLog.before, after: auditLog.after }).from(auditLog).where(where(gt(auditLog.createdAt, dayAgo)));
  const states: unknown[] = [now, ...start.map((r) => r.after), ...recent.flatMap((r) => [r.before, r.after])];
  let peak: number | null = null;
  for (const s of states) {
    if (typeof s !== 'object' || s === null) continue;
    const { priceCents, status } = s as { priceCents?: unknown; status?: unknown };
    if (status === 'live' && typeof priceCents === 'number' && (peak === null || priceCents > peak)) peak = priceCents;
  }
  return peak;
}

/**
 * Refuses a non-owner's change that leaves a product live at a price more than the owner's bound
 * below the highest price it was live at in the last 24 hours. Only a cut, or going live, can.
 */
export async function assertPriceCutWithinLimits(
  tx: DbOrTx,
  actor: Pick<ShopActor, 'role' | 'currency'>,
  product: { id: string; name: string },
  before: { priceCents: number; status: ProductStatus },
  after: { priceCents: number; status: ProductStatus },
): Promise<void> {
  if (actor.role === 'owner' || after.status !== 'live') return;
  if (before.status === 'live' && after.priceCents >= before.priceCents) return;
  const peak = await highestLivePrice(tx, product.id, before);
  if (peak === null) return;
  const cutBp = setting('shop.returnLimits').maxPriceCutBp;
  const lowest = Math.ceil((peak * (10_000 - cutBp)) / 10_000);
  if (after.priceCents >= lowest) return;
  const money = (c: number) => formatMoney(c, actor.currency);
  throw ownerRequiredError(
    `A live product’s price may fall at most ${pct(cutBp)} in 24 hours without the owner: “${product.name}” was live at ${money(peak)}, so ${money(lowest)} is the lowest an admin may set. Ask the owner for a bigger cut.`,
    { priceCents: [`At least ${money(lowest)} without the owner (at most ${pct(cutBp)} below ${money(peak)}, its highest live price in the last 24 hours).`] },
  );
}
