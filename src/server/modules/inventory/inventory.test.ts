import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVES, OWNED_CARD_STATUSES_FOR_TESTS, canMove, type CopyMoveName, type StockMovement } from '../../../shared/contracts/inventory.ts';
import type { OwnedCardStatus, ProductSummary } from '../../../shared/contracts/shop.ts';
import { cards } from '../../db/schema/catalog.ts';
import { stockMovements } from '../../db/schema/inventory.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import { AppError } from '../../http/errors.ts';
import { giveCards, makeCard, makeClass, statusesOf, stockOf } from '../buyback/test-support.ts';
import { fund, makeCatalog, slots } from '../shop/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { rowsOf } from '../../db/client.ts';
import { changeStock, moveCopies, reconcileStock, takeStockCtes } from './service.ts';

let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
});
afterAll(() => t.close());

const COPY_MOVES = Object.keys(MOVES).filter((k) => MOVES[k as keyof typeof MOVES].from !== null) as CopyMoveName[];

async function movementsOf(cardId: string): Promise<StockMovement[]> {
  const res = await t.as(admin).get(`/api/admin/cards/${cardId}/stock-movements?pageSize=200`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: StockMovement[] }).items;
}

async function setStatus(id: string, status: OwnedCardStatus) {
  // Test set-up only: puts a copy in a state the shipping flow (not built yet) would reach.
  await t.deps.dbh.query(sql`update owned_cards set status = ${status}::owned_card_status where id = ${id}`);
}

describe('the state machine', () => {
  it('refuses every move the table does not allow with 409 invalid_card_state, changing nothing', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 20 });
    let refusals = 0;
    for (const from of OWNED_CARD_STATUSES_FOR_TESTS) {
      const [id] = await giveCards(t, u, card.id, 1);
      // Out-of-stock states directly (stock is the same in all of them); returns by their move.
      if (from === 'sold_back') await moveCopies(t.deps.db, 'sellBack', { ids: [id!], actorId: u });
      else if (from === 'revoked') await moveCopies(t.deps.db, 'revoke', { ids: [id!], actorId: admin });
      else await setStatus(id!, from);
      for (const move of COPY_MOVES) {
        if (canMove(from, move)) continue;
        const stock = await stockOf(t, card.id);
        const [{ n }] = (await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(stockMovements).where(eq(stockMovements.cardId, card.id))) as [{ n: number }];
        const err = await t.deps.db.transaction((tx) => moveCopies(tx, move, { ids: [id!], actorId: admin })).catch((e: unknown) => e);
        expect(err, `${from} → ${move}`).toBeInstanceOf(AppError);
        expect((err as AppError).status).toBe(409);
        // A listed copy answers 'listed' to every move but delist (ADR 0028: "Delist it first").
        expect((err as AppError).code).toBe(from === 'listed' ? 'listed' : 'invalid_card_state');
        expect(await statusesOf(t, [id!])).toEqual({ [id!]: from });
        expect(await stockOf(t, card.id)).toBe(stock);
        const [after] = (await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(stockMovements).where(eq(stockMovements.cardId, card.id))) as [{ n: number }];
        expect(after.n).toBe(n);
        refusals++;
      }
    }
    expect(refusals).toBe(OWNED_CARD_STATUSES_FOR_TESTS.length * COPY_MOVES.length - 10); // 10 allowed (state, move) pairs, list and delist included
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
  });

  it('takes the allowed path in vault → in shipment → shipped → delivered, and back to the vault on a cancel', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 3 });
    const [a, b] = await giveCards(t, u, card.id, 2);
    for (const move of ['ship', 'dispatch', 'deliver'] as const) await moveCopies(t.deps.db, move, { ids: [a!], ownerId: u, actorId: u });
    await moveCopies(t.deps.db, 'ship', { ids: [b!], actorId: u });
    await moveCopies(t.deps.db, 'cancelShipment', { ids: [b!], actorId: u });
    expect(await statusesOf(t, [a!, b!])).toEqual({ [a!]: 'delivered', [b!]: 'in_vault' });
    // Shipping never touches stock; each move is in the history.
    expect(await stockOf(t, card.id)).toBe(1);
    const reasons = (await movementsOf(card.id)).map((m) => [m.reason, m.delta]);
    expect(reasons.filter(([r]) => String(r).startsWith('ship'))).toHaveLength(5);
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
  });

  it('refuses a move of several copies as a whole when one of them may not move', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 5 });
    const [a, b] = await giveCards(t, u, card.id, 2);
    await setStatus(b!, 'shipped');
    await expect(moveCopies(t.deps.db, 'sellBack', { ids: [a!, b!], actorId: u })).rejects.toMatchObject({ status: 409, code: 'invalid_card_state' });
    expect(await statusesOf(t, [a!, b!])).toEqual({ [a!]: 'in_vault', [b!]: 'shipped' });
    expect(await stockOf(t, card.id)).toBe(3);
    // Another user's copy is refused when the move is for one owner.
    const other = await t.makeUser();
    await expect(moveCopies(t.deps.db, 'ship', { ids: [a!], ownerId: other, actorId: other })).rejects.toMatchObject({ code: 'invalid_card_state' });
  });

  it('lets one of two concurrent moves of the same copy win', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 2 });
    const [id] = await giveCards(t, u, card.id, 1);
    const results = await Promise.allSettled([
      t.deps.db.transaction((tx) => moveCopies(tx, 'revoke', { ids: [id!], actorId: admin })),
      t.deps.db.transaction((tx) => moveCopies(tx, 'sellBack', { ids: [id!], actorId: u })),
      t.deps.db.transaction((tx) => moveCopies(tx, 'ship', { ids: [id!], actorId: u })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, code: 'invalid_card_state' });
    const status = (await statusesOf(t, [id!]))[id!];
    // Returned to stock exactly once when the winner was a return.
    expect(await stockOf(t, card.id)).toBe(status === 'in_shipment' ? 1 : 2);
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
  });

  it('never takes stock below zero, and refuses a zero or fractional change', async () => {
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 1 });
    expect(await changeStock(t.deps.db, { cardId: card.id, delta: -2, reason: 'admin_adjust', actorId: admin })).toBeNull();
    expect(await stockOf(t, card.id)).toBe(1);
    await expect(changeStock(t.deps.db, { cardId: card.id, delta: 0, reason: 'admin_adjust', actorId: admin })).rejects.toThrow();
  });
});

