import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileMoney } from '../modules/wallet/books.ts';
import { credit } from '../modules/wallet/service.ts';
import { createLogger } from '../lib/logger.ts';
import { createBus } from '../modules/realtime/bus.ts';
import type { DbHandle } from './client.ts';
import { freshDbUpTo, type Exec, type FreshDb } from './migration-test-support.ts';

/**
 * Migration 0009 (double-entry ledger) on a database filled by the old code: migrate a fresh
 * database up to 0008, write money the way the one-sided wallet service did (its SQL, copied
 * below), run the rest, and check that the books reconcile and that every user's history reads
 * back exactly as before.
 */

const BEFORE = '0008_prune-indexes';

/** The old wallet service's credit and debit (before migration 0009), statement for statement. */
function oldWallet(exec: Exec) {
  const entry = async (
    userId: string,
    signed: number,
    kind: string,
    o: { refType?: string; refId?: string; actor?: string | null; key?: string; memo?: string },
  ) => {
    const moved =
      signed > 0
        ? await exec(
            `insert into balances (user_id, cents) values ($1, $2) on conflict (user_id) do update set cents = balances.cents + $2, updated_at = now() returning cents`,
            [userId, signed],
          )
        : await exec(`update balances set cents = cents - $2::bigint, updated_at = now() where user_id = $1 and cents >= $2::bigint returning cents`, [
            userId,
            -signed,
          ]);
    if (moved.length === 0) throw new Error('insufficient funds');
    const [row] = await exec(
      `insert into ledger_entries (user_id, amount_cents, kind, reference_type, reference_id, actor_id, idempotency_key, balance_after, memo)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
      [userId, signed, kind, o.refType ?? null, o.refId ?? null, o.actor ?? null, o.key ?? null, moved[0]!.cents, o.memo ?? null],
    );
    return String(row!.id);
  };
  return { entry };
}

const HISTORY = `select id, user_id, amount_cents::text as amount_cents, kind::text as kind, reference_type, reference_id, actor_id, idempotency_key,
  balance_after::text as balance_after, memo, created_at from ledger_entries order by seq`;

describe('migration 0009 on the one-sided journal', () => {
  let db: FreshDb;
  let handle: DbHandle;
  const ids = { u1: 'mig_u1', u2: 'mig_u2', u3: 'mig_u3', admin: 'mig_admin' };
  const d1 = randomUUID();
  const d2 = randomUUID();
  const entries: Record<string, string> = {};
  let history: Array<Record<string, unknown>>;

  beforeAll(async () => {
    db = await freshDbUpTo(BEFORE);
    for (const id of Object.values(ids)) {
      await db.exec(`insert into "user" (id, name, email, username, role, email_verified) values ($1, $1, $1 || '@example.test', $1, 'user', true)`, [id]);
    }
    await db.exec(
      `insert into deposits (id, user_id, amount_cents, currency, status, provider, test_mode) values
       ($1, $3, 5000, 'usd', 'succeeded', 'stripe', false), ($2, $4, 2000, 'usd', 'succeeded', 'sandbox', true)`,
      [d1, d2, ids.u1, ids.u2],
    );
    const w = oldWallet(db.exec);
    entries.dep1 = await w.entry(ids.u1, 5000, 'deposit', { refType: 'deposit', refId: d1, key: `deposit:${d1}`, memo: 'Card deposit via stripe' });
    entries.dep2 = await w.entry(ids.u2, 2000, 'deposit', { refType: 'deposit', refId: d2, key: `deposit:${d2}`, memo: 'TEST MODE deposit' });
    entries.buy1 = await w.entry(ids.u1, -300, 'pack_purchase', { refType: 'purchase', refId: randomUUID(), actor: ids.u1, key: 'open-1', memo: '1 × Pack' });
    entries.sell1 = await w.entry(ids.u1, 255, 'buyback', { refType: 'buyback', refId: randomUUID(), actor: ids.u1, key: 'buyback:b1' });
    entries.promo1 = await w.entry(ids.u1, 500, 'promo_credit', { refType: 'promo_redemption', refId: randomUUID(), actor: ids.u1, key: 'promo:P' });
    // The same key for another user: keys were unique per user, and must stay so.
    entries.promo2 = await w.entry(ids.u2, 500, 'promo_credit', { refType: 'promo_redemption', refId: randomUUID(), actor: ids.u2, key: 'promo:P' });
    entries.adj1 = await w.entry(ids.u1, -100, 'admin_adjustment', { refType: 'admin_action', refId: ids.admin, actor: ids.admin, memo: 'correction' });
    entries.adj2 = await w.entry(ids.u2, 50, 'admin_adjustment', { refType: 'admin_action', refId: ids.admin, actor: ids.admin, memo: 'goodwill' });
    entries.buy2 = await w.entry(ids.u2, -600, 'pack_purchase', { refType: 'purchase', refId: randomUUID(), actor: ids.u2, key: 'open-2' });
    entries.refund1 = await w.entry(ids.u1, -1000, 'refund', { refType: 'deposit', refId: d1, key: `deposit-refund:${d1}:1000` });
    // lockBalance created a row at zero for a user who never moved money.
    await db.exec(`insert into balances (user_id, cents) values ($1, 0)`, [ids.u3]);
    await db.exec(`insert into buybacks (user_id, card_count, market_value_cents, total_cents, ledger_entry_id) values ($1, 1, 300, 255, $2)`, [
      ids.u1,
      entries.sell1,
    ]);
    history = await db.exec(HISTORY);
    expect(history).toHaveLength(10);

    await db.migrateRest();
    handle = await db.open();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('reconciles: every entry sums to zero, every balance equals its postings', async () => {
    const r = await reconcileMoney(handle.db);
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.ok).toBe(true);
    const balances = await db.exec(`select b.user_id, b.cents::text as cents, (select coalesce(sum(amount_cents), 0) from postings p where p.account_id = b.account_id)::text as posted
      from balances b order by b.user_id`);
    expect(balances).toEqual([
      { user_id: ids.u1, cents: '4355', posted: '4355' },
      { user_id: ids.u2, cents: '1950', posted: '1950' },
      { user_id: ids.u3, cents: '0', posted: '0' },
    ]);
  });

  it('reads every history back exactly as before (ids, order, amounts, balances after)', async () => {
    expect(await db.exec(HISTORY)).toEqual(history);
  });

  it('posts each old entry against the house account of its kind (deposits: their provider)', async () => {
    const legs = await db.exec(`select p.entry_id, a.code, p.amount_cents::text as amount from postings p join ledger_accounts a on a.id = p.account_id where a.code is not null`);
    const byEntry = new Map(legs.map((l) => [String(l.entry_id), [l.code, l.amount]]));
    expect(Object.fromEntries(Object.entries(entries).map(([k, id]) => [k, byEntry.get(id)]))).toEqual({
      dep1: ['clearing:stripe', '-5000'],
      dep2: ['clearing:sandbox', '-2000'],
      buy1: ['pack_sales', '300'],
      sell1: ['buyback_expense', '-255'],
      promo1: ['promo_expense', '-500'],
      promo2: ['promo_expense', '-500'],
      adj1: ['admin_adjustments', '100'],
      adj2: ['admin_adjustments', '-50'],
      buy2: ['pack_sales', '600'],
      refund1: ['clearing:stripe', '1000'],
    });
    const [count] = await db.exec(`select count(*)::int as n, count(distinct entry_id)::int as entries from postings`);
    expect(count).toEqual({ n: 20, entries: 10 });
    const [currency] = await db.exec(`select array_agg(distinct currency) as c from ledger_accounts`);
    expect(currency!.c).toEqual(['USD']);
  });

  it('keeps the old per-user idempotency keys and moves money as before afterwards', async () => {
    const log = createLogger('silent');
    const deps = { db: handle.db, bus: await createBus(handle, log), log };
    try {
      const again = deps.db.transaction((tx) => credit(tx, { userId: ids.u1, amountCents: 500, kind: 'promo_credit', idempotencyKey: 'promo:P' }));
      await expect(again).rejects.toThrow();
      const u3 = await deps.db.transaction((tx) => credit(tx, { userId: ids.u3, amountCents: 500, kind: 'promo_credit', idempotencyKey: 'promo:P' }));
      expect(u3.balanceCents).toBe(500);
      expect((await reconcileMoney(handle.db)).ok).toBe(true);
    } finally {
      await deps.bus.close();
    }
  });

  it('points purchases and buybacks at journal entries', async () => {
    const [b] = await db.exec(`select j.kind::text as kind from buybacks b join journal_entries j on j.id = b.ledger_entry_id`);
    expect(b).toEqual({ kind: 'buyback' });
    await expect(
      db.exec(`insert into buybacks (user_id, card_count, market_value_cents, total_cents, ledger_entry_id) values ($1, 1, 1, 1, $2)`, [ids.u1, randomUUID()]),
    ).rejects.toThrow(/foreign key/);
  });
});
