import type { Exec } from './seed.ts';

export interface Invariants {
  ok: boolean;
  openings: number;
  /** Openings committed whose 201 the bench never read (requests still in flight when a run ended). */
  unanswered_openings: number;
  checks: Record<string, number>;
  failures: string[];
}

/**
 * After the load: money, stock and cards must agree with the openings. Every check counts
 * offending rows (0 = holds). `expectedOpenings` is the number of 201 answers the bench received.
 */
export async function checkInvariants(exec: Exec, expectedOpenings?: number): Promise<Invariants> {
  const one = async (sql: string) => Number(Object.values((await exec(sql))[0] ?? { n: 0 })[0] ?? 0);
  const checks: Record<string, number> = {
    balance_not_equal_ledger: await one(`
      select count(*) as n from balances b
      full join (select user_id, sum(amount_cents) as s from ledger_entries group by user_id) l on l.user_id = b.user_id
      where coalesce(b.cents, 0) <> coalesce(l.s, 0)`),
    balance_not_equal_last_entry: await one(`
      select count(*) as n from balances b
      join lateral (select balance_after from ledger_entries e where e.user_id = b.user_id order by seq desc limit 1) last on true
      where last.balance_after <> b.cents`),
    negative_balances: await one(`select count(*) as n from balances where cents < 0`),
    // The books (ADR 0010): every journal entry sums to zero per currency (exact, per entry), and
    // every wallet's cached balance equals its postings (what reconcileMoney proves).
    unbalanced_entries: await one(`
      select count(*) as n from (select entry_id from postings group by entry_id, currency having sum(amount_cents) <> 0) x`),
    balance_not_equal_postings: await one(`
      select count(*) as n from ledger_accounts a left join balances b on b.account_id = a.id
      left join (select account_id, sum(amount_cents) as s from postings group by account_id) p on p.account_id = a.id
      where a.kind = 'user_wallet' and coalesce(b.cents, -1) <> coalesce(p.s, 0)`),
    negative_stock: await one(`select count(*) as n from cards where stock < 0`),
    stock_not_equal_openings: await one(`
      select count(*) as n from bench_initial_stock i join cards c on c.id = i.card_id
      left join (select card_id, count(*) as taken from owned_cards where acquired_via = 'opening' group by card_id) o on o.card_id = i.card_id
      where i.stock - c.stock <> coalesce(o.taken, 0)`),
    // The stock half of the books (ADR 0011, what reconcileStock proves): each card's movements sum
    // to its stock, and stock + copies out of stock equals what was ever supplied.
    stock_not_equal_movements: await one(`
      select count(*) as n from cards c left join (select card_id, sum(delta) as s from stock_movements group by card_id) m on m.card_id = c.id
      where c.stock <> coalesce(m.s, 0)`),
    stock_not_equal_supply: await one(`
      select count(*) as n from cards c
      left join (select card_id, sum(delta) as s from stock_movements where reason in ('initial', 'admin_adjust', 'csv_import') group by card_id) m on m.card_id = c.id
      left join (select card_id, count(*) as k from owned_cards where status in ('in_vault', 'in_shipment', 'shipped', 'delivered') group by card_id) o on o.card_id = c.id
      where c.stock + coalesce(o.k, 0) <> coalesce(m.s, 0)`),
    owned_cards_not_5_per_opening: await one(`
      select count(*) as n from openings op
      left join (select opening_id, count(*) as k from owned_cards where opening_id is not null group by opening_id) o on o.opening_id = op.id
      where coalesce(o.k, 0) <> jsonb_array_length(op.slots)`),
    opening_value_mismatch: await one(`
      select count(*) as n from openings op
      join (select opening_id, sum(value_cents) as v from owned_cards where opening_id is not null group by opening_id) o on o.opening_id = op.id
      where o.v <> op.total_value_cents`),
    packs_without_opening: await one(`select count(*) as n from user_packs up left join openings op on op.user_pack_id = up.id where op.id is null`),
    purchase_not_equal_ledger: await one(`
      select count(*) as n from purchases p join ledger_entries e on e.id = p.ledger_entry_id
      where e.amount_cents <> -p.total_cents or e.kind <> 'pack_purchase'`),
    purchase_quantity_not_packs: await one(`
      select count(*) as n from purchases p left join (select purchase_id, count(*) as k from user_packs group by purchase_id) u on u.purchase_id = p.id
      where coalesce(u.k, 0) <> p.quantity`),
    debits_without_purchase: await one(`
      select count(*) as n from ledger_entries e left join purchases p on p.ledger_entry_id = e.id
      where e.kind = 'pack_purchase' and p.id is null`),
    duplicate_nonces: await one(`select count(*) as n from (select seed_id, nonce from openings group by 1, 2 having count(*) > 1) d`),
  };
  const openings = await one(`select count(*) as n from openings`);
  // A 201 without an opening would be a lie. An opening without a 201 the bench saw is a request the
  // load generator gave up on at the end of a run (the server still committed it): reported, not a fault.
  if (expectedOpenings !== undefined) checks.answered_201_without_opening = Math.max(0, expectedOpenings - openings);
  const unanswered = expectedOpenings === undefined ? 0 : Math.max(0, openings - expectedOpenings);
  const failures = Object.entries(checks)
    .filter(([, n]) => n !== 0)
    .map(([k, n]) => `${k}: ${n}`);
  return { ok: failures.length === 0, openings, unanswered_openings: unanswered, checks, failures };
}
