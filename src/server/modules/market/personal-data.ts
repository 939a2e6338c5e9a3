import { asc, eq, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { marketBinder, marketListings, marketOffers, marketSwaps } from '../../db/schema/market.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';
import { cancelOffersOf } from './offers.ts';
import { cancelListingsOf } from './service.ts';
import { cancelSwapsOf } from './swaps.ts';

/**
 * Marketplace listings a person made or bought, and offers they made or answered: trade records,
 * kept on deletion (money moved by them). Deletion ends the person's active listings (their
 * offers' holds go back to the buyers) and cancels their open offers and counters, releasing the
 * holds, so nothing is left for sale and no money stays held (ADR 0028).
 */
export const marketPersonalData: PersonalDataSection = {
  name: 'market',
  tables: [
    {
      table: marketListings,
      keyedBy: ['seller_id', 'sold_to', 'removed_by'],
      onDelete: 'keep',
      why: 'trades (accounting); active listings are ended; removed_by is the admin who took one down',
    },
    { table: marketOffers, keyedBy: ['buyer_id', 'seller_id'], onDelete: 'keep', why: 'trades (accounting); open offers are cancelled, holds released' },
    { table: marketSwaps, keyedBy: ['proposer_id', 'recipient_id'], onDelete: 'keep', why: 'trades (accounting); open swaps are cancelled, holds released' },
    { table: marketBinder, keyedBy: ['user_id'], onDelete: 'delete', why: 'a preference (copies open to trade); emptied on deletion' },
  ],
  async export(db, { id }) {
    const rows = await db
      .select()
      .from(marketListings)
      .where(or(eq(marketListings.sellerId, id), eq(marketListings.soldTo, id), eq(marketListings.removedBy, id)))
      .orderBy(asc(marketListings.createdAt), asc(marketListings.id));
    return {
      listings: rows.map((l) => ({
        id: l.id,
        role: l.sellerId === id ? 'seller' : l.soldTo === id ? 'buyer' : 'removed it (staff)',
        ownedCardId: l.ownedCardId,
        cardId: l.cardId,
        priceCents: l.priceCents,
        state: l.state,
        feeCents: l.feeCents,
        expiresAt: l.expiresAt?.toISOString() ?? null,
        soldAt: l.soldAt?.toISOString() ?? null,
        removedReason: l.removedReason,
        createdAt: l.createdAt.toISOString(),
      })),
      offers: (
        await db
          .select()
          .from(marketOffers)
          .where(or(eq(marketOffers.buyerId, id), eq(marketOffers.sellerId, id)))
          .orderBy(asc(marketOffers.createdAt), asc(marketOffers.id))
      ).map((o) => ({
        id: o.id,
        role: o.buyerId === id ? 'buyer' : 'seller',
        listingId: o.listingId,
        cardId: o.cardId,
        madeBy: o.side,
        amountCents: o.amountCents,
        state: o.state,
        feeCents: o.feeCents,
        expiresAt: o.expiresAt.toISOString(),
        createdAt: o.createdAt.toISOString(),
      })),
      swaps: (
        await db
          .select()
          .from(marketSwaps)
          .where(or(eq(marketSwaps.proposerId, id), eq(marketSwaps.recipientId, id)))
          .orderBy(asc(marketSwaps.createdAt), asc(marketSwaps.id))
      ).map((s) => ({
        id: s.id,
        role: s.proposerId === id ? 'proposer' : 'recipient',
        cashCents: s.cashCents,
        state: s.state,
        feeCents: s.feeCents,
        expiresAt: s.expiresAt.toISOString(),
        createdAt: s.createdAt.toISOString(),
      })),
      tradeBinder: (await db.select().from(marketBinder).where(eq(marketBinder.userId, id)).orderBy(asc(marketBinder.createdAt))).map((b) => ({
        ownedCardId: b.ownedCardId,
        cardId: b.cardId,
        addedAt: b.createdAt.toISOString(),
      })),
    };
  },
  async erase(db, { id }) {
    // Always the deletion's transaction (personal-data-section.ts): balances are locked in it.
    const tx = db as Tx;
    await cancelOffersOf(tx, id);
    await cancelSwapsOf(tx, id);
    await cancelListingsOf(tx, id);
  },
};
