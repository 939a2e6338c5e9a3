import {
  COUNTRIES,
  DEFAULT_SHIPPING_SETTINGS,
  MAX_SHIPMENT_CARDS,
  type ShippingOptions,
  type ShippingSettings,
} from '../../../shared/contracts/shipping.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { seedSetting } from '../settings/service.ts';
import { setting, writeRegistrySetting } from '../settings/store.ts';
import { audit } from '../audit/service.ts';

/** app_settings key of the fees, insurance and countries shipped to (one JSON value). */
export const SHIPPING_SETTINGS_KEY = 'shipping.settings' as const;

/** The settings, from the settings cache (the registry falls back to the defaults for a value no longer valid). */
export function getShippingSettings(): ShippingSettings {
  return setting(SHIPPING_SETTINGS_KEY);
}

export function getShippingOptions(): ShippingOptions {
  const s = getShippingSettings();
  return {
    ...s,
    countryOptions: s.countries.map((code) => ({ code, name: COUNTRIES[code] ?? code })).sort((a, b) => a.name.localeCompare(b.name)),
    maxCards: MAX_SHIPMENT_CARDS,
  };
}

export async function putShippingSettings(tx: Tx, actor: { actorId: string; ip: string | null }, input: ShippingSettings): Promise<ShippingSettings> {
  const before = getShippingSettings();
  await writeRegistrySetting(tx, SHIPPING_SETTINGS_KEY, input);
  await audit(tx, { actorId: actor.actorId, action: 'shipping.settings.update', targetType: 'shipping_settings', before, after: input, ip: actor.ip });
  return input;
}

/** Dev seed: store the defaults once, so the admin page shows what applies. */
export async function seedShippingSettings(db: DbOrTx): Promise<void> {
  await seedSetting(db, SHIPPING_SETTINGS_KEY, DEFAULT_SHIPPING_SETTINGS);
}
