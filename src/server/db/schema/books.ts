import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { BooksCheck } from '../../../shared/contracts/books.ts';

/**
 * The latest run of the books' reconciliation (modules/books). It scans every posting (seconds at
 * a million), so a scheduled job and each manual GET /api/admin/books/reconcile store their
 * result here and the admin dashboard reads it instead of running it per page view.
 */
export const booksReconcileRuns = pgTable(
  'books_reconcile_runs',
  {
    id: integer('id').primaryKey().default(1),
    ok: boolean('ok').notNull(),
    checks: jsonb('checks').$type<BooksCheck[]>().notNull(),
    tookMs: integer('took_ms').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('books_reconcile_runs_one_row', sql`${t.id} = 1`)],
);
