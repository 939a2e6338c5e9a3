/**
 * Reconciliation at scale (issue 14 item 3): fills a scratch PostgreSQL database with `--postings`
 * postings (default 1,000,000: half as many two-legged entries over 20,000 wallets), then times
 * reconcileMoney a few times; then fills the stock side with `--movements` stock movements (default
 * 1,000,000 over 10,000 cards: initial stock, copies granted to wallets, some of them sold back)
 * and times reconcileStock. It prints the figures (docs/performance.md records them).
 *
 *   node --import tsx scripts/books-at-scale.ts postgres://postgres@127.0.0.1:5432/postgres [--postings 1000000] [--keep]
 *
 * The URL names a database the script may connect to and create another one from; the scratch
 * database is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openPostgres } from '../src/server/db/client.ts';
import { migratePostgresUrl } from '../src/server/db/migrate.ts';
import { reconcileStock } from '../src/server/modules/inventory/service.ts';
import { moneyChecks, reconcileMoney } from '../src/server/modules/wallet/books.ts';

const [adminUrl, ...rest] = process.argv.slice(2);
if (!adminUrl) throw new Error('usage: books-at-scale.ts <postgres admin url> [--postings N]');
const at = rest.indexOf('--postings');
const POSTINGS = at >= 0 ? Number(rest[at + 1]) : 1_000_000;
const ENTRIES = Math.floor(POSTINGS / 2);
const USERS = 20_000;
const mt = rest.indexOf('--movements');
const MOVEMENTS = mt >= 0 ? Number(rest[mt + 1]) : 1_000_000;
const CARDS = 10_000;
// Of the movements after each card's initial one: two takes (a copy granted) for each return (sold back).
const TAKES = Math.round(((MOVEMENTS - CARDS) * 2) / 3);
const RETURNS = MOVEMENTS - CARDS - TAKES;

const KEEP = rest.includes('--keep');
const name = `pv_books_${randomBytes(4).toString('hex')}`;
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${name}"`);
const u = new URL(adminUrl);
u.pathname = `/${name}`;
const url = u.toString();
try {
  await migratePostgresUrl(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const t0 = performance.now();
  await sql.unsafe(`insert into "user" (id, name, email, username, role, email_verified)
    select 'scale' || g, 'Scale ' || g, 'scale' || g || '@scale.test', 'scale_' || g, 'user', true from generate_series(1, ${USERS}) g`);
  await sql.unsafe(`insert into ledger_accounts (kind, user_id, currency) select 'user_wallet', 'scale' || g, 'USD' from generate_series(1, ${USERS}) g`);
  // Two deposits of 1.00 for each purchase of 0.50: every wallet stays above zero.
  await sql.unsafe(`insert into journal_entries (id, kind, reference_type, reference_id)
    select md5('e' || g)::uuid, case when g % 3 = 2 then 'pack_purchase' else 'deposit' end::ledger_kind, 'scale', g::text from generate_series(1, ${ENTRIES}) g`);
  // The zero-sum trigger would run a million times at this one commit; the load is checked by
  // the reconciliation it is here to time.
  await sql.unsafe(`alter table postings disable trigger postings_entry_balanced`);
  await sql.unsafe(`insert into postings (entry_id, account_id, amount_cents, currency)
    select md5('e' || g)::uuid, w.id, case when g % 3 = 2 then -50 else 100 end, 'USD'
    from generate_series(1, ${ENTRIES}) g join ledger_accounts w on w.kind = 'user_wallet' and w.user_id = 'scale' || (g % ${USERS} + 1)
    union all
    select md5('e' || g)::uuid, case when g % 3 = 2 then s.id else c.id end, case when g % 3 = 2 then 50 else -100 end, 'USD'
    from generate_series(1, ${ENTRIES}) g, ledger_accounts s, ledger_accounts c where s.code = 'pack_sales' and c.code = 'clearing:sandbox'`);
  await sql.unsafe(`alter table postings enable trigger postings_entry_balanced`);
  await sql.unsafe(`insert into balances (user_id, account_id, cents)
    select a.user_id, a.id, (select coalesce(sum(amount_cents), 0) from postings p where p.account_id = a.id) from ledger_accounts a where a.kind = 'user_wallet'`);
  const t1 = performance.now();
  await sql.unsafe(`insert into uploads (key, mime, width, height, bytes, variants) values ('scale', 'image/webp', 1, 1, 1, '{}')`);
  await sql.unsafe(`insert into card_classes (id, name, colour) values ('00000000-0000-4000-8000-000000000001', 'Scale', '#888888')`);
  await sql.unsafe(`insert into architects (id, name, frame_image_key, layout) values ('00000000-0000-4000-8000-000000000002', 'Scale', 'scale', '{}')`);
  const perCard = Math.ceil(TAKES / CARDS) + 5;
  // Each card starts with perCard copies; copy k of card c is granted to a wallet, and every
  // third copy is sold back, so stock = perCard - takes + returns.
  await sql.unsafe(`insert into cards (id, name, set_name, number, class_id, architect_id, image_key, value_cents, stock)
    select md5('c' || g)::uuid, 'Scale ' || g, 'Scale', g, '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'scale', 100, 0
    from generate_series(1, ${CARDS}) g`);
  await sql.unsafe(`insert into owned_cards (id, card_id, owner_id, acquired_via, value_cents, status)
    select md5('o' || g)::uuid, md5('c' || (g % ${CARDS} + 1))::uuid, 'scale' || (g % ${USERS} + 1), 'grant', 100,
      (case when g <= ${RETURNS} then 'sold_back' else 'in_vault' end)::owned_card_status
    from generate_series(1, ${TAKES}) g`);
  await sql.unsafe(`insert into stock_movements (card_id, delta, stock_after, reason)
    select md5('c' || g)::uuid, ${perCard}, ${perCard}, 'initial'::stock_movement_reason from generate_series(1, ${CARDS}) g
    union all
    select card_id, -1, 0, 'grant'::stock_movement_reason from owned_cards
    union all
    select card_id, 1, 0, 'buyback_return'::stock_movement_reason from owned_cards where status = 'sold_back'`);
  await sql.unsafe(`update cards c set stock = ${perCard} - coalesce((select count(*) from owned_cards o where o.card_id = c.id and o.status = 'in_vault'), 0)`);
  if (!rest.includes('--no-analyze')) for (const t of ['cards', 'owned_cards', 'stock_movements']) await sql.unsafe(`vacuum analyze ${t}`);
  const [{ m }] = (await sql.unsafe(`select count(*)::int as m from stock_movements`)) as unknown as [{ m: number }];
  console.log(`loaded ${m} stock movements, ${TAKES} owned copies, ${CARDS} cards in ${Math.round(performance.now() - t1)} ms`);
  await sql.unsafe(`vacuum analyze postings`);
  await sql.unsafe(`vacuum analyze balances`);
  await sql.unsafe(`vacuum analyze ledger_accounts`);
  const [{ n }] = (await sql.unsafe(`select count(*)::int as n from postings`)) as unknown as [{ n: number }];
  console.log(`loaded ${n} postings, ${ENTRIES} entries, ${USERS} wallets in ${Math.round(performance.now() - t0)} ms`);
  await sql.end();

  const handle = await openPostgres(url, 4);
  try {
    for (let i = 0; i < 4; i++) {
      const r = await reconcileMoney(handle.db);
      const per = r.checks.map((c) => `${c.name}=${c.ok}`).join(' ');
      console.log(`reconcileMoney: ok=${r.ok} tookMs=${r.tookMs} (${per})`);
    }
    for (const check of moneyChecks) {
      const started = performance.now();
      const c = await check(handle.db);
      console.log(`  ${c.name}: ${Math.round(performance.now() - started)} ms alone`);
    }
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      const r = await reconcileStock(handle.db);
      console.log(`reconcileStock: ok=${r.ok} ${Math.round(performance.now() - started)} ms (${JSON.stringify(r.details).slice(0, 120)})`);
    }
  } finally {
    await handle.close();
  }
} finally {
  if (KEEP) console.log(`kept ${name}`);
  else await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
}
