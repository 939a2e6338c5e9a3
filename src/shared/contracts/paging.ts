import { z } from 'zod';

/**
 * Paging, the same for every list: `?page=1&pageSize=N` (1-based, bounded), answered with
 * `{ items, total, page, pageSize }` plus whatever a list adds (refs, counts, summaries).
 */

export const pageSchema = z.coerce.number().int().min(1).max(100_000).default(1);
/** A list's page size: its default and its maximum. */
export const pageSizeSchema = (def: number, max = 100) => z.coerce.number().int().min(1).max(max).default(def);

/** The response of a paged list of `item`; `.extend({...})` for what a list adds. */
export const pagedSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export function paged<T>(items: T[], total: number, page: number, pageSize: number): Paged<T> {
  return { items, total, page, pageSize };
}
