import {
  DEFAULT_REFERRAL_SETTINGS,
  referralSettingsSchema,
  type ReferralOffer,
  type ReferralSettings,
} from '../../../shared/contracts/referrals.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { ActorCtx } from '../../http/types.ts';
import { audit } from '../audit/service.ts';
import { readSetting, seedSetting, writeSetting } from '../settings/service.ts';

/** app_settings key of the referral programme's terms (one JSON value). */
export const REFERRAL_SETTINGS_KEY = 'referrals.settings';

/** The stored terms, or the defaults when none (or a value no longer valid) is stored. */
export async function getReferralSettings(db: DbOrTx): Promise<ReferralSettings> {
  const value = await readSetting(db, REFERRAL_SETTINGS_KEY);
  const parsed = value !== undefined ? referralSettingsSchema.safeParse(value) : null;
  return parsed?.success ? parsed.data : DEFAULT_REFERRAL_SETTINGS;
}

export function offerOf(s: ReferralSettings, currency: string): ReferralOffer {
  return { ...s, currency };
}

export async function getReferralOffer(db: DbOrTx, currency: string): Promise<ReferralOffer> {
  return offerOf(await getReferralSettings(db), currency);
}

/** PUT /api/admin/referrals/settings: audited with before and after. */
export async function putReferralSettings(tx: Tx, actor: ActorCtx, input: ReferralSettings): Promise<ReferralSettings> {
  const before = await getReferralSettings(tx);
  await writeSetting(tx, REFERRAL_SETTINGS_KEY, input);
  await audit(tx, { actorId: actor.actorId, action: 'referrals.settings.update', targetType: 'referral_settings', before, after: input, ip: actor.ip });
  return input;
}

/** Dev seed: store the defaults once, so the admin page shows what applies. */
export async function seedReferralSettings(db: DbOrTx): Promise<void> {
  await seedSetting(db, REFERRAL_SETTINGS_KEY, DEFAULT_REFERRAL_SETTINGS);
}
