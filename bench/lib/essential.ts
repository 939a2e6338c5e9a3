import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Script } from './pgbench.ts';
import { PACK_ID, PACK_PRICE_CENTS, PRODUCT_ID } from './seed.ts';
import { ROOT } from './server.ts';

/**
 * The hand-written essential transaction of buy-and-open (bench/sql/essential-open.sql), as a
 * pgbench script on the bench's seeded data: the floor the app (and the captured SQL) is judged
 * against, run in the same minutes as both (issue 21).
 *
 * `oneStatement`: the same work as one statement (bench/sql/essential-open-one-statement.sql), no
 * round trips inside the transaction: the floor for a baseline written as a CTE chain or a
 * PL/pgSQL function.
 */
export function essentialScript(sizes: { users: number; cards: number }, variant: 'statements' | 'oneStatement' = 'statements'): Script {
  const file = variant === 'oneStatement' ? 'essential-open-one-statement.sql' : 'essential-open.sql';
  const read = (name: string) => readFileSync(path.join(ROOT, 'bench/sql', name), 'utf8');
  const text = read('essential-vars.sql') + read(file);
  return {
    shape: variant === 'oneStatement' ? 'essential-one-statement' : 'essential',
    text,
    defines: {
      product: PRODUCT_ID,
      pack: PACK_ID,
      price: String(PACK_PRICE_CENTS),
      users: String(sizes.users),
      cards: String(sizes.cards),
    },
    statements: variant === 'oneStatement' ? 1 : text.split('\n').filter((l) => /^(select|insert|update|with|begin|commit)\b/i.test(l)).length,
  };
}
