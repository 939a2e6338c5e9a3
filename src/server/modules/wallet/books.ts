import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { BooksCheck } from '../../../shared/contracts/books.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The money half of reconciliation (issue 14): every journal entry sums to zero per currency,
 * every cached wallet balance equals the sum of its postings, and no wallet is below zero. Each
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

export const noNegativeWallets: BooksCheckFn = async (db) => {
  const [row] = await query<{ n: string }>(db, sql`select count(*)::text as "n" from "balances" where "cents" < 0`);
  const n = Number(row?.n ?? 0);
  return { name: 'no_negative_wallet', ok: n === 0, details: { negative: n } };
};

export const moneyChecks: readonly BooksCheckFn[] = [entriesBalance, cachedBalances, noNegativeWallets];

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
