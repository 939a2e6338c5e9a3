import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStockAdjustments } from '../modules/catalog/cards.ts';
import { changeStock, moveCopies, reconcileStock } from '../modules/inventory/service.ts';
import type { DbHandle } from './client.ts';
import { freshDbUpTo, type Exec, type FreshDb } from './migration-test-support.ts';

/**
 * Migration 0010 (inventory: stock movements) on a database filled by the old code: migrate a
 * fresh database up to 0009, write stock and owned copies the way catalog, CSV import, pack
 * openings, buyback and owned-admin did before the inventory gateway (their SQL, below: an
 * UPDATE of cards.stock, a stock_adjustments row for every change but an opening's), run the rest,
 * and check that every card's history explains its stock and that the gateway works on it.
 *
 * Then migration 0013 (drop stock_adjustments): before it runs, the gateway of 0010–0012 also writes
 * a change with a note (its SQL, below: the movement and the history line in one statement), and
 * every stock_adjustments row must have its twin in stock_movements (card, delta, stock after,
 * note = reason, actor, time), so dropping the table loses nothing the catalog's history showed.
 */

const BEFORE = '0009_double-entry-ledger';
const BEFORE_DROP = '0012_shipping';

/** The stock_adjustments rows with no twin in stock_movements: what dropping the table would lose. */
const ADJUSTMENTS_WITHOUT_TWIN = `
  select a.id, a.reason from stock_adjustments a
  where not exists (select 1 from stock_movements m where m.card_id = a.card_id and m.delta = a.delta and m.stock_after = a.stock_after
    and m.note = a.reason and m.actor_id is not distinct from a.actor_id and m.created_at = a.created_at)`;

/** The old code's stock change with its history line (catalog, CSV import, buyback, owned-admin). */
async function oldAdjust(exec: Exec, cardId: string, delta: number, reason: string, actorId: string | null) {
  // The history is read newest first by created_at, and PGlite's clock ticks in milliseconds: two
  // lines written in one tick came back in their ids' (random) order, and failed this test in CI.
  await new Promise((resolve) => setTimeout(resolve, 3));
  const [c] = await exec(`update cards set stock = stock + $2, updated_at = now() where id = $1 and stock + $2 >= 0 returning stock`, [cardId, delta]);
  if (!c) throw new Error('out of stock');
  await exec(`insert into stock_adjustments (card_id, delta, stock_after, reason, actor_id) values ($1, $2, $3, $4, $5)`, [cardId, delta, c.stock, reason, actorId]);
}

