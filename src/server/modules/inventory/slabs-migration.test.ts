import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDbUpTo, insertCardPrerequisites, type FreshDb } from '../../db/migration-test-support.ts';
import { reconcileStock } from './service.ts';

/**
 * Migration 0026 (issue 38, ADR 0023) on data the old code wrote: a PSA 10 with one certificate,
 * stock 3 and three copies out of stock (one sold back) becomes six slabs — the certificate on the
 * earliest owned copy, the other owned copies with theirs missing, and the three in stock held out of
 * stock until an admin fills them in — and the stock books still reconcile.
 */

let d: FreshDb;
const card = '00000000-0000-4000-8000-0000000000c1';
const raw = '00000000-0000-4000-8000-0000000000c2';
const copies = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-0000000000a3'];

beforeAll(async () => {
  d = await freshDbUpTo('0024_cards_stock_hot');
  const { imageKey: key, classId, architectId } = await insertCardPrerequisites(d.exec);
  await d.exec(`insert into "user" (id, name, email, username) values ('u1', 'u1', 'u1@example.test', 'u1'), ('u2', 'u2', 'u2@example.test', 'u2')`);
  await d.exec(
    `insert into cards (id, name, set_name, number, class_id, architect_id, image_key, value_cents, stock, grading_company, grade, cert_number, front_photo_key)
     values ($1, 'Eclipse Sentinel', 'Eclipse', 1, $3, $4, $5, 50000, 3, 'PSA', 10, '72184530', $5),
            ($2, 'Plain', 'Eclipse', 2, $3, $4, $5, 100, 4, null, null, null, null)`,
    [card, raw, classId, architectId, key],
  );
  // Six supplied; two opened (one still in a vault, one shipped), one sold back.
  await d.exec(
    `insert into stock_movements (card_id, delta, stock_after, reason) values ($1, 6, 6, 'initial'), ($1, -1, 5, 'grant'), ($1, -1, 4, 'grant'),
       ($1, -1, 3, 'grant'), ($1, 1, 4, 'buyback_return'), ($1, -1, 3, 'grant'), ($2, 4, 4, 'initial')`,
    [card, raw],
  );
  await d.exec(
    `insert into owned_cards (id, card_id, owner_id, acquired_via, value_cents, status, acquired_at) values
       ($1, $4, 'u1', 'grant', 50000, 'shipped', now() - interval '3 days'),
       ($2, $4, 'u2', 'grant', 50000, 'in_vault', now() - interval '2 days'),
       ($3, $4, 'u2', 'grant', 50000, 'sold_back', now() - interval '4 days')`,
    [...copies, card],
  );
  await d.exec(
    `insert into owned_cards (card_id, owner_id, acquired_via, value_cents, status, acquired_at) values ($1, 'u1', 'grant', 50000, 'in_vault', now() - interval '1 day')`,
    [card],
  );
  await d.migrateRest();
});
afterAll(() => d?.close());

describe('migration 0026: graded cards become slabs', () => {
  it('gives the certificate to the first owner, a slab to every copy, and holds the rest out of stock', async () => {
    const slabs = await d.exec(
      `select s.cert_number, s.cert_missing, s.state::text as state, s.owned_card_id, s.grader, s.grade::float8 as grade, s.front_photo_key is not null as photo
       from card_slabs s where s.card_id = $1 order by s.owned_card_id nulls last, s.state`,
      [card],
    );
    expect(slabs).toHaveLength(6);
    const owned = slabs.filter((s) => s.owned_card_id !== null);
    expect(owned.find((s) => s.owned_card_id === copies[0])).toMatchObject({ cert_number: '72184530', cert_missing: false, state: 'shipped', photo: true });
    expect(owned.find((s) => s.owned_card_id === copies[1])).toMatchObject({ cert_number: null, cert_missing: true, state: 'owned' });
    expect(owned.some((s) => s.owned_card_id === copies[2])).toBe(false);
    expect(owned).toHaveLength(3);
    const inShop = slabs.filter((s) => s.owned_card_id === null);
    expect(inShop.map((s) => s.state)).toEqual(['held', 'held', 'held']);
    expect(slabs.every((s) => s.grader === 'PSA' && s.grade === 10)).toBe(true);
    const [c] = await d.exec(`select stock, cert_number from cards where id = $1`, [card]);
    expect(c).toEqual({ stock: 0, cert_number: null });
    const [r] = await d.exec(`select stock from cards where id = $1`, [raw]);
    expect(r!.stock).toBe(4);
    expect(await d.exec(`select 1 from card_slabs where card_id = $1`, [raw])).toEqual([]);
    const db = await d.open();
    const rec = await reconcileStock(db.db);
    expect(rec.ok, JSON.stringify(rec.details.sample)).toBe(true);
  });
});
