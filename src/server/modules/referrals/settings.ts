import {
  DEFAULT_REFERRAL_SETTINGS,
  type ReferralOffer,
  type ReferralSettings,
} from '../../../shared/contracts/referrals.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { ActorCtx } from '../../http/types.ts';
import { audit } from '../audit/service.ts';
import { seedSetting } from '../settings/service.ts';
import { setting, writeRegistrySetting } from '../settings/store.ts';

/** app_settings key of the referral programme's terms (one JSON value). */
export const REFERRAL_SETTINGS_KEY = 'referrals.settings' as const;

/** The terms, from the settings cache (the registry falls back to the defaults for a value no longer valid). */
export function getReferralSettings(): ReferralSettings {
  return setting(REFERRAL_SETTINGS_KEY);
}

export function offerOf(s: ReferralSettings, currency: string): ReferralOffer {
  return { ...s, currency };
}

export function getReferralOffer(currency: string): ReferralOffer {
  return offerOf(getReferralSettings(), currency);
}

/** PUT /api/admin/referrals/settings: audited with before and after. */
export async function putReferralSettings(tx: Tx, actor: ActorCtx, input: ReferralSettings): Promise<ReferralSettings> {
  const before = getReferralSettings();
  await writeRegistrySetting(tx, REFERRAL_SETTINGS_KEY, input);
  await audit(tx, { actorId: actor.actorId, action: 'referrals.settings.update', targetType: 'referral_settings', before, after: input, ip: actor.ip });
  return input;
}

/** Dev seed: store the defaults once, so the admin page shows what applies. */
export async function seedReferralSettings(db: DbOrTx): Promise<void> {
  await seedSetting(db, REFERRAL_SETTINGS_KEY, DEFAULT_REFERRAL_SETTINGS);
}
