import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDbUpTo, insertCardPrerequisites, type FreshDb } from '../../db/migration-test-support.ts';

/**
 * Migration 0036 (ADR 0033) on listings the old code wrote: each listing, in every state, gets its
 * card's set, class and grade, and from then on the database keeps them.
 */

let d: FreshDb;
const graded = '00000000-0000-4000-8000-0000000000c1';
const raw = '00000000-0000-4000-8000-0000000000c2';

beforeAll(async () => {
  d = await freshDbUpTo('0035_market_swaps');
  const { imageKey: key, classId, architectId } = await insertCardPrerequisites(d.exec);
  await d.exec(`insert into "user" (id, name, email, username) values ('u1', 'u1', 'u1@example.test', 'u1')`);
  await d.exec(
    `insert into cards (id, name, set_name, number, class_id, architect_id, image_key, value_cents, grading_company, grade)
     values ($1, 'Eclipse Sentinel', 'Eclipse', 1, $3, $4, $5, 50000, 'PSA', 9.5), ($2, 'Plain', 'Dawn', 2, $3, $4, $5, 100, null, null)`,
    [graded, raw, classId, architectId, key],
  );
  const copies = await d.exec(
    `insert into owned_cards (card_id, owner_id, acquired_via, value_cents, status) values ($1, 'u1', 'grant', 50000, 'listed'), ($2, 'u1', 'grant', 100, 'in_vault') returning id, card_id`,
    [graded, raw],
  );
  for (const [i, c] of copies.entries()) {
    await d.exec(
      `insert into market_listings (owned_card_id, card_id, seller_id, price_cents, fee_bp, min_fee_cents, state, closed_at) values ($1, $2, 'u1', 1000, 500, 25, $3, $4)`,
      [c.id, c.card_id, i === 0 ? 'active' : 'delisted', i === 0 ? null : new Date()],
    );
  }
  await d.migrateRest();
});
afterAll(() => d?.close());

describe('migration 0036: the card fields on market listings', () => {
  it('fills every listing from its card and keeps new ones in step', async () => {
    const fields = () =>
      d.exec(`select card_id, set_name, class_id is not null as has_class, grade::float8 as grade, state::text as state from market_listings order by set_name`);
    expect(await fields()).toEqual([
      { card_id: raw, set_name: 'Dawn', has_class: true, grade: null, state: 'delisted' },
      { card_id: graded, set_name: 'Eclipse', has_class: true, grade: 9.5, state: 'active' },
    ]);
    await d.exec(`update cards set set_name = 'Eclipse II', grade = 10 where id = $1`, [graded]);
    expect((await fields()).find((r) => r.card_id === graded)).toMatchObject({ set_name: 'Eclipse II', grade: 10 });
    // The trigram index answers "name contains".
    expect(await d.exec(`select name from cards where name ilike '%sentin%'`)).toEqual([{ name: 'Eclipse Sentinel' }]);
  });
});
