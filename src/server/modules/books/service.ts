import { eq, sql } from 'drizzle-orm';
import type { Reconcile } from '../../../shared/contracts/books.ts';
import type { DbOrTx } from '../../db/client.ts';
import { booksReconcileRuns } from '../../db/schema/books.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { reconcileStock } from '../inventory/service.ts';
import { moneyChecks, reconcile, type BooksCheckFn } from '../wallet/books.ts';

/**
 * Every check of the books, money and stock: each module that keeps books adds its checks here
 * (one function per check, answering { name, ok, details }).
 */
const stock: BooksCheckFn = async (db) => {
  const r = await reconcileStock(db);
  return { name: 'stock', ok: r.ok, details: r.details };
};

export const booksChecks: readonly BooksCheckFn[] = [...moneyChecks, stock];

/** Runs every check and keeps the result as the latest run (the dashboard shows it). */
export async function reconcileAndStore(db: DbOrTx): Promise<Reconcile> {
  const r = await reconcile(db, booksChecks);
  const row = { ok: r.ok, checks: r.checks, tookMs: r.tookMs, checkedAt: sql`now()` };
  await db.insert(booksReconcileRuns).values({ id: 1, ...row }).onConflictDoUpdate({ target: booksReconcileRuns.id, set: row });
  return r;
}

export interface StoredReconcile {
  ok: boolean;
  checks: Reconcile['checks'];
  tookMs: number;
  checkedAt: Date;
}

/** The latest stored run, or null before the first. */
export async function latestReconcile(db: DbOrTx): Promise<StoredReconcile | null> {
  const [row] = await db.select().from(booksReconcileRuns).where(eq(booksReconcileRuns.id, 1));
  return row ?? null;
}

export const BOOKS_RECONCILE_EVERY_MS = 10 * 60_000;

/** Keeps the stored reconciliation fresh: every 10 minutes, once across processes. */
export function booksReconcileJob(): Job {
  return {
    name: 'books-reconcile',
    everyMs: BOOKS_RECONCILE_EVERY_MS,
    async run(deps) {
      const r = await reconcileAndStore(deps.db);
      if (!r.ok) deps.log.error('books do not reconcile', { failed: r.checks.filter((c) => !c.ok).map((c) => c.name) });
    },
  };
}
