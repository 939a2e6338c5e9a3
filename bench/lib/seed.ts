import { makeSignature } from 'better-auth/crypto';
import { NONCE_BASE } from './pgbench.ts';
import { BENCH_SECRET, SESSION_COOKIE } from './server.ts';

/**
 * Bench data, written straight in SQL with generate_series (fast, and the same text runs on
 * PostgreSQL and on PGlite). Ids are derived from numbers so the pgbench script can compute them:
 *   user n      id 'bench<n>', session token 'bt<n>', session id 'bs<n>'
 *   card k      id md5('card<k>')::uuid
 */

export type Exec = (sql: string) => Promise<Array<Record<string, unknown>>>;

export const PRODUCT_ID = '0b0b0b0b-0000-4000-8000-000000000001';
export const PACK_ID = '0b0b0b0b-0000-4000-8000-000000000002';
export const ARCHITECT_ID = '0b0b0b0b-0000-4000-8000-000000000003';
export const CLASS_IDS = [1, 2, 3, 4, 5].map((i) => `0b0b0b0b-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`);
export const PACK_PRICE_CENTS = 500;
export const START_BALANCE_CENTS = 100_000_000;
const IMAGE_KEY = 'b'.repeat(64);

const CLASSES = [
  { name: 'Common', colour: '#a1a1aa', share: 50, min: 5, max: 60 },
  { name: 'Uncommon', colour: '#22c55e', share: 30, min: 40, max: 250 },
  { name: 'Rare', colour: '#3b82f6', share: 13, min: 200, max: 1500 },
  { name: 'Epic', colour: '#a855f7', share: 6, min: 1200, max: 6000 },
  { name: 'Legendary', colour: '#f59e0b', share: 1, min: 5000, max: 50000 },
];

/** 5 slots like a real booster: three commons/uncommons, an uncommon/rare, a rare-or-better. */
const SLOTS = [
  { odds: [{ classId: CLASS_IDS[0]!, weight: 80 }, { classId: CLASS_IDS[1]!, weight: 20 }] },
  { odds: [{ classId: CLASS_IDS[0]!, weight: 80 }, { classId: CLASS_IDS[1]!, weight: 20 }] },
  { odds: [{ classId: CLASS_IDS[0]!, weight: 70 }, { classId: CLASS_IDS[1]!, weight: 30 }] },
  { odds: [{ classId: CLASS_IDS[1]!, weight: 60 }, { classId: CLASS_IDS[2]!, weight: 40 }] },
  { odds: [{ classId: CLASS_IDS[2]!, weight: 70 }, { classId: CLASS_IDS[3]!, weight: 25 }, { classId: CLASS_IDS[4]!, weight: 5 }] },
];

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Classes, one architect, `cards` cards (class by share), one live product selling the pack. */
export async function seedCatalog(exec: Exec, opts: { cards: number; stockPerCard: number }) {
  const variants = JSON.stringify({
    thumb: { file: `${IMAGE_KEY}-thumb.webp`, width: 300, height: 420, bytes: 1000 },
    full: { file: `${IMAGE_KEY}-full.webp`, width: 750, height: 1050, bytes: 5000 },
  });
  await exec(`insert into uploads (key, mime, width, height, bytes, variants) values (${q(IMAGE_KEY)}, 'image/webp', 750, 1050, 5000, ${q(variants)}::jsonb)`);
  const layout = {
    art: { x: 8, y: 12, w: 84, h: 56 },
    name: { x: 8, y: 3.5, w: 84, size: 6.5, align: 'left', colour: '#ffffff' },
    class: { x: 8, y: 71, w: 84, size: 4.5, align: 'left', colour: '#e4e4e7' },
    value: { x: 8, y: 88, w: 84, size: 6, align: 'right', colour: '#ffffff' },
  };
  await exec(`insert into architects (id, name, frame_image_key, layout) values (${q(ARCHITECT_ID)}, 'Bench frame', ${q(IMAGE_KEY)}, ${q(JSON.stringify(layout))}::jsonb)`);
  await exec(
    `insert into card_classes (id, name, colour, sort_order) values ${CLASSES.map((c, i) => `(${q(CLASS_IDS[i]!)}, ${q(c.name)}, ${q(c.colour)}, ${i})`).join(', ')}`,
  );
  // Class of card g by its position in each block of 100 (50/30/13/6/1), value spread within the class range.
  let acc = 0;
  const caseClass = CLASSES.map((c, i) => {
    acc += c.share;
    return `when g % 100 < ${acc} then ${i}`;
  }).join(' ');
  const mins = `array[${CLASSES.map((c) => c.min).join(',')}]`;
  const maxs = `array[${CLASSES.map((c) => c.max).join(',')}]`;
  const classArr = `array[${CLASS_IDS.map((id) => `${q(id)}::uuid`).join(',')}]`;
  await exec(`
    insert into cards (id, name, set_name, number, class_id, architect_id, image_key, value_cents, stock)
    select md5('card' || g)::uuid, 'Bench card ' || g, 'Bench set ' || (g / 1000), g,
      (${classArr})[k + 1], ${q(ARCHITECT_ID)}, ${q(IMAGE_KEY)},
      (${mins})[k + 1] + ((g * 7919) % ((${maxs})[k + 1] - (${mins})[k + 1] + 1)),
      ${opts.stockPerCard}
    from (select g, case ${caseClass} end as k from generate_series(1, ${opts.cards}) g) s`);
  await exec(`insert into packs (id, name, slots, pool) values (${q(PACK_ID)}, 'Bench booster', ${q(JSON.stringify(SLOTS))}::jsonb, '{"mode":"classes"}'::jsonb)`);
  await exec(`insert into products (id, name, description, price_cents, status, featured, pack_id)
    values (${q(PRODUCT_ID)}, 'Bench booster', 'Five cards.', ${PACK_PRICE_CENTS}, 'live', true, ${q(PACK_ID)})`);
  // The inventory's history starts with the seeded stock (migration 0010), so the stock check of
  // the books holds from the first opening.
  await exec(`insert into stock_movements (card_id, delta, stock_after, reason, note)
    select id, stock, stock, 'initial', 'bench seed' from cards`);
  // What the invariants compare the stock with afterwards.
  await exec(`create table bench_initial_stock as select id as card_id, stock from cards`);
}

