import { eq, sql } from 'drizzle-orm';
import {
  COUNTRIES,
  DEFAULT_SHIPPING_SETTINGS,
  MAX_SHIPMENT_CARDS,
  shippingSettingsSchema,
  type ShippingOptions,
  type ShippingSettings,
} from '../../../shared/contracts/shipping.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { appSettings } from '../../db/schema/settings.ts';
import { audit } from '../audit/service.ts';

/** app_settings key of the fees, insurance and countries shipped to (one JSON value). */
export const SHIPPING_SETTINGS_KEY = 'shipping.settings';

/** The stored settings, or the defaults when none (or a value no longer valid) is stored. */
export async function getShippingSettings(db: DbOrTx): Promise<ShippingSettings> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SHIPPING_SETTINGS_KEY));
  const parsed = row ? shippingSettingsSchema.safeParse(row.value) : null;
  return parsed?.success ? parsed.data : DEFAULT_SHIPPING_SETTINGS;
}

export async function getShippingOptions(db: DbOrTx): Promise<ShippingOptions> {
  const s = await getShippingSettings(db);
  return {
    ...s,
    countryOptions: s.countries.map((code) => ({ code, name: COUNTRIES[code] ?? code })).sort((a, b) => a.name.localeCompare(b.name)),
    maxCards: MAX_SHIPMENT_CARDS,
  };
}

export async function putShippingSettings(tx: Tx, actor: { actorId: string; ip: string | null }, input: ShippingSettings): Promise<ShippingSettings> {
  const before = await getShippingSettings(tx);
  await tx
    .insert(appSettings)
    .values({ key: SHIPPING_SETTINGS_KEY, value: input })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: input, updatedAt: sql`now()` } });
  await audit(tx, { actorId: actor.actorId, action: 'shipping.settings.update', targetType: 'shipping_settings', before, after: input, ip: actor.ip });
  return input;
}

/** Dev seed: store the defaults once, so the admin page shows what applies. */
export async function seedShippingSettings(db: DbOrTx): Promise<void> {
  await db.insert(appSettings).values({ key: SHIPPING_SETTINGS_KEY, value: DEFAULT_SHIPPING_SETTINGS }).onConflictDoNothing({ target: appSettings.key });
}
