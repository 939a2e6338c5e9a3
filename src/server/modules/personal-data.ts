import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
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
import { notificationsPersonalData } from './notifications/personal-data.ts';
import { paymentsPersonalData } from './payments/personal-data.ts';
import { platformPersonalData } from './platform/personal-data.ts';
import { promoPersonalData } from './promo/personal-data.ts';
import { referralsPersonalData } from './referrals/personal-data.ts';
import { responsiblePlayPersonalData } from './responsible-play/personal-data.ts';
import { shippingPersonalData } from './shipping/personal-data.ts';
import { shopPersonalData } from './shop/personal-data.ts';
import { walletPersonalData } from './wallet/personal-data.ts';

/**
 * What each domain holds about a person, for "download everything held about me" and account
 * deletion (docs/privacy.md). Every table with a column that holds a user's id or email is listed
 * by exactly one section; personal-data.test.ts walks the schema and fails on a table nobody
 * lists.
 */

/** The person as they were before deletion (erase steps get the old email/username). */
export interface DataSubject {
  id: string;
  email: string;
  username: string;
  name: string;
}

export interface PersonalTable {
  table: PgTable;
  /** SQL column names that hold the user's id or email (or text/JSON containing them). */
  keyedBy: readonly string[];
  /**
   * On account deletion: 'delete' the rows, or 'keep' them (money, ownership and security records
   * the business must retain). Kept rows point at the user row, which is pseudonymised: nothing in
   * them names the person any more.
   */
  onDelete: 'delete' | 'keep';
  /** Why, in a few words. */
  why: string;
}

export interface PersonalDataSection {
  /** Key under `data` in the export. */
  name: string;
  tables: readonly PersonalTable[];
  /** The rows about this person, without secrets; money in integer cents, times as ISO strings. */
  export(db: DbOrTx, subject: DataSubject): Promise<Record<string, unknown>>;
  /** Runs inside the deletion transaction, before the user row is pseudonymised. */
  erase(tx: DbOrTx, subject: DataSubject): Promise<void>;
}

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
  dropsPersonalData,
  shippingPersonalData,
  catalogPersonalData,
  inventoryPersonalData,
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