describe('migration 0010 on stock written by the old code', () => {
  let db: FreshDb;
  let handle: DbHandle;
  const user = 'inv_mig_user';
  const admin = 'inv_mig_admin';
  const card = { a: randomUUID(), b: randomUUID(), c: randomUUID(), d: randomUUID() };
  const owned = { opened: randomUUID(), openedSold: randomUUID(), granted: randomUUID(), revoked: randomUUID(), shipped: randomUUID() };
  const buybackId = randomUUID();
  let adjustmentsBeforeDrop = 0;
  let withoutTwin: unknown[] = [];

  beforeAll(async () => {
    db = await freshDbUpTo(BEFORE);
    const x = db.exec;
    for (const id of [user, admin]) {
      await x(`insert into "user" (id, name, email, username, role, email_verified) values ($1, $1, $1 || '@example.test', $1, 'user', true)`, [id]);
    }
    await x(`insert into uploads (key, mime, width, height, bytes, variants) values ('mig', 'image/webp', 1, 1, 1, '{}')`);
    const [cls] = await x(`insert into card_classes (name, colour) values ('Common', '#888888') returning id`);
    const [arch] = await x(`insert into architects (name, frame_image_key, layout) values ('Frame', 'mig', '{}') returning id`);
    for (const [i, id] of Object.values(card).entries()) {
      await x(`insert into cards (id, name, set_name, number, class_id, architect_id, image_key, value_cents, stock) values ($1, $2, 'Set', $3, $4, $5, 'mig', 200, 0)`, [
        id,
        `Card ${i}`,
        i + 1,
        cls!.id,
        arch!.id,
      ]);
    }

    // Card A: created with 10 copies, two taken by a pack opening (never logged), one of them sold
    // back, one written off by an admin.
    await oldAdjust(x, card.a, 10, 'Initial stock', admin);
    const [pack] = await x(`insert into packs (name) values ('Pack') returning id`);
    const [product] = await x(`insert into products (name, price_cents, status, pack_id) values ('Pack', 300, 'live', $1) returning id`, [pack!.id]);
    const [seed] = await x(`insert into user_seeds (user_id, server_seed, server_seed_hash, client_seed) values ($1, 's', 'h', 'c') returning id`, [user]);
    const [entry] = await x(`insert into journal_entries (kind, reference_type, reference_id) values ('pack_purchase', 'purchase', 'p1') returning id`);
    const [purchase] = await x(
      `insert into purchases (user_id, product_id, pack_id, quantity, unit_price_cents, total_cents, ledger_entry_id) values ($1, $2, $3, 1, 300, 300, $4) returning id`,
      [user, product!.id, pack!.id, entry!.id],
    );
    const [userPack] = await x(`insert into user_packs (user_id, purchase_id, product_id, pack_id, slots) values ($1, $2, $3, $4, '[]') returning id`, [
      user,
      purchase!.id,
      product!.id,
      pack!.id,
    ]);
    const [opening] = await x(
      `insert into openings (user_id, user_pack_id, purchase_id, product_id, pack_id, seed_id, server_seed_hash, client_seed, nonce, slots, odds_hash, pool_hash, draws, total_value_cents)
       values ($1, $2, $3, $4, $5, $6, 'h', 'c', 0, '[]', 'o', 'p', '[]', 400) returning id`,
      [user, userPack!.id, purchase!.id, product!.id, pack!.id, seed!.id],
    );
    await x(`update cards set stock = stock - 2 where id = $1`, [card.a]);
    for (const [id, slot] of [
      [owned.opened, 0],
      [owned.openedSold, 1],
    ] as const) {
      await x(`insert into owned_cards (id, card_id, owner_id, acquired_via, value_cents, opening_id, product_id, slot) values ($1, $2, $3, 'opening', 200, $4, $5, $6)`, [
        id,
        card.a,
        user,
        opening!.id,
        product!.id,
        slot,
      ]);
    }
    await x(`update owned_cards set status = 'sold_back' where id = $1`, [owned.openedSold]);
    await oldAdjust(x, card.a, 1, `Buyback ${buybackId}`, user);
    await oldAdjust(x, card.a, -1, 'Water damage', admin);

    // Card B: imported from a CSV, one copy granted and revoked, another granted.
    await oldAdjust(x, card.b, 5, 'CSV import', admin);
    for (const id of [owned.revoked, owned.granted]) {
      await oldAdjust(x, card.b, -1, `Granted to ${user}: giveaway`, admin);
      await x(`insert into owned_cards (id, card_id, owner_id, acquired_via, value_cents) values ($1, $2, $3, 'grant', 200)`, [id, card.b, user]);
    }
    await x(`update owned_cards set status = 'revoked' where id = $1`, [owned.revoked]);
    await oldAdjust(x, card.b, 1, `Revoked from ${user}: mistake`, admin);

    // Card C: stock set by the demo seed, no history at all.
    await x(`update cards set stock = 3 where id = $1`, [card.c]);

    // Card D: one copy in a vault that no logged change explains (put there by hand), one left.
    await x(`update cards set stock = 1 where id = $1`, [card.d]);
    await x(`insert into owned_cards (id, card_id, owner_id, acquired_via, value_cents) values ($1, $2, $3, 'grant', 200)`, [owned.shipped, card.d, user]);

    await db.migrateRest(BEFORE_DROP);
    // The 0010–0012 gateway's admin adjustment of card C (a note: the history line too).
    await x(
      `with upd as (update cards set stock = stock + 1, updated_at = now() where id = $1 returning id, stock),
       moved as (insert into stock_movements (card_id, delta, stock_after, reason, note, actor_id)
         select id, 1, stock, 'admin_adjust', $2, $3 from upd returning card_id, delta, stock_after)
       insert into stock_adjustments (card_id, delta, stock_after, reason, actor_id) select card_id, delta, stock_after, $2, $3 from moved`,
      [card.c, 'Found one more', admin],
    );
    adjustmentsBeforeDrop = (await x(`select count(*)::int as n from stock_adjustments`))[0]!.n as number;
    withoutTwin = await x(ADJUSTMENTS_WITHOUT_TWIN);
    await db.migrateRest();
    handle = await db.open();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const history = (cardId: string) =>
    db.exec(`select delta, stock_after, reason::text as reason, reference_type, reference_id, note from stock_movements where card_id = $1 order by created_at, delta desc`, [cardId]);

  it('explains every card: movements sum to stock, stock + copies out = supply', async () => {
    const r = await reconcileStock(handle.db);
    expect(r.details.sample).toEqual([]);
    expect(r).toMatchObject({ ok: true, details: { cards: 4, mismatches: 0 } });
  });

  it('maps each old history line to its reason and reference, and the unlogged takes to pack_open', async () => {
    expect(await history(card.a)).toEqual([
      { delta: 10, stock_after: 10, reason: 'initial', reference_type: null, reference_id: null, note: 'Initial stock' },
      { delta: 1, stock_after: 9, reason: 'buyback_return', reference_type: 'buyback', reference_id: buybackId, note: `Buyback ${buybackId}` },
      { delta: -1, stock_after: 8, reason: 'admin_adjust', reference_type: null, reference_id: null, note: 'Water damage' },
      {
        delta: -2,
        stock_after: 8,
        reason: 'pack_open',
        reference_type: null,
        reference_id: null,
        note: 'Copies out of stock before the movement history: pack openings (migration)',
      },
    ]);
    expect((await history(card.b)).map((m) => [m.reason, m.delta])).toEqual([
      ['csv_import', 5],
      ['grant', -1],
      ['grant', -1],
      ['revoke', 1],
    ]);
    expect((await history(card.c)).map((m) => [m.reason, m.delta, m.stock_after])).toEqual([
      ['initial', 3, 3],
      ['admin_adjust', 1, 4],
    ]);
    // D: the copy in a vault was supplied once (initial 2) and taken (−1); stock 1.
    expect((await history(card.d)).map((m) => [m.reason, m.delta])).toEqual([
      ['initial', 2],
      ['pack_open', -1],
    ]);
  });

  it('drops stock_adjustments only once every row has its twin in stock_movements, and the history reads from the movements', async () => {
    expect(adjustmentsBeforeDrop).toBe(8);
    expect(withoutTwin).toEqual([]);
    expect(await db.exec(`select 1 from information_schema.tables where table_name = 'stock_adjustments'`)).toEqual([]);
    const a = await listStockAdjustments(handle.db, card.a, 1, 20);
    expect(a.total).toBe(4);
    expect(a.items.map((i) => [i.kind, i.delta, i.reason, i.actorId])).toEqual([
      ['pack_open', -2, 'Copies out of stock before the movement history: pack openings (migration)', null],
      ['admin_adjust', -1, 'Water damage', admin],
      ['buyback_return', 1, `Buyback ${buybackId}`, user],
      ['initial', 10, 'Initial stock', admin],
    ]);
    const c = await listStockAdjustments(handle.db, card.c, 1, 20);
    expect(c.items.map((i) => [i.kind, i.delta, i.reason, i.actorId])).toEqual([
      ['admin_adjust', 1, 'Found one more', admin],
      ['initial', 3, 'Stock before the movement history (migration)', null],
    ]);
  });

  it('lets the gateway move the migrated copies, and refuses what the state machine forbids', async () => {
    await handle.db.transaction(async (tx) => {
      const sold = await moveCopies(tx, 'sellBack', { ids: [owned.opened], ownerId: user, actorId: user, referenceType: 'buyback', referenceId: randomUUID() });
      expect(sold.map((m) => m.from)).toEqual(['in_vault']);
      expect(await changeStock(tx, { cardId: card.c, delta: 2, reason: 'admin_adjust', actorId: admin, note: 'Restock' })).toMatchObject({ stockAfter: 6 });
    });
    await expect(handle.db.transaction((tx) => moveCopies(tx, 'sellBack', { ids: [owned.revoked], actorId: user }))).rejects.toMatchObject({
      status: 409,
      code: 'invalid_card_state',
    });
    const [a] = await db.exec(`select stock from cards where id = $1`, [card.a]);
    expect(a!.stock).toBe(9);
    expect((await reconcileStock(handle.db)).ok).toBe(true);
  });
});
