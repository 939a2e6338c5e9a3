import { z } from 'zod';

/** GET /api/admin/books/reconcile: the proof that the books hold (modules/books). */
export const booksCheckSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  /** What was checked, and the first offenders when it failed. */
  details: z.record(z.string(), z.unknown()),
});
export type BooksCheck = z.infer<typeof booksCheckSchema>;

export const reconcileSchema = z.object({
  ok: z.boolean(),
  checks: z.array(booksCheckSchema),
  tookMs: z.number(),
});
export type Reconcile = z.infer<typeof reconcileSchema>;