describe('the history of every caller', () => {
  it('catalog create + adjust, CSV import, grant, revoke and buyback each leave their movement', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 4 });

    expect((await t.as(admin).post(`/api/admin/catalog/cards/${card.id}/stock`, { delta: 3, reason: 'Found a box' })).status).toBe(200);
    const granted = await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: u, reason: 'Stream prize' });
    expect(granted.status).toBe(201);
    const grantedId = ((await granted.json()) as { ownedCard: { id: string } }).ownedCard.id;
    const [second] = await giveCards(t, u, card.id, 1);
    expect((await t.as(admin).post(`/api/admin/owned/${second}/revoke`, { reason: 'Mistake' })).status).toBe(200);
    const sold = await t.as(u).post('/api/buyback', { ownedCardIds: [grantedId] }, { 'Idempotency-Key': randomUUID() });
    expect(sold.status).toBe(201);
    const buybackId = ((await sold.json()) as { buyback: { id: string } }).buyback.id;

    const history = await movementsOf(card.id);
    const byReason = (r: string) => history.filter((m) => m.reason === r);
    expect(byReason('initial').map((m) => m.delta)).toEqual([4]);
    expect(byReason('admin_adjust')).toMatchObject([{ delta: 3, note: 'Found a box', actorId: admin }]);
    expect(byReason('grant').map((m) => m.delta)).toEqual([-1, -1]);
    expect(byReason('grant').some((m) => m.referenceType === 'owned_card' && m.referenceId === grantedId && m.actorId === admin)).toBe(true);
    expect(byReason('revoke')).toMatchObject([{ delta: 1, referenceType: 'owned_card', referenceId: second, actorId: admin }]);
    expect(byReason('buyback_return')).toMatchObject([{ delta: 1, referenceType: 'buyback', referenceId: buybackId, actorId: u }]);
    // Newest first, and the sum of the deltas is the stock.
    expect(history[0]!.reason).toBe('buyback_return');
    expect(history.reduce((a, m) => a + m.delta, 0)).toBe(await stockOf(t, card.id));
    expect(history[0]!.stockAfter).toBe(await stockOf(t, card.id));
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
  });

  it('CSV import logs its stock changes', async () => {
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 2, setName: `Csv${randomUUID().slice(0, 6)}` });
    const [row] = await t.deps.db.select().from(cards).where(eq(cards.id, card.id));
    const [arch] = await t.deps.dbh.query<{ name: string }>(sql`select name from architects where id = ${row!.architectId}`);
    const csv = [
      'name,set,number,class,architect,texture,image,value,description,active,stock',
      `${row!.name},${row!.setName},${row!.number},${cls.name},${arch!.name},,${row!.imageKey},1.00,,true,9`,
    ].join('\n');
    const res = await t.as(admin).post('/api/admin/catalog/cards/import', { csv });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await stockOf(t, card.id)).toBe(9);
    expect((await movementsOf(card.id)).filter((m) => m.reason === 'csv_import')).toMatchObject([{ delta: 7, stockAfter: 9, referenceType: 'csv_import', actorId: admin }]);
  });

  it('both opening paths log a pack_open take per card, in the same statement as the take', async () => {
    const cat = await makeCatalog(t, [{ name: 'Only', cards: [{ value: 10, stock: 50 }, { value: 20, stock: 50 }] }]);
    const res = await t.as(admin).post('/api/admin/products', { name: 'History Pack', priceCents: 100 });
    const p = ((await res.json()) as { product: ProductSummary }).product;
    await t.as(admin).put(`/api/admin/packs/${p.packId}`, { name: 'History Pack', slots: slots(3, [{ classId: cat.classes.Only!, weight: 1 }]), pool: { mode: 'classes' } });
    await t.as(admin).patch(`/api/admin/products/${p.id}`, { status: 'live' });
    const u = await t.makeUser();
    await fund(t, u, 10_000);
    const movementsFor = async (purchaseId: string) =>
      (await t.deps.db.select().from(stockMovements).where(eq(stockMovements.referenceId, purchaseId))).filter((m) => m.reason === 'pack_open');
    const copiesOf = async (purchaseId: string) =>
      t.deps.dbh.query<{ card_id: string; n: string }>(sql`
        select o.card_id, count(*) as n from owned_cards o join openings x on x.id = o.opening_id where x.purchase_id = ${purchaseId} group by o.card_id`);

    // Buy-and-open, several times: the first goes the general path (pool snapshot not stored), then one statement.
    for (let i = 0; i < 3; i++) {
      const opened = await t.as(u).post('/api/shop/open', { productId: p.id, quantity: 2 }, { 'Idempotency-Key': randomUUID() });
      expect(opened.status).toBe(201);
      const purchaseId = ((await opened.json()) as { purchase: { id: string } }).purchase.id;
      const moves = await movementsFor(purchaseId);
      const copies = await copiesOf(purchaseId);
      expect(moves.map((m) => [m.cardId, -m.delta]).sort()).toEqual(copies.map((c) => [c.card_id, Number(c.n)]).sort());
      for (const m of moves) expect(m).toMatchObject({ referenceType: 'purchase', actorId: u });
    }
    // Owned packs opened later (general path).
    const bought = await t.as(u).post('/api/shop/purchases', { productId: p.id, quantity: 1 }, { 'Idempotency-Key': randomUUID() });
    expect(bought.status).toBe(201);
    const b = (await bought.json()) as { purchase: { id: string }; packs: Array<{ id: string }> };
    expect(await movementsFor(b.purchase.id)).toEqual([]);
    const opened = await t.as(u).post('/api/shop/open', { packIds: b.packs.map((x) => x.id) }, { 'Idempotency-Key': randomUUID() });
    expect(opened.status).toBe(201);
    const moves = await movementsFor(b.purchase.id);
    expect(moves.reduce((a, m) => a - m.delta, 0)).toBe(3);
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
  });
});

