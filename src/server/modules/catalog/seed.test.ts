import { count, eq, max, min, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cardClasses, cardValueHistory, cards, textures, architects } from '../../db/schema/catalog.ts';
import { isNotNull } from 'drizzle-orm';
import { seedCatalog } from '../../seed/catalog.ts';
import { shopSeedStep } from '../../seed/shop.ts';
import { DEFAULT_RETURN_LIMITS } from '../../../shared/contracts/settings.ts';
import { catalogTestContext } from './test-support.ts';

let t: Awaited<ReturnType<typeof catalogTestContext>>;
beforeAll(async () => {
  t = await catalogTestContext();
});
afterAll(() => t.close());

// Renders and encodes ~17 images; generous timeout for a busy CI machine.
it('seeds the demo catalog once, however often it runs', { timeout: 120_000 }, async () => {
  await seedCatalog(t.deps);
  await seedCatalog(t.deps);
  const db = t.deps.db;
  const n = async (table: typeof cards | typeof cardClasses | typeof textures | typeof architects) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  expect(await n(cardClasses)).toBe(5);
  expect(await n(textures)).toBe(3);
  expect(await n(architects)).toBe(2);
  expect(await n(cards)).toBeGreaterThanOrEqual(80);
  const [range] = await db.select({ lo: min(cards.valueCents), hi: max(cards.valueCents) }).from(cards);
  expect(range).toEqual({ lo: 25, hi: 50000 });
  const sets = await db.selectDistinct({ s: cards.setName }).from(cards);
  expect(sets).toHaveLength(3);

  // Commons are plentiful, legendaries scarce.
  const stockOf = async (name: string) =>
    db.select({ stock: cards.stock }).from(cards).innerJoin(cardClasses, eq(cardClasses.id, cards.classId)).where(eq(cardClasses.name, name));
  expect(Math.min(...(await stockOf('Common')).map((r) => r.stock))).toBeGreaterThanOrEqual(200);
  expect(Math.max(...(await stockOf('Legendary')).map((r) => r.stock))).toBeLessThanOrEqual(3);

  // The public list serves them with their look.
  const res = await t.request('/api/cards?sort=value_desc&pageSize=5');
  const body = await res.json();
  expect(body.items[0].valueCents).toBe(50000);
  expect(body.refs.textures.length).toBeGreaterThan(0);
  const img = await t.request(`/api/uploads/${body.items[0].imageKey}-thumb.webp`);
  expect(img.status).toBe(200);

  // Six graded examples with both photos (run twice, graded once), and every card has a value history.
  const graded = await db.select().from(cards).where(isNotNull(cards.gradingCompany));
  expect(graded).toHaveLength(6);
  expect(graded.every((c) => c.frontPhotoKey && c.backPhotoKey && c.certNumber === null)).toBe(true);
  const top = (await (await t.request('/api/cards?graded=true&pageSize=1')).json()).items[0];
  expect(top.grading).toEqual({ company: 'PSA', grade: 10, certNumber: null });
  // Every copy in stock is a slab of its own (issue 38): the photographed one has the demo's certificate.
  const [topCard] = graded.filter((c) => c.id === top.id);
  const slabs = await t.deps.dbh.query<{ cert_number: string; state: string }>(
    sql`select cert_number, state::text as state from card_slabs where card_id = ${top.id}::uuid order by cert_number`,
  );
  expect(slabs).toHaveLength(topCard!.stock);
  expect(slabs[0]).toEqual({ cert_number: '72184530', state: 'in_stock' });
  expect(new Set(slabs.map((s) => s.cert_number)).size).toBe(slabs.length);
  const points = (await (await t.request(`/api/cards/${top.id}/value-history`)).json()).points;
  expect(points).toHaveLength(9);
  expect(points.at(-1).valueCents).toBe(50000);
  const [{ n: withoutHistory } = { n: -1 }] = await db
    .select({ n: count() })
    .from(cards)
    .where(sql`not exists (select 1 from ${cardValueHistory} h where h.card_id = ${cards.id})`);
  expect(withoutHistory).toBe(0);
});

// Runs after the catalog is seeded above (same file, same database).
it('the demo packs promise less back than they cost, within the default return limit', async () => {
  await shopSeedStep.run(t.deps);
  const body = (await (await t.request('/api/shop/products')).json()) as {
    items: Array<{ name: string; priceCents: number; expectedValueCents: number }>;
  };
  expect(body.items.map((p) => p.name).sort()).toEqual(['Premium Vault Pack', 'Starter Pack', 'Vault Pack']);
  for (const p of body.items) {
    const returnBp = (p.expectedValueCents * 10_000) / p.priceCents;
    expect(returnBp, p.name).toBeLessThanOrEqual(DEFAULT_RETURN_LIMITS.maxReturnBp - 500);
    expect(returnBp, p.name).toBeGreaterThanOrEqual(8_000);
  }
});
