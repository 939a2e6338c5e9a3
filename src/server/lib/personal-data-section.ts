import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

// The shape of a module's personal-data section (docs/privacy.md). It lives below the modules so
// each module's personal-data.ts can declare its section without importing the registry
// (modules/personal-data.ts), which imports every module: a type import is a dependency too (issue 42).

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
