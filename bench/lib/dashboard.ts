// The admin dashboard at ~1M ledger postings on PostgreSQL (issue 18, docs/performance.md), for
// `npm run bench -- --only=dashboard` and the standalone `bench/dashboard.ts`. Seeds in bulk SQL
// (a year and a half of deposits, purchases with their openings and pulled copies, buybacks,
// promos), runs the rollup from scratch, then times GET /api/admin/dashboard's service
// (in-process: no HTTP or JSON) for today, 7d, 30d and a 365-day custom range, with 1 and 4
// requests at a time.
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { openPostgres } from '../../src/server/db/client.ts';
import { migratePostgresUrl } from '../../src/server/db/migrate.ts';
import { getDashboard } from '../../src/server/modules/dashboard/service.ts';
import { rollUp } from '../../src/server/modules/dashboard/rollup.ts';
import { connect, createDatabase, dropDatabase, urlFor } from './pg.ts';
import { PRODUCT_ID, PACK_ID, seedCatalog, seedUsers, type Exec } from './seed.ts';
import { log } from './util.ts';

/** Issue 18: p95 under this, per range. */
export const DASHBOARD_P95_MS = 300;
const DAYS = 540;

export interface DashboardBenchOptions {
  users: number;
  /** Journal entries; each has two postings. */
  entries: number;
  /** Requests per case. */
  rounds: number;
  keep: boolean;
  /** Reuse a database a `--keep` run left (no seed, no rollup from scratch). */
  database?: string;
}

export interface DashboardCase {
  range: string;
  concurrency: number;
  requests: number;
  p50_ms: number;
  p95_ms: number;
  met: boolean;
}

export interface DashboardBenchResult {
  database: string;
  postings: number;
  rollup_from_scratch_s: number | null;
  steady_rollup_ms: number;
  loadavg_before: number[];
  loadavg_after: number[];
  cases: DashboardCase[];
  /** Every case under the target. */
  met: boolean;
}

