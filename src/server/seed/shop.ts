import { eq, inArray, sql } from 'drizzle-orm';
import type { PackSlot } from '../../shared/contracts/shop.ts';
import { cardClasses } from '../db/schema/catalog.ts';
import { packs, products } from '../db/schema/shop.ts';
import type { Deps } from '../deps.ts';
import type { SeedStep } from './index.ts';

/**
 * Three live demo products over the seeded classes (Common … Legendary). Weights are basis
 * points of the slot (10000 = 100%). Idempotent: a product that exists by name is left alone.
 *
 * Over the demo catalog each promises about 90 % back at card value (Starter 93 %, Vault and
 * Premium 90 %): under the owner's default return limit of 100 %, as a real shop's would be. The
 * odds once gave the Premium pack 124 %, so every demo dashboard showed a loss (catalog's
 * seed.test.ts now holds them to the limit).
 */

type Odds = Record<string, number>;
const slot = (odds: Odds) => odds;

export const DEMO_PRODUCTS: Array<{
  name: string;
  description: string;
  priceCents: number;
  featured: boolean;
  sortOrder: number;
  slots: Odds[];
}> = [
  {
    name: 'Starter Pack',
    description: 'One card for a dollar: mostly Commons, with a small chance at something shiny. A good way to try an opening.',
    priceCents: 100,
    featured: false,
    sortOrder: 10,
    slots: [slot({ Common: 9850, Uncommon: 140, Rare: 9, Epic: 1 })],
  },
  {
    name: 'Vault Pack',
    description: 'Five cards. Four from the Common and Uncommon shelves, and a last card that can be anything up to Legendary.',
    priceCents: 1000,
    featured: true,
    sortOrder: 20,
    slots: [
      slot({ Common: 10000 }),
      slot({ Common: 10000 }),
      slot({ Common: 10000 }),
      slot({ Common: 9500, Uncommon: 500 }),
      slot({ Uncommon: 9752, Rare: 200, Epic: 40, Legendary: 8 }),
    ],
  },
  {
    name: 'Premium Vault Pack',
    description: 'Five cards with no Commons: a guaranteed Rare or better, and the best Epic and Legendary odds in the shop.',
    priceCents: 5000,
    featured: true,
    sortOrder: 30,
    slots: [
      slot({ Uncommon: 10000 }),
      slot({ Uncommon: 10000 }),
      slot({ Uncommon: 10000 }),
      slot({ Uncommon: 9800, Rare: 200 }),
      slot({ Rare: 9830, Epic: 140, Legendary: 30 }),
    ],
  },
];

async function seedShop(deps: Deps): Promise<void> {
  const { db, log } = deps;
  const names = [...new Set(DEMO_PRODUCTS.flatMap((p) => p.slots.flatMap((s) => Object.keys(s))))];
  const classes = await db
    .select({ id: cardClasses.id, name: cardClasses.name })
    .from(cardClasses)
    .where(inArray(sql`lower(${cardClasses.name})`, names.map((n) => n.toLowerCase())));
  const idOf = new Map(classes.map((c) => [c.name.toLowerCase(), c.id]));
  const missing = names.filter((n) => !idOf.has(n.toLowerCase()));
  if (missing.length) {
    log.warn('shop seed skipped: classes missing', { missing });
    return;
  }
  for (const p of DEMO_PRODUCTS) {
    const [existing] = await db.select({ id: products.id }).from(products).where(eq(products.name, p.name));
    if (existing) continue;
    const slots: PackSlot[] = p.slots.map((s) => ({
      odds: Object.entries(s).map(([name, weight]) => ({ classId: idOf.get(name.toLowerCase())!, weight })),
    }));
    await db.transaction(async (tx) => {
      const [pack] = await tx.insert(packs).values({ name: p.name, slots, pool: { mode: 'classes' } }).returning({ id: packs.id });
      await tx.insert(products).values({
        name: p.name,
        description: p.description,
        priceCents: p.priceCents,
        status: 'live',
        featured: p.featured,
        sortOrder: p.sortOrder,
        packId: pack!.id,
      });
    });
  }
}

export const shopSeedStep: SeedStep = { name: 'shop', run: seedShop };
