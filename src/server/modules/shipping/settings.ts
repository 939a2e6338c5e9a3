import {
  COUNTRIES,
  DEFAULT_SHIPPING_SETTINGS,
  MAX_SHIPMENT_CARDS,
  shippingSettingsSchema,
  type ShippingOptions,
  type ShippingSettings,
} from '../../../shared/contracts/shipping.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { readSetting, seedSetting, writeSetting } from '../settings/service.ts';
import { audit } from '../audit/service.ts';

/** app_settings key of the fees, insurance and countries shipped to (one JSON value). */
export const SHIPPING_SETTINGS_KEY = 'shipping.settings';

/** The stored settings, or the defaults when none (or a value no longer valid) is stored. */
export async function getShippingSettings(db: DbOrTx): Promise<ShippingSettings> {
  const value = await readSetting(db, SHIPPING_SETTINGS_KEY);
  const parsed = value !== undefined ? shippingSettingsSchema.safeParse(value) : null;
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
  await writeSetting(tx, SHIPPING_SETTINGS_KEY, input);
  await audit(tx, { actorId: actor.actorId, action: 'shipping.settings.update', targetType: 'shipping_settings', before, after: input, ip: actor.ip });
  return input;
}

/** Dev seed: store the defaults once, so the admin page shows what applies. */
export async function seedShippingSettings(db: DbOrTx): Promise<void> {
  await seedSetting(db, SHIPPING_SETTINGS_KEY, DEFAULT_SHIPPING_SETTINGS);
}