async function seed(exec: Exec, users: number, entries: number) {
  await seedCatalog(exec, { cards: 2_000, stockPerCard: 100_000 });
  await seedUsers(exec, users);
  // Bulk history without the per-row triggers (append-only, zero-sum at commit, foreign keys):
  // the rows are made balanced by construction.
  await exec(`set session_replication_role = replica`);
  // seedUsers stamps its users, their sessions and starting deposits "now", which would put
  // 20,000 sign-ups, sign-ins and deposits into the dashboard's last hour. A shop with this
  // history had them before it (the deposits and sign-ups), and holds sessions only from the
  // last 30 days (sessions expire and are pruned).
  await exec(`update "user" set created_at = now() - interval '${DAYS + 1} days', updated_at = now() - interval '${DAYS + 1} days'`);
  await exec(`update journal_entries set created_at = now() - interval '${DAYS + 1} days' where reference_type = 'deposit' and reference_id like 'bench-seed-%'`);
  await exec(`update session set created_at = now() - random() * interval '30 days'`);
  // Entries in time order (ids follow it), as a live shop writes them: postings' seq grows with time.
  await exec(`create temp table e0 as select g, md5('bench-e' || g)::uuid as id,
      (case when g % 20 < 3 then 'deposit' when g % 20 < 17 then 'pack_purchase' when g % 20 < 19 then 'buyback' else 'promo_credit' end)::ledger_kind as kind,
      'bench' || (1 + (g::bigint * 7919) % ${users}) as user_id,
      now() - make_interval(secs => (random() * ${DAYS} * 86400)::int) as at,
      (case when g % 20 < 3 then 2000 when g % 20 < 17 then 500 when g % 20 < 19 then 150 else 100 end) as cents
    from generate_series(1, ${entries}) g`);
  await exec(`create temp table e as select row_number() over (order by at) as g, md5('bench-e' || row_number() over (order by at))::uuid as id,
    kind, user_id, at, cents from e0 order by at`);
  await exec(`insert into journal_entries (id, kind, reference_type, reference_id, created_at)
    select id, kind, 'bench', g::text, at from e`);
  await exec(`insert into postings (entry_id, account_id, amount_cents, currency)
    select entry_id, account_id, amount, currency from (
    select e.id as entry_id, w.id as account_id, case when e.kind = 'pack_purchase' then -e.cents else e.cents end as amount, w.currency, e.at
    from e join ledger_accounts w on w.kind = 'user_wallet' and w.user_id = e.user_id
    union all
    select e.id, h.id, case when e.kind = 'pack_purchase' then e.cents else -e.cents end, h.currency, e.at
    from e join ledger_accounts h on h.code = case e.kind when 'deposit' then 'clearing:sandbox' when 'pack_purchase' then 'pack_sales'
      when 'buyback' then 'buyback_expense' else 'promo_expense' end) x
    order by x.at`);
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

const la = () => loadavg().map((l) => Math.round(l * 10) / 10);

export async function dashboardBench(o: DashboardBenchOptions): Promise<DashboardBenchResult> {
  const name = o.database ?? `packvault_bench_dash_${Date.now().toString(36)}`;
  const loadBefore = la();
  const url = o.database ? urlFor(name) : await createDatabase(name);
  try {
    await migratePostgresUrl(url);
    const sql = connect(url, 2);
    const exec: Exec = (s) => sql.unsafe(s) as unknown as Promise<Array<Record<string, unknown>>>;
    let t0 = performance.now();
    if (!o.database) {
      await seed(exec, o.users, o.entries);
      log(`dashboard: seeded ${o.users} users, ${o.entries} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // The mark a run an hour and a half ago would have left (steady state; a fresh database has none).
      await exec(`insert into dashboard_seq_marks (taken_at, postings_seq)
        select now() - interval '90 minutes', coalesce(max(p.seq), 0) from postings p join journal_entries j on j.id = p.entry_id
        where j.created_at < now() - interval '90 minutes'`);
    }
    const n = ((await exec('select count(*)::int as n from postings')) as Array<{ n: number }>)[0]!.n;
    await sql.end();
    const dbh = await openPostgres(url, 8);
    try {
      let scratch: number | null = null;
      if (!o.database) {
        t0 = performance.now();
        const r = await rollUp(dbh.db);
        scratch = Math.round((performance.now() - t0) / 100) / 10;
        log(`dashboard: rollup from scratch to ${r.until?.toISOString()}: ${scratch} s`);
      }
      t0 = performance.now();
      await rollUp(dbh.db);
      const steady = Math.round(performance.now() - t0);
      const now = new Date();
      const end = now.toISOString().slice(0, 10);
      const start = new Date(now.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
      const cases: Array<[string, Parameters<typeof getDashboard>[1]]> = [
        ['today', { range: 'today' }],
        ['7d', { range: '7d' }],
        ['30d', { range: '30d' }],
        ['365d custom', { range: 'custom', from: start, to: end }],
      ];
      const out: DashboardCase[] = [];
      for (const [label, q] of cases) {
        for (const conc of [1, 4]) {
          await getDashboard(dbh.db, q);
          const times: number[] = [];
          await Promise.all(
            Array.from({ length: conc }, async () => {
              for (let i = 0; i < o.rounds / conc; i++) {
                const s = performance.now();
                await getDashboard(dbh.db, q);
                times.push(performance.now() - s);
              }
            }),
          );
          const p95 = Math.round(pct(times, 95));
          out.push({ range: label, concurrency: conc, requests: times.length, p50_ms: Math.round(pct(times, 50)), p95_ms: p95, met: p95 < DASHBOARD_P95_MS });
        }
      }
      return {
        database: name,
        postings: n,
        rollup_from_scratch_s: scratch,
        steady_rollup_ms: steady,
        loadavg_before: loadBefore,
        loadavg_after: la(),
        cases: out,
        met: out.every((c) => c.met),
      };
    } finally {
      await dbh.close();
    }
  } finally {
    if (!o.keep && !o.database) await dropDatabase(name);
  }
}

/** The result as a markdown table with a verdict per row against the target. */
export function dashboardTable(r: DashboardBenchResult): string {
  const rows = r.cases.map((c) => `| ${c.range} | ${c.concurrency} | ${c.p50_ms} | ${c.p95_ms} | ${c.requests} | ${c.met ? 'pass' : 'FAIL'} |`);
  return `Admin dashboard at ${r.postings} postings (load average ${r.loadavg_before.join(' ')} before, ${r.loadavg_after.join(' ')} after)

| range | concurrency | p50 ms | p95 ms | requests | p95 < ${DASHBOARD_P95_MS} ms |
|---|---|---|---|---|---|
${rows.join('\n')}

dashboard target (p95 < ${DASHBOARD_P95_MS} ms in every case): ${r.met ? 'met' : 'NOT met'}`;
}
