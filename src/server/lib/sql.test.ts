import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { marketListings } from '../db/schema/market.ts';
import { eqLiteral } from './sql.ts';

const dialect = new PgDialect();

describe('eqLiteral', () => {
  it('writes the constant into the statement, so a partial index can serve it', () => {
    const q = dialect.sqlToQuery(eqLiteral(marketListings.state, 'active'));
    expect(q.sql).toBe(`"market_listings"."state" = 'active'`);
    expect(q.params).toEqual([]);
  });

  it('refuses anything but an identifier-like constant (no quoting games)', () => {
    for (const bad of ["active' or '1'='1", 'Active', '', 'a b', "o'brien"]) {
      expect(() => eqLiteral(marketListings.state, bad), bad).toThrow(/identifier-like/);
    }
  });
});