describe('reconciliation', () => {
  it('finds a stock written behind the inventory, and a copy put in a vault without its take', async () => {
    expect(await reconcileStock(t.deps.db)).toMatchObject({ ok: true, details: { mismatches: 0 } });
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100, stock: 5 });
    await t.deps.dbh.query(sql`update cards set stock = 6 where id = ${card.id}`);
    const bad = await reconcileStock(t.deps.db);
    expect(bad).toMatchObject({ ok: false, details: { mismatches: 1, sample: [{ cardId: card.id, stock: 6, movementsNet: 5, supply: 5, ownedOut: 0 }] } });
    await t.deps.dbh.query(sql`update cards set stock = 5 where id = ${card.id}`);
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);

    const u = await t.makeUser();
    await t.deps.db.insert(ownedCards).values({ cardId: card.id, ownerId: u, acquiredVia: 'grant', valueCents: 100 });
    expect(await reconcileStock(t.deps.db)).toMatchObject({ ok: false, details: { sample: [{ cardId: card.id, stock: 5, movementsNet: 5, ownedOut: 1 }] } });
    await t.deps.dbh.query(sql`delete from owned_cards where card_id = ${card.id}`);

    const res = await t.as(admin).get('/api/admin/inventory/reconcile');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    const user = await t.makeUser();
    expect((await t.as(user).get('/api/admin/inventory/reconcile')).status).toBe(403);
    expect((await t.as(user).get(`/api/admin/cards/${card.id}/stock-movements`)).status).toBe(403);
    expect((await t.as(admin).get(`/api/admin/cards/${randomUUID()}/stock-movements`)).status).toBe(404);
    expect((await t.as(admin).get(`/api/admin/cards/${card.id}/stock-movements?pageSize=0`)).status).toBe(400);
  });
});

