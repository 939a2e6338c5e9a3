import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import type { PackSlot } from '../../../shared/contracts/shop.ts';
import { architects, cardClasses, cards } from '../../db/schema/catalog.ts';
import { uploads } from '../../db/schema/uploads.ts';
import type { TestContext } from '../../test/harness.ts';
import { changeStock } from '../inventory/service.ts';
import { credit } from '../wallet/service.ts';

/** A small catalog written straight to the database (no image processing), for the shop suites. */
export async function makeCatalog(
  t: TestContext,
  spec: Array<{ name: string; cards: Array<{ value: number; stock: number }> }>,
): Promise<{ classes: Record<string, string>; cards: Record<string, string[]> }> {
  const key = randomBytes(32).toString('hex');
  const variant = { file: `${key}-full.webp`, width: 10, height: 14, bytes: 100 };
  await t.deps.db.insert(uploads).values({ key, mime: 'image/webp', width: 10, height: 14, bytes: 100, variants: { thumb: variant, full: variant } });
  const [arch] = await t.deps.db.insert(architects).values({ name: `Frame ${key.slice(0, 6)}`, frameImageKey: key, layout: DEFAULT_LAYOUT }).returning();
  const classes: Record<string, string> = {};
  const cardIds: Record<string, string[]> = {};
  let order = 0;
  for (const c of spec) {
    const [cls] = await t.deps.db
      .insert(cardClasses)
      .values({ name: `${c.name}`, colour: '#a855f7', sortOrder: order++ })
      .returning();
    classes[c.name] = cls!.id;
    const rows = c.cards.map((x, i) => ({
      name: `${c.name} card ${i + 1}`,
      setName: `Set ${key.slice(0, 8)}`,
      number: order * 1000 + i + 1,
      classId: cls!.id,
      architectId: arch!.id,
      imageKey: key,
      valueCents: x.value,
    }));
    const inserted = rows.length ? await t.deps.db.insert(cards).values(rows).returning({ id: cards.id }) : [];
    // Stock through the inventory, as the catalog does: the movements then explain it.
    for (const [i, r] of inserted.entries()) {
      const stock = c.cards[i]!.stock;
      if (stock > 0) await changeStock(t.deps.db, { cardId: r.id, delta: stock, reason: 'initial', actorId: null });
    }
    cardIds[c.name] = inserted.map((r) => r.id);
  }
  return { classes, cards: cardIds };
}

export const fund = (t: TestContext, userId: string, cents: number) =>
  t.deps.db.transaction((tx) => credit(tx, { userId, amountCents: cents, kind: 'deposit', referenceType: 'deposit', referenceId: randomUUID() }));

export const slots = (n: number, odds: PackSlot['odds']): PackSlot[] => Array.from({ length: n }, () => ({ odds }));

/** Money, stock and cards agree: every purchase has its ledger debit; every opening its cards and stock. */
export async function shopInvariants(t: TestContext) {
  const q = <T>(s: ReturnType<typeof sql>) => t.deps.dbh.query<T>(s);
  const [a] = await q<{ n: string }>(sql`
    select count(*) as n from purchases p join ledger_entries l on l.id = p.ledger_entry_id
    where l.amount_cents <> -p.total_cents or l.kind <> 'pack_purchase' or l.user_id <> p.user_id`);
  const [b] = await q<{ n: string }>(sql`
    select count(*) as n from ledger_entries l where l.kind = 'pack_purchase'
    and not exists (select 1 from purchases p where p.ledger_entry_id = l.id)`);
  const [c] = await q<{ n: string }>(sql`
    select count(*) as n from openings o
    where jsonb_array_length(o.draws) <> (select count(*) from owned_cards oc where oc.opening_id = o.id)`);
  const [d] = await q<{ n: string }>(sql`
    select count(*) as n from purchases p where p.quantity <> (select count(*) from user_packs u where u.purchase_id = p.id)`);
  const [e] = await q<{ n: string }>(sql`select count(*) as n from cards where stock < 0`);
  const [f] = await q<{ n: string }>(sql`
    select count(*) as n from (select seed_id, nonce from openings group by 1, 2 having count(*) > 1) x`);
  const [g] = await q<{ n: string }>(sql`
    select count(*) as n from user_packs u where (u.opened_at is null) <> not exists (select 1 from openings o where o.user_pack_id = u.id)`);
  return {
    purchaseLedgerMismatch: Number(a!.n),
    debitsWithoutPurchase: Number(b!.n),
    openingsWithoutCards: Number(c!.n),
    purchasesWithoutPacks: Number(d!.n),
    negativeStock: Number(e!.n),
    duplicateNonces: Number(f!.n),
    packOpeningMismatch: Number(g!.n),
  };
}

export const CLEAN = {
  purchaseLedgerMismatch: 0,
  debitsWithoutPurchase: 0,
  openingsWithoutCards: 0,
  purchasesWithoutPacks: 0,
  negativeStock: 0,
  duplicateNonces: 0,
  packOpeningMismatch: 0,
};

/** A live product with its pack set to `packSlots`, created through the admin API. */
export async function liveProduct(
  t: { as(userId: string): { post(path: string, json?: unknown): Promise<Response>; put(path: string, json: unknown): Promise<Response>; patch(path: string, json: unknown): Promise<Response> } },
  admin: string,
  spec: { name: string; priceCents: number; slots: PackSlot[] },
): Promise<{ productId: string; packId: string; setSlots(slots: PackSlot[]): Promise<Response> }> {
  const res = await t.as(admin).post('/api/admin/products', { name: spec.name, priceCents: spec.priceCents, description: `${spec.slots.length} cards.` });
  if (res.status !== 201) throw new Error(`creating ${spec.name} answered ${res.status}`);
  const { product } = (await res.json()) as { product: { id: string; packId: string } };
  const setSlots = (packSlots: PackSlot[]) => t.as(admin).put(`/api/admin/packs/${product.packId}`, { name: spec.name, slots: packSlots, pool: { mode: 'classes' } });
  if ((await setSlots(spec.slots)).status !== 200) throw new Error(`setting the odds of ${spec.name} failed`);
  if ((await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'live' })).status !== 200) throw new Error(`${spec.name} did not go live`);
  return { productId: product.id, packId: product.packId, setSlots };
}
