import { isForeignKeyViolation } from '../../db/errors.ts';
import { eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { uploads } from '../uploads/tables.ts';
import { AppError } from '../../http/errors.ts';
import { plural, verb } from '../../../shared/words.ts';

/** Small helpers shared by the catalog's entity files: archive filters, in-use refusals, image checks. */

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function archivedWhere(col: PgColumn, mode: 'active' | 'archived' | 'all'): SQL | undefined {
  if (mode === 'active') return isNull(col);
  if (mode === 'archived') return isNotNull(col);
  return undefined;
}

export const inUse = (what: string, n: number, by: string) =>
  new AppError(409, 'in_use', `${plural(n, by)} still ${verb(n, 'uses', 'use')} this ${what}. Archive it instead.`);

/** Something else in the database (packs, owned cards…) references the row. */
const referencedElsewhere = (what: string) =>
  new AppError(409, 'in_use', `Other records still refer to this ${what}. Archive it instead.`);

export async function withFkGuard<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw referencedElsewhere(what);
    throw err;
  }
}

export async function uploadExists(db: DbOrTx, key: string) {
  const [row] = await db.select({ key: uploads.key }).from(uploads).where(eq(uploads.key, key)).limit(1);
  return !!row;
}
