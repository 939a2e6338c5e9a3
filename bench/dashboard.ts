// `node --import tsx bench/dashboard.ts`: the admin
// dashboard at ~1M ledger postings on PostgreSQL (issue 18, docs/performance.md). Seeds in bulk
// SQL (a year and a half of deposits, purchases with their openings and pulled copies, buybacks,
// promos), runs the hourly rollup, then times GET /api/admin/dashboard's service for today, 7d,
// 30d and a 365-day custom range, with 1 and 4 requests at a time. Flags: --keep, --users=N,
// --entries=N (journal entries; each has two postings).
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../src/server/db/client.ts';
import { migratePostgresUrl } from '../src/server/db/migrate.ts';
import { getDashboard } from '../src/server/modules/dashboard/service.ts';
import { rollUp } from '../src/server/modules/dashboard/rollup.ts';
import { connect, createDatabase, dropDatabase } from './lib/pg.ts';
import { PRODUCT_ID, PACK_ID, seedCatalog, seedUsers, type Exec } from './lib/seed.ts';
import { log } from './lib/util.ts';
import { cpus, loadavg } from 'node:os';

const arg = (name: string, d: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
const USERS = arg('users', 20_000);
const ENTRIES = arg('entries', 500_000);
const DAYS = 540;
const ROUNDS = arg('rounds', 40);

async function seed(exec: Exec) {
  await seedCatalog(exec, { cards: 2_000, stockPerCard: 100_000 });
  await seedUsers(exec, USERS);
  // Bulk history without the per-row triggers (append-only, zero-sum at commit, foreign keys):
  // the rows are made balanced by construction.
  await exec(`set session_replication_role = replica`);
  await exec(`create temp table e as select g, md5('bench-e' || g)::uuid as id,
      (case when g % 20 < 3 then 'deposit' when g % 20 < 17 then 'pack_purchase' when g % 20 < 19 then 'buyback' else 'promo_credit' end)::ledger_kind as kind,
      'bench' || (1 + (g::bigint * 7919) % ${USERS}) as user_id,
      now() - make_interval(secs => (random() * ${DAYS} * 86400)::int) as at,
      (case when g % 20 < 3 then 2000 when g % 20 < 17 then 500 when g % 20 < 19 then 150 else 100 end) as cents
    from generate_series(1, ${ENTRIES}) g`);
  await exec(`insert into journal_entries (id, kind, reference_type, reference_id, created_at)
    select id, kind, 'bench', g::text, at from e`);
  await exec(`insert into postings (entry_id, account_id, amount_cents, currency)
    select e.id, w.id, case when e.kind = 'pack_purchase' then -e.cents else e.cents end, w.currency
    from e join ledger_accounts w on w.kind = 'user_wallet' and w.user_id = e.user_id
    union all
    select e.id, h.id, case when e.kind = 'pack_purchase' then e.cents else -e.cents end, h.currency
    from e join ledger_accounts h on h.code = case e.kind when 'deposit' then 'clearing:sandbox' when 'pack_purchase' then 'pack_sales'
      when 'buyback' then 'buyback_expense' else 'promo_expense' end`);
  await exec(`insert into purchases (id, user_id, product_id, pack_id, quantity, unit_price_cents, total_cents, ledger_entry_id, created_at)
    select md5('bench-p' || g)::uuid, user_id, '${PRODUCT_ID}', '${PACK_ID}', 1, 500, 500, id, at from e where kind = 'pack_purchase'`);
  await exec(`insert into openings (id, user_id, user_pack_id, purchase_id, product_id, pack_id, seed_id, server_seed_hash, client_seed, nonce,
      slots, odds_hash, pool_hash, draws, total_value_cents, created_at)
    select md5('bench-o' || g)::uuid, user_id, md5('bench-up' || g)::uuid, md5('bench-p' || g)::uuid, '${PRODUCT_ID}', '${PACK_ID}',
      md5('seed1')::uuid, 'x', 'x', g, '[]'::jsonb, 'x', 'x', '[]'::jsonb, 350 + (g % 300), at
    from e where kind = 'pack_purchase'`);
  await exec(`insert into owned_cards (card_id, owner_id, acquired_via, value_cents, status, opening_id, product_id, slot, acquired_at, updated_at)
    select md5('card' || (1 + g % 2000))::uuid, user_id, 'opening', 350 + (g % 300), 'in_vault', md5('bench-o' || g)::uuid, '${PRODUCT_ID}', 0, at, at
    from e where kind = 'pack_purchase'`);
  await exec(`set session_replication_role = default`);
  await exec('vacuum analyze');
}

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main() {
  const name = `packvault_bench_dash_${Date.now().toString(36)}`;
  const url = await createDatabase(name);
  const keep = process.argv.includes('--keep');
  try {
    await migratePostgresUrl(url);
    const sql = connect(url, 2);
    const exec: Exec = (s) => sql.unsafe(s) as unknown as Promise<Array<Record<string, unknown>>>;
    let t0 = performance.now();
    await seed(exec);
    const n = ((await exec('select count(*)::int as n from postings')) as Array<{ n: number }>)[0]!.n;
    log(`seeded ${n} postings, ${USERS} users in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await sql.end();
    const dbh = await openPostgres(url, 8);
    t0 = performance.now();
    const r = await rollUp(dbh.db);
    log(`rollup from scratch to ${r.until?.toISOString()}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    await rollUp(dbh.db);
    log(`a steady-state rollup run: ${Math.round(performance.now() - t0)} ms`);
    const now = new Date();
    const end = now.toISOString().slice(0, 10);
    const start = new Date(now.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[string, Parameters<typeof getDashboard>[1]]> = [
      ['today', { range: 'today' }],
      ['7d', { range: '7d' }],
      ['30d', { range: '30d' }],
      ['365d custom', { range: 'custom', from: start, to: end }],
    ];
    const out: string[] = [];
    for (const [label, q] of cases) {
      for (const conc of [1, 4]) {
        await getDashboard(dbh.db, q);
        const times: number[] = [];
        await Promise.all(
          Array.from({ length: conc }, async () => {
            for (let i = 0; i < ROUNDS / conc; i++) {
              const s = performance.now();
              await getDashboard(dbh.db, q);
              times.push(performance.now() - s);
            }
          }),
        );
        out.push(`| ${label} | ${conc} | ${pct(times, 50).toFixed(0)} | ${pct(times, 95).toFixed(0)} | ${times.length} |`);
      }
    }
    await dbh.close();
    console.log(`\nAdmin dashboard at ${n} postings (${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" ")})\n\n| range | concurrency | p50 ms | p95 ms | requests |\n|---|---|---|---|---|\n${out.join('\n')}`);
  } finally {
    if (!keep) await dropDatabase(name);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
