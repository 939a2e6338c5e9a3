/**
 * Reconciliation at scale (issue 14 item 3): fills a scratch PostgreSQL database with `--postings`
 * postings (default 1,000,000: half as many two-legged entries over 20,000 wallets), then times
 * reconcileMoney a few times and prints the figures (docs/performance.md records them).
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
import { moneyChecks, reconcileMoney } from '../src/server/modules/wallet/books.ts';

const [adminUrl, ...rest] = process.argv.slice(2);
if (!adminUrl) throw new Error('usage: books-at-scale.ts <postgres admin url> [--postings N]');
const at = rest.indexOf('--postings');
const POSTINGS = at >= 0 ? Number(rest[at + 1]) : 1_000_000;
const ENTRIES = Math.floor(POSTINGS / 2);
const USERS = 20_000;

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
  } finally {
    await handle.close();
  }
} finally {
  if (KEEP) console.log(`kept ${name}`);
  else await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
}
