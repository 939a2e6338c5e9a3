import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig, RETENTION_DEFAULTS } from '../config.ts';
import { monitoringReports } from '../db/schema/index.ts';
import { createLogger } from '../lib/logger.ts';
import { moneyTestContext, type MoneyTestContext } from '../modules/wallet/test-support.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../test/harness.ts';
import { pruneAll, pruneJob } from './prune.ts';
import { claimRun, runJobOnce, startJobs } from './scheduler.ts';

const LOCAL_DSN = `${TEST_ORIGIN}/monitoring`;

function envelope(message: string) {
  return [
    JSON.stringify({ event_id: randomUUID().replace(/-/g, ''), dsn: LOCAL_DSN }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify({ level: 'error', exception: { values: [{ type: 'Error', value: message }] } }),
  ].join('\n');
}

let ipSeq = 0;
const report = (t: TestContext, body: string) =>
  t.request('/monitoring', {
    method: 'POST',
    body,
    // A new address per report, so the per-IP limit stays out of these tests.
    headers: { 'content-type': 'application/x-sentry-envelope', 'x-forwarded-for': `10.1.0.${++ipSeq % 250}` },
  });

const count = async (t: TestContext, table: string) =>
  Number((await t.deps.dbh.query<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n);

/** Captures the JSON log lines written through deps.log. */
function captureLogs(t: TestContext) {
  const lines: Array<Record<string, unknown>> = [];
  t.deps.log = createLogger('info', {}, (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  return lines;
}

describe('/monitoring storage is bounded', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { trustProxy: true, retention: { monitoringMaxReports: 3 } } });
  });
  afterAll(() => t.close());

  it('refuses a report over 16 KB with 413 and stores nothing; one under it is stored', async () => {
    const big = envelope('x'.repeat(16 * 1024));
    expect(Buffer.byteLength(big)).toBeGreaterThan(16 * 1024);
    const res = await report(t, big);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    expect(await count(t, 'monitoring_reports')).toBe(0);

    const fits = envelope('y'.repeat(15 * 1024));
    expect((await report(t, fits)).status).toBe(200);
    expect(await count(t, 'monitoring_reports')).toBe(1);
  });

  it('refuses new reports with 503 once the quota of stored reports is reached', async () => {
    expect((await report(t, envelope('two'))).status).toBe(200);
    expect((await report(t, envelope('three'))).status).toBe(200);
    const full = await report(t, envelope('four'));
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await count(t, 'monitoring_reports')).toBe(3);
    // The reports already kept are not pushed out.
    const kept = await t.deps.db.select({ message: monitoringReports.message }).from(monitoringReports);
    expect(kept.map((r) => r.message).sort()).toEqual(expect.arrayContaining(['Error: two', 'Error: three']));
  });

  it('takes reports again once the prune has freed room', async () => {
    await t.deps.dbh.query(sql`update monitoring_reports set created_at = now() - interval '15 days'`);
    await pruneAll(t.deps);
    expect(await count(t, 'monitoring_reports')).toBe(0);
    expect((await report(t, envelope('five'))).status).toBe(200);
  });

  it('honours a configured per-report cap', async () => {
    const small = await createTestContext({ config: { retention: { monitoringMaxReportBytes: 1024 } } });
    try {
      const res = await small.request('/monitoring', { method: 'POST', body: envelope('z'.repeat(1100)) });
      expect(res.status).toBe(413);
      expect(await count(small, 'monitoring_reports')).toBe(0);
    } finally {
      await small.close();
    }
  });
});

