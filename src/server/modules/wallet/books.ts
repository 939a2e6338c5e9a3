import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { BooksCheck } from '../../../shared/contracts/books.ts';
import { KIND_HOUSE_ACCOUNTS } from '../../../shared/contracts/wallet.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The money half of reconciliation (issue 14): every journal entry sums to zero per currency,
 * every cached wallet balance equals the sum of its postings, no wallet is below zero, and every
 * entry's house leg is on an account its kind may touch (issue 38). Each
 * check is one statement, so it reads one consistent snapshot however busy the shop is; each is
 * one pass over `postings` (docs/decisions/0010-double-entry-ledger.md; 1M postings: see
 * docs/performance.md and scripts/books-at-scale.ts).
 */

export type BooksCheckFn = (db: DbOrTx) => Promise<BooksCheck>;

/** How many offenders a failed check lists. */
const SHOWN = 20;

type Rows<T> = T[] | { rows: T[] };
const rowsOf = <T>(r: Rows<T>): T[] => (Array.isArray(r) ? r : r.rows);
async function query<T extends Record<string, unknown>>(db: DbOrTx, q: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf((await db.execute<T>(q)) as unknown as Rows<T>);
}

/**
 * Every entry sums to zero per currency. Grouping a million postings by entry takes seconds, so
 * the check is a fingerprint in one scan: Σ amount × h(entry), with h a 64-bit hash of the entry
 * id salted afresh on each run. Balanced entries add 0 each; any unbalanced set makes the total
 * non-zero except with a chance of about 2^-64 (a random linear combination). The commit
 * trigger already refuses unbalanced entries; this catches what bypassed it. When the
 * fingerprint is off, the exact grouped query names the entries.
 */
export const entriesBalance: BooksCheckFn = async (db) => {
  const salt = randomInt(2 ** 47);
  const sums = await query<{ currency: string; total: string; fingerprint: string; postings: string }>(
    db,
    sql`select "currency", sum("amount_cents")::text as "total",
        sum("amount_cents"::numeric * uuid_hash_extended("entry_id", ${salt}::bigint))::text as "fingerprint", count(*)::text as "postings"
      from "postings" group by "currency"`,
  );
  const off = sums.filter((r) => r.total !== '0' || r.fingerprint !== '0');
  const unbalanced =
    off.length === 0
      ? []
      : await query<{ entry_id: string; currency: string; total: string }>(
          db,
          sql`select "entry_id", "currency", sum("amount_cents")::text as "total" from "postings"
            group by "entry_id", "currency" having sum("amount_cents") <> 0 limit ${SHOWN}`,
        );
  return {
    name: 'entries_sum_to_zero',
    ok: off.length === 0,
    details: {
      postings: sums.reduce((n, r) => n + Number(r.postings), 0),
      currencies: sums.map((r) => r.currency),
      unbalanced: unbalanced.map((r) => ({ entryId: r.entry_id, currency: r.currency, offCents: Number(r.total) })),
    },
  };
};

export const cachedBalances: BooksCheckFn = async (db) => {
  const rows = await query<{ user_id: string; cents: string | null; total: string | null }>(
    db,
    sql`with s as (select "account_id", sum("amount_cents") as "total" from "postings" group by "account_id")
      select a."user_id", b."cents"::text as "cents", s."total"::text as "total"
      from "ledger_accounts" a
      left join "balances" b on b."account_id" = a."id"
      left join s on s."account_id" = a."id"
      where a."kind" = 'user_wallet' and (b."cents" is null or b."cents" <> coalesce(s."total", 0))
      limit ${SHOWN}`,
  );
  return {
    name: 'balances_equal_postings',
    ok: rows.length === 0,
    details: {
      mismatched: rows.map((r) => ({ userId: r.user_id, cachedCents: r.cents === null ? null : Number(r.cents), postedCents: Number(r.total ?? 0) })),
    },
  };
};

/**
 * Every hold account (ADR 0028 part 2) sums to its cached `held_cents`, and no balance row holds
 * money without one: held money is counted once, and never below zero (a CHECK keeps that).
 */
