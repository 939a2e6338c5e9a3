import { asc, eq } from 'drizzle-orm';
import { openings, products, purchases, userPacks } from '../../db/schema/shop.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Purchases, packs and openings are sales records with their fairness proofs: kept on deletion.
 * Unopened packs stay with the closed account (they can no longer be opened, as the deletion
 * dialog says).
 */
export const shopPersonalData: PersonalDataSection = {
  name: 'shop',
  tables: [
    { table: purchases, keyedBy: ['user_id'], onDelete: 'keep', why: 'sales records (accounting)' },
    { table: userPacks, keyedBy: ['user_id'], onDelete: 'keep', why: 'what each purchase delivered' },
    { table: openings, keyedBy: ['user_id'], onDelete: 'keep', why: 'draws and their fairness proofs' },
  ],
  async export(db, { id }) {
    const [bought, packs, opened] = await Promise.all([
      db
        .select({ p: purchases, productName: products.name })
        .from(purchases)
        .innerJoin(products, eq(products.id, purchases.productId))
        .where(eq(purchases.userId, id))
        .orderBy(asc(purchases.createdAt), asc(purchases.id)),
      db.select().from(userPacks).where(eq(userPacks.userId, id)).orderBy(asc(userPacks.createdAt), asc(userPacks.id)),
      db.select().from(openings).where(eq(openings.userId, id)).orderBy(asc(openings.createdAt), asc(openings.id)),
    ]);
    return {
      purchases: bought.map(({ p, productName }) => ({
        id: p.id,
        productId: p.productId,
        productName,
        quantity: p.quantity,
        unitPriceCents: p.unitPriceCents,
        totalCents: p.totalCents,
        ledgerEntryId: p.ledgerEntryId,
        createdAt: p.createdAt.toISOString(),
      })),
      packs: packs.map((u) => ({
        id: u.id,
        purchaseId: u.purchaseId,
        productId: u.productId,
        openingId: u.openingId,
        openedAt: u.openedAt?.toISOString() ?? null,
        createdAt: u.createdAt.toISOString(),
      })),
      openings: opened.map((o) => ({
        id: o.id,
        packId: o.userPackId,
        purchaseId: o.purchaseId,
        productId: o.productId,
        seedId: o.seedId,
        serverSeedHash: o.serverSeedHash,
        clientSeed: o.clientSeed,
        nonce: o.nonce,
        oddsHash: o.oddsHash,
        poolHash: o.poolHash,
        revisionHash: o.revisionHash,
        draws: o.draws,
        totalValueCents: o.totalValueCents,
        createdAt: o.createdAt.toISOString(),
      })),
    };
  },
  async erase() {
    // Kept: see tables.
  },
};