/**
 * `n` users with verified emails, a deposit (ledger entry + balance), an active fairness seed
 * pair and a session. Returns nothing: cookies are computed by sessionCookie(i).
 */
export async function seedUsers(exec: Exec, n: number) {
  const series = `generate_series(1, ${n}) g`;
  await exec(`insert into "user" (id, name, email, email_verified, username, role, age_confirmed_at, terms_accepted_at)
    select 'bench' || g, 'Bench ' || g, 'bench' || g || '@bench.test', true, 'bench_' || g, 'user', now(), now() from ${series}`);
  await exec(`insert into session (id, expires_at, token, user_id, ip_address, user_agent)
    select 'bs' || g, now() + interval '30 days', 'bt' || g, 'bench' || g, '127.0.0.1', 'bench' from ${series}`);
  // The starting money, double-entry (migration 0009): a wallet account per user, one deposit
  // entry each with both legs in one statement (the zero-sum check runs at each commit).
  await exec(`insert into ledger_accounts (kind, user_id, currency)
    select 'user_wallet', 'bench' || g, (select currency from ledger_accounts where code = 'clearing:sandbox') from ${series}`);
  await exec(`insert into journal_entries (id, kind, reference_type, reference_id, memo)
    select md5('bench-deposit' || g)::uuid, 'deposit', 'deposit', 'bench-seed-' || g, 'bench seed' from ${series}`);
  await exec(`insert into postings (entry_id, account_id, amount_cents, currency, balance_after)
    select md5('bench-deposit' || g)::uuid, a.id, ${START_BALANCE_CENTS}, a.currency, ${START_BALANCE_CENTS}
    from ${series} join ledger_accounts a on a.kind = 'user_wallet' and a.user_id = 'bench' || g
    union all
    select md5('bench-deposit' || g)::uuid, h.id, -${START_BALANCE_CENTS}, h.currency, null
    from ${series} cross join ledger_accounts h where h.code = 'clearing:sandbox'`);
  await exec(`insert into balances (user_id, account_id, cents)
    select a.user_id, a.id, ${START_BALANCE_CENTS} from ledger_accounts a where a.kind = 'user_wallet' and a.user_id like 'bench%'`);
  // Nonces start high so the captured nonce is recognisable among the request's parameters.
  await exec(`insert into user_seeds (id, user_id, server_seed, server_seed_hash, client_seed, next_nonce)
    select md5('seed' || g)::uuid, 'bench' || g, s, encode(sha256(convert_to(s, 'UTF8')), 'hex'), substr(md5('client' || g), 1, 16), ${NONCE_BASE}
    from (select g, md5(random()::text || g) || md5(g || random()::text) as s from ${series}) x`);
}

/** `count` cards already owned (admin grants, spread over users and cards), for the growth run. */
export async function seedOwnedCards(exec: Exec, opts: { count: number; users: number; cards: number; batch?: number }) {
  const batch = opts.batch ?? 250_000;
  for (let from = 1; from <= opts.count; from += batch) {
    const to = Math.min(opts.count, from + batch - 1);
    await exec(`insert into owned_cards (card_id, owner_id, acquired_via, value_cents, status, acquired_at, updated_at)
      select md5('card' || (1 + (g::bigint * 7919) % ${opts.cards}))::uuid, 'bench' || (1 + g % ${opts.users}), 'grant', 100,
        (case when g % 10 = 0 then 'sold_back' else 'in_vault' end)::owned_card_status,
        now() - make_interval(secs => g), now()
      from generate_series(${from}, ${to}) g`);
  }
  // These copies were granted on top of the seeded stock: the history says so (supplied, then
  // granted out), so stock + copies in vaults still equals what was supplied.
  await exec(`insert into stock_movements (card_id, delta, stock_after, reason, note)
    select o.card_id, x.delta, c.stock + greatest(x.delta, 0), x.reason::stock_movement_reason, 'bench seed'
    from (select card_id, count(*)::int as n from owned_cards where status = 'in_vault' group by card_id) o
    join cards c on c.id = o.card_id
    cross join lateral (values (o.n, 'initial'), (-o.n, 'grant')) x(delta, reason)`);
}

const cookieCache = new Map<number, string>();
/** The Cookie header for bench user n (Better Auth's signed session token). */
export async function sessionCookie(n: number): Promise<string> {
  let c = cookieCache.get(n);
  if (!c) {
    const token = `bt${n}`;
    c = `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${await makeSignature(token, BENCH_SECRET)}`)}`;
    cookieCache.set(n, c);
  }
  return c;
}

export async function sessionCookies(n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(await sessionCookie(i));
  return out;
}