export const cachedHolds: BooksCheckFn = async (db) => {
  const rows = await query<{ user_id: string; held: string | null; total: string | null }>(
    db,
    sql`with s as (select p."account_id", sum(p."amount_cents") as "total" from "postings" p
        join "ledger_accounts" h on h."id" = p."account_id" and h."kind"::text = 'user_hold' group by p."account_id")
      select coalesce(b."user_id", a."user_id") as "user_id", b."held_cents"::text as "held", s."total"::text as "total"
      from "balances" b
      full join "ledger_accounts" a on a."id" = b."hold_account_id"
      left join s on s."account_id" = a."id"
      where (a."id" is not null or b."held_cents" <> 0) and (a."kind" is null or a."kind"::text = 'user_hold')
        and coalesce(b."held_cents", -1) <> coalesce(s."total", 0)
      limit ${SHOWN}`,
  );
  return {
    name: 'holds_equal_postings',
    ok: rows.length === 0,
    details: {
      mismatched: rows.map((r) => ({ userId: r.user_id, cachedCents: r.held === null ? null : Number(r.held), postedCents: Number(r.total ?? 0) })),
    },
  };
};

export const noNegativeWallets: BooksCheckFn = async (db) => {
  const [row] = await query<{ n: string }>(db, sql`select count(*)::text as "n" from "balances" where "cents" < 0`);
  const n = Number(row?.n ?? 0);
  return { name: 'no_negative_wallet', ok: n === 0, details: { negative: n } };
};

/** (kind, house account) pairs the journal allows, as a VALUES list (KIND_HOUSE_ACCOUNTS, the wallet's own table). */
const allowedPairs = sql.join(
  Object.entries(KIND_HOUSE_ACCOUNTS).flatMap(([kind, codes]) => codes.map((code) => sql`(${kind}::text, ${code}::text)`)),
  sql`, `,
);

/**
 * Every house leg is on an account its entry's kind may touch (issue 38): a shipping fee posted to
 * pack_sales sums to zero and moves no wallet wrongly, so only this check sees it. The wallet
 * refuses such a move; this catches whatever wrote the journal another way. One pass over the
 * house accounts' postings, each joined to its entry.
 */
export const entriesOnAllowedAccounts: BooksCheckFn = async (db) => {
  const found = await query<{ entry_id: string; kind: string; account: string; amount: string; n: string }>(
    db,
    sql`with "allowed" ("kind", "code") as (values ${allowedPairs}),
      "bad" as (
        select e."id" as "entry_id", e."kind"::text as "kind", la."code" as "account", p."amount_cents" as "amount", e."seq"
        from "ledger_accounts" la
        join "postings" p on p."account_id" = la."id"
        join "journal_entries" e on e."id" = p."entry_id"
        where la."code" is not null
          and not exists (select 1 from "allowed" a where a."kind" = e."kind"::text and a."code" = la."code")
      )
      select "entry_id", "kind", "account", "amount"::text as "amount", (select count(*) from "bad")::text as "n"
      from "bad" order by "seq" desc limit ${SHOWN}`,
  );
  const n = Number(found[0]?.n ?? 0);
  return {
    name: 'entries_on_allowed_accounts',
    ok: n === 0,
    details: {
      misrouted: n,
      entries: found.map((r) => ({ entryId: r.entry_id, kind: r.kind, account: r.account, amountCents: Number(r.amount) })),
    },
  };
};

export const moneyChecks: readonly BooksCheckFn[] = [entriesBalance, cachedBalances, cachedHolds, noNegativeWallets, entriesOnAllowedAccounts];

/** Runs the checks (in parallel where the database allows) and times them. */
export async function reconcile(db: DbOrTx, checks: readonly BooksCheckFn[]) {
  const started = performance.now();
  const results = await Promise.all(checks.map((check) => check(db)));
  return { ok: results.every((r) => r.ok), checks: results, tookMs: Math.round(performance.now() - started) };
}

/** Proves the money books (see above). */
export function reconcileMoney(db: DbOrTx) {
  return reconcile(db, moneyChecks);
}
