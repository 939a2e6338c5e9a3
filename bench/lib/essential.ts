import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Script } from './pgbench.ts';
import { PACK_ID, PACK_PRICE_CENTS, PRODUCT_ID } from './seed.ts';
import { ROOT } from './server.ts';

/**
 * The hand-written essential transaction of buy-and-open (bench/sql/essential-open.sql), as a
 * pgbench script on the bench's seeded data: the floor the app (and the captured SQL) is judged
 * against, run in the same minutes as both (issue 21).
 */
export function essentialScript(sizes: { users: number; cards: number }): Script {
  const text = readFileSync(path.join(ROOT, 'bench/sql/essential-open.sql'), 'utf8');
  return {
    shape: 'essential',
    text,
    defines: {
      product: PRODUCT_ID,
      pack: PACK_ID,
      price: String(PACK_PRICE_CENTS),
      users: String(sizes.users),
      cards: String(sizes.cards),
    },
    statements: text.split('\n').filter((l) => /^(select|insert|update|with|begin|commit)\b/i.test(l)).length,
  };
}
