import type { ActorCtx } from '../../http/types.ts';
import { asc, inArray, sql } from 'drizzle-orm';
import {
  type BuybackRates,
  type updateBuybackRatesSchema,
} from '../../../shared/contracts/collection.ts';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { cardClasses } from '../catalog/tables.ts';
import { setClassBuybackRate } from '../catalog/classes.ts';
import { setting, writeRegistrySetting } from '../settings/store.ts';
import { badRequest } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';

/** Settings registry key of the default buyback rate (basis points). */
export const DEFAULT_RATE_KEY = 'buyback.defaultRateBp' as const;

/** The default rate, from the settings cache (the registry validates it; its default is DEFAULT_BUYBACK_RATE_BP). */
export function getDefaultRateBp(): number {
  return setting(DEFAULT_RATE_KEY);
}

/** The rate a card of this class sells at: the class override, else the default (SQL, for lists). */
export function effectiveRateSql(defaultRateBp: number) {
  return sql<number>`coalesce(${cardClasses.buybackRateBp}, ${defaultRateBp})::int`;
}

/** `defaultRateBp`: the rate to apply instead of the cached one (a change not committed yet). */
export async function getRates(db: DbOrTx, defaultRateBp = getDefaultRateBp()): Promise<BuybackRates> {
  const [classes] = await Promise.all([
    db
      .select({
        id: cardClasses.id,
        name: cardClasses.name,
        colour: cardClasses.colour,
        archivedAt: cardClasses.archivedAt,
        rateBp: cardClasses.buybackRateBp,
      })
      .from(cardClasses)
      .orderBy(asc(cardClasses.sortOrder), asc(cardClasses.name)),
  ]);
  return {
    defaultRateBp,
    classes: classes.map((c) => ({
      id: c.id,
      name: c.name,
      colour: c.colour,
      archived: c.archivedAt !== null,
      rateBp: c.rateBp,
      effectiveRateBp: c.rateBp ?? defaultRateBp,
    })),
  };
}

/** Sets the default and the listed classes' overrides, with one audit entry for the change. */
export async function updateRates(
  tx: Tx,
  actor: ActorCtx,
  input: z.output<typeof updateBuybackRatesSchema>,
): Promise<BuybackRates> {
  const before = await getRates(tx);
  const known = new Set(before.classes.map((c) => c.id));
  const unknown = input.classes.filter((c) => !known.has(c.classId));
  if (unknown.length) {
    const fields: Record<string, string[]> = {};
    input.classes.forEach((c, i) => {
      if (!known.has(c.classId)) fields[`classes.${i}.classId`] = ['No class with this id.'];
    });
    throw badRequest('Some classes do not exist (any more). Reload the page and try again.', fields);
  }
  // The settings registry's writer: its NOTIFY goes out with this transaction (the route refreshes the cache after).
  await writeRegistrySetting(tx, DEFAULT_RATE_KEY, input.defaultRateBp);
  for (const c of input.classes) await setClassBuybackRate(tx, c.classId, c.rateBp);
  const after = await getRates(tx, input.defaultRateBp);
  const changedIds = new Set(input.classes.map((c) => c.classId));
  const pick = (r: BuybackRates) => ({
    defaultRateBp: r.defaultRateBp,
    classes: Object.fromEntries(r.classes.filter((c) => changedIds.has(c.id)).map((c) => [c.id, c.rateBp])),
  });
  await audit(tx, {
    actorId: actor.actorId,
    action: 'buyback.rates.update',
    targetType: 'buyback_rates',
    targetId: null,
    before: pick(before),
    after: pick(after),
    ip: actor.ip,
  });
  return after;
}

/** Class rates for a set of classes (class id → effective rate). */
export async function ratesFor(db: DbOrTx, classIds: string[]): Promise<Map<string, number>> {
  const defaultRateBp = getDefaultRateBp();
  const rows = classIds.length
    ? await db.select({ id: cardClasses.id, rateBp: cardClasses.buybackRateBp }).from(cardClasses).where(inArray(cardClasses.id, classIds))
    : [];
  return new Map(rows.map((r) => [r.id, r.rateBp ?? defaultRateBp]));
}
