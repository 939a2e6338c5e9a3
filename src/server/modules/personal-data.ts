import type { DbOrTx } from '../db/client.ts';
import type { DataSubject, PersonalDataSection } from '../lib/personal-data-section.ts';
import { accountPersonalData } from './account/personal-data.ts';
import { auditPersonalData } from './audit/personal-data.ts';
import { buybackPersonalData } from './buyback/personal-data.ts';
import { catalogPersonalData } from './catalog/personal-data.ts';
import { collectionPersonalData } from './collection/personal-data.ts';
import { dashboardPersonalData } from './dashboard/personal-data.ts';
import { dropsPersonalData } from './drops/personal-data.ts';
import { fairnessPersonalData } from './fairness/personal-data.ts';
import { inventoryPersonalData } from './inventory/personal-data.ts';
import { mailPersonalData } from './mail/personal-data.ts';
import { marketPersonalData } from './market/personal-data.ts';
import { notificationsPersonalData } from './notifications/personal-data.ts';
import { paymentsPersonalData } from './payments/personal-data.ts';
import { platformPersonalData } from './platform/personal-data.ts';
import { promoPersonalData } from './promo/personal-data.ts';
import { referralsPersonalData } from './referrals/personal-data.ts';
import { responsiblePlayPersonalData } from './responsible-play/personal-data.ts';
import { shippingPersonalData } from './shipping/personal-data.ts';
import { shopPersonalData } from './shop/personal-data.ts';
import { vaultProofPersonalData } from './vault-proof/personal-data.ts';
import { walletPersonalData } from './wallet/personal-data.ts';

/**
 * What each domain holds about a person, for "download everything held about me" and account
 * deletion (docs/privacy.md). Every table with a column that holds a user's id or email is listed
 * by exactly one section; personal-data.test.ts walks the schema and fails on a table nobody
 * lists.
 */

export type { DataSubject, PersonalDataSection, PersonalTable } from '../lib/personal-data-section.ts';

/** In export order. The account section runs last on deletion: it pseudonymises the user row. */
export const personalDataSections: readonly PersonalDataSection[] = [
  walletPersonalData,
  paymentsPersonalData,
  promoPersonalData,
  referralsPersonalData,
  responsiblePlayPersonalData,
  shopPersonalData,
  fairnessPersonalData,
  collectionPersonalData,
  buybackPersonalData,
  // Before inventory and the account: ends the person's active listings.
  marketPersonalData,
  dropsPersonalData,
  shippingPersonalData,
  catalogPersonalData,
  inventoryPersonalData,
  vaultProofPersonalData,
  auditPersonalData,
  mailPersonalData,
  notificationsPersonalData,
  dashboardPersonalData,
  platformPersonalData,
  accountPersonalData,
];

export async function exportPersonalData(db: DbOrTx, subject: DataSubject): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  for (const s of personalDataSections) data[s.name] = await s.export(db, subject);
  return data;
}

export async function erasePersonalData(tx: DbOrTx, subject: DataSubject): Promise<void> {
  for (const s of personalDataSections) await s.erase(tx, subject);
}
