import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `column = 'value'` with the value written into the statement rather than bound as a parameter,
 * for the constants a partial index is defined by (`where state = 'active'`). Our statements are
 * prepared (db/client.ts), and after five runs PostgreSQL may switch to a generic plan, which
 * plans `state = $1` without knowing the value: no partial index can serve it, so it scans the
 * table (bench:market: 13 ms per count instead of 1; ADR 0033). Only for fixed identifiers such
 * as enum values; anything a user typed stays a parameter.
 */
export function eqLiteral(column: Column, value: string): SQL {
  if (!/^[a-z][a-z0-9_]*$/.test(value)) throw new Error(`eqLiteral takes an identifier-like constant, not ${JSON.stringify(value)}`);
  return sql`${column} = ${sql.raw(`'${value}'`)}`;
}