// Every opening takes stock from up to 5 random cards (100,000 in the growth bench). While no index
// names cards.stock and the page has room, PostgreSQL writes each new row version beside the old
// one and adds nothing to the table's indexes (a HOT update); an index on stock made every take add
// an entry to each of them (docs/decisions/0021).
describe('stock takes are HOT updates', () => {
  it('no index on cards names stock, and its pages keep room for new versions', async () => {
    const idx = await t.deps.dbh.query<{ name: string; def: string }>(sql`
      select c.relname as name, pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'cards'::regclass`);
    expect(idx.length).toBeGreaterThan(5);
    expect(idx.filter((i) => /\bstock\b/.test(i.def))).toEqual([]);
    const [rel] = await t.deps.dbh.query<{ opts: string[] | null }>(sql`select reloptions as opts from pg_class where oid = 'cards'::regclass`);
    expect(rel!.opts).toContain('fillfactor=85');
  });

  it("the opening's stock take changes no index entry", async () => {
    const cls = await makeClass(t);
    const taken = await Promise.all([1, 2, 3, 4, 5].map(() => makeCard(t, { classId: cls.id, valueCents: 100, stock: 3 })));
    // The transaction's own counters around the take, read before it is rolled back (nothing is kept).
    let counts: { updated: number; hot: number } | undefined;
    await t.deps.db
      .transaction(async (tx) => {
        const read = async () =>
          rowsOf<{ updated: number; hot: number }>(
            await tx.execute(sql`select pg_stat_get_xact_tuples_updated('cards'::regclass)::int as updated,
              pg_stat_get_xact_tuples_hot_updated('cards'::regclass)::int as hot`),
          )[0]!;
        const before = await read();
        await tx.execute(sql`
          with want as (select * from json_to_recordset(${JSON.stringify(taken.map((c) => ({ id: c.id, n: 1 })))}::json) as w(id uuid, n integer)),
          ${takeStockCtes({
            name: 'taken',
            want: sql`want`,
            returning: sql`1 as one`,
            movement: { referenceType: sql`'purchase'`, referenceId: sql`${randomUUID()}::text`, actorId: sql`null`, at: sql`now()` },
          })}
          select count(*) from taken`);
        const after = await read();
        counts = { updated: after.updated - before.updated, hot: after.hot - before.hot };
        tx.rollback();
      })
      .catch(() => {});
    expect(counts).toEqual({ updated: 5, hot: 5 });
  });
});