describe('the prune', () => {
  let t: MoneyTestContext;
  beforeAll(async () => {
    t = await moneyTestContext();
  });
  afterAll(() => t.close());

  it('deletes old reports, idempotency keys and stale rate-limit rows, keeps fresh ones, and logs each', async () => {
    await t.deps.dbh.query(sql`
      insert into monitoring_reports (event_id, envelope, created_at) values
        ('old', '{}', now() - interval '15 days'), ('fresh', '{}', now() - interval '13 days')`);
    await t.deps.dbh.query(sql`
      insert into idempotency_keys (user_id, key, request_hash, response_status, created_at) values
        ('u1', 'old-key-1', 'h', 200, now() - interval '49 hours'),
        ('u1', 'fresh-key-1', 'h', 200, now() - interval '47 hours')`);
    await t.deps.dbh.query(sql`
      insert into rate_limits (key, count, window_start) values
        ('test:old', 5, now() - interval '25 hours'), ('test:fresh', 5, now() - interval '10 minutes')`);

    const logs = captureLogs(t);
    const results = await pruneAll(t.deps);

    const left = async (q: ReturnType<typeof sql>) => (await t.deps.dbh.query<{ v: string }>(q)).map((r) => r.v).sort();
    expect(await left(sql`select event_id as v from monitoring_reports`)).toEqual(['fresh']);
    expect(await left(sql`select key as v from idempotency_keys where user_id = 'u1'`)).toEqual(['fresh-key-1']);
    expect(await left(sql`select key as v from rate_limits where key like 'test:%'`)).toEqual(['test:fresh']);

    expect(results.map((r) => [r.table, r.deleted])).toEqual([
      ['monitoring_reports', 1],
      ['idempotency_keys', 1],
      ['rate_limits', 1],
      ['mail_messages (body and links)', 0],
      ['vault_tree_chunks', 0],
      ['vault_holdings', 0],
      ['notifications', 0],
    ]);
    const pruned = logs.filter((l) => l.msg === 'pruned');
    expect(pruned.map((l) => l.table)).toEqual(['monitoring_reports', 'idempotency_keys', 'rate_limits', 'mail_messages (body and links)', 'vault_tree_chunks', 'vault_holdings', 'notifications']);
    for (const l of pruned) {
      expect(l.level).toBe('info');
      expect(typeof l.deleted).toBe('number');
      expect(typeof l.ms).toBe('number');
    }
  });

  it('deletes a backlog in bounded batches', async () => {
    const small = await createTestContext({ config: { retention: { pruneBatchSize: 10 } } });
    try {
      await small.deps.dbh.query(sql`
        insert into rate_limits (key, count, window_start)
        select 'bulk:' || g, 1, now() - interval '30 hours' from generate_series(1, 25) g`);
      const [rl] = (await pruneAll(small.deps)).filter((r) => r.table === 'rate_limits');
      expect(rl).toMatchObject({ deleted: 25, batches: 3, more: false });
      expect(await count(small, 'rate_limits')).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('leaves a recent Idempotency-Key replaying its first answer', async () => {
    const u = await t.makeUser();
    const key = `retention-${randomUUID()}`;
    const first = await t.as(u).post('/api/wallet/deposits', { amountCents: 700 }, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const firstBody = await first.json();

    await pruneAll(t.deps);

    const again = await t.as(u).post('/api/wallet/deposits', { amountCents: 700 }, { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    const deposits = await t.deps.dbh.query<{ n: number }>(
      sql`select count(*)::int as n from deposits where user_id = ${u}`,
    );
    expect(deposits[0]!.n).toBe(1);
  });
});

describe('the schedule', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('runs a job once when two runs start together, and not again within its interval', async () => {
    let runs = 0;
    const job = {
      name: `together-${randomUUID()}`,
      everyMs: 60_000,
      run: async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 50));
      },
    };
    const outcomes = await Promise.all([runJobOnce(t.deps, job), runJobOnce(t.deps, job)]);
    expect(outcomes.sort()).toEqual(['ran', 'skipped']);
    expect(runs).toBe(1);
    expect(await runJobOnce(t.deps, job)).toBe('skipped');

    // Once the interval has passed it runs again.
    await t.deps.dbh.query(sql`update job_runs set started_at = now() - interval '61 seconds' where name = ${job.name}`);
    expect(await runJobOnce(t.deps, job)).toBe('ran');
    expect(runs).toBe(2);
  });

  it('starts from main-style start-up: the timer runs the prune, and stop() waits for it', async () => {
    await t.deps.dbh.query(
      sql`insert into rate_limits (key, count, window_start) values ('timer:old', 1, now() - interval '30 hours')`,
    );
    const logs = captureLogs(t);
    const runner = startJobs(t.deps, [pruneJob(t.deps)], { firstDelayMs: 0, tickMs: 20 });
    const deadline = Date.now() + 10_000;
    while (!logs.some((l) => l.msg === 'pruned' && l.table === 'rate_limits') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await runner.stop();
    expect(logs.find((l) => l.msg === 'pruned' && l.table === 'rate_limits')).toMatchObject({ deleted: 1 });
    expect(await count(t, 'rate_limits')).toBe(0);
  });
});

describe.runIf(inject('dbKind') === 'postgres')('the schedule on PostgreSQL', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('skips a run while another process holds the job lock, without waiting', async () => {
    const job = { name: `locked-${randomUUID()}`, everyMs: 1000 };
    // Another "process": its own connection, holding the job's advisory lock in a transaction.
    const other = postgres(await currentUrl(t), { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const tx = other.begin(async (sqlTx) => {
        await sqlTx`select pg_advisory_xact_lock(hashtext('packvault:jobs'), hashtext(${job.name}))`;
        locked();
        await held;
      });
      await isLocked;
      const started = Date.now();
      expect(await claimRun(t.deps.db, job)).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000);
      release();
      await tx;
      expect(await claimRun(t.deps.db, job)).toBe(true);
    } finally {
      await other.end();
    }
  });
});

/** The test database's URL (the harness makes one per file). */
async function currentUrl(t: TestContext): Promise<string> {
  const [row] = await t.deps.dbh.query<{ db: string }>(sql`select current_database() as db`);
  const u = new URL(inject('postgresAdminUrl'));
  u.pathname = `/${row!.db}`;
  return u.toString();
}

describe('retention settings', () => {
  it('default to bounded values and refuse unsafe ones', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/pv-retention-config', APP_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).retention).toEqual(RETENTION_DEFAULTS);
    expect(RETENTION_DEFAULTS).toMatchObject({
      monitoringMaxReportBytes: 16 * 1024,
      monitoringRetentionDays: 14,
      idempotencyRetentionHours: 48,
    });
    expect(loadConfig({ ...base, PRUNE_INTERVAL_MINUTES: '5', MONITORING_MAX_REPORTS: '10' }).retention).toMatchObject({
      pruneIntervalMinutes: 5,
      monitoringMaxReports: 10,
    });
    expect(() => loadConfig({ ...base, IDEMPOTENCY_RETENTION_HOURS: '1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, RATE_LIMIT_RETENTION_HOURS: '1' })).toThrow(/RATE_LIMIT_RETENTION_HOURS/);
    expect(() => loadConfig({ ...base, MONITORING_MAX_REPORT_BYTES: String(2 * 1024 * 1024) })).toThrow(ConfigError);
    expect(loadConfig({ ...base, VAULT_PROOF_RETENTION_DAYS: '30' }).retention?.vaultProofRetentionDays).toBe(30);
    expect(() => loadConfig({ ...base, VAULT_PROOF_RETENTION_DAYS: '1' })).toThrow(/VAULT_PROOF_RETENTION_DAYS/);
  });
});
