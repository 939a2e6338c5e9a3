import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { appSettings } from '../../db/schema/settings.ts';

/**
 * The one writer of `app_settings` (ADR 0013): buyback rates, the wallet's adjustment limits and
 * shipping's fees each keep one JSON value under their own key. Callers validate the value; this
 * only stores and reads it.
 */

/** The stored value of `key`, or undefined when it was never set. */
export async function readSetting(db: DbOrTx, key: string): Promise<unknown> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  return row?.value;
}

/** Sets `key` to `value`, replacing what was there. */
export async function writeSetting(db: DbOrTx, key: string, value: unknown): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
}

/** Sets `key` to `value` only if it has no value yet (a default written at start-up or by the seed). */
export async function seedSetting(db: DbOrTx, key: string, value: unknown): Promise<void> {
  await db.insert(appSettings).values({ key, value }).onConflictDoNothing({ target: appSettings.key });
}
