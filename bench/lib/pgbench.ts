import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseCpuMs, libpqEnv } from './pg.ts';
import { percentile, round, run } from './util.ts';

/**
 * Turns the statements one HTTP request issued (captured from the server through
 * DB_STATEMENT_LOG) into a pgbench script. The SQL text is kept byte for byte; only the
 * parameters become pgbench variables:
 *   - the user's own values (id, session token/id, seed id) are derived from a random user number,
 *   - card ids become random cards (the draw is random in the app too: no artificial hot rows),
 *   - ids and keys the app generates per request (uuids, Idempotency-Key) are fresh per transaction,
 *   - the nonce is read back from the user_seeds UPDATE ... RETURNING (\gset), as the app does,
 *   - everything else (product id, prices, JSON documents, timestamps) is passed as captured (-D).
 */

export interface Statement {
  connection: number;
  query: string;
  parameters: unknown[];
}

export interface CaptureFacts {
  userNumber: number;
  /** uuid → card number k (card id = md5('card' || k)::uuid). */
  cardNumbers: Map<string, number>;
  seedId: string;
  /** The captured user's server seed hash (random per user: read back per transaction). */
  serverSeedHash: string;
  idempotencyKey: string;
  /** The nonce the captured opening used (seeded nonces start at NONCE_BASE). */
  nonce: number;
  /** Ids that exist before the request (product, pack, classes…): passed as they are. */
  constants: Set<string>;
}

export const NONCE_BASE = 1_000_000;
/** At most this many distinct cards per transaction (a 10-pack draws up to 50, but the bench opens one). */
const CARD_STRATA = 16;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Script {
  /** Statement texts in order: requests with the same shape share one script. */
  shape: string;
  text: string;
  defines: Record<string, string>;
  statements: number;
}

const pgQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * `idExists(table, id)`: whether a row with that id exists now, to recognise ids the database
 * generated (INSERT … RETURNING "id") when a later statement of the request uses them.
 */
export async function buildScript(
  stmts: Statement[],
  facts: CaptureFacts,
  sizes: { users: number; cards: number },
  scriptId: string,
  idExists: (table: string, id: string) => Promise<boolean>,
): Promise<Script> {
  const uid = `bench${facts.userNumber}`;
  // bench/lib/seed.ts: client seed = substr(md5('client' || n), 1, 16).
  const clientSeed = createHash('md5').update(`client${facts.userNumber}`).digest('hex').slice(0, 16);
  const exprs: Array<[string, string]> = [];
  // Each client has users of its own (n ≡ client_id mod clients), as the app's load gives no two
  // in-flight requests the same user: the opening statement checks the user's next nonce.
  const sets: string[] = [
    `\\set n 1 + :client_id + :nclients * random(0, ${sizes.users} / :nclients - 1)`,
    `\\set r random(1, 9000000000000000000)`,
  ];
  const defines: Record<string, string> = {};
  const byValue = new Map<string, string>();
  let fresh = 0;
  let card = 0;
  let constant = 0;
  let needNonce = false;

  // INSERT … RETURNING "id" statements so far: their id comes back through \gset.
  const returning: Array<{ table: string; variable: string }> = [];
  const generatedBy = async (v: string) => {
    for (let i = returning.length - 1; i >= 0; i--) if (await idExists(returning[i]!.table, v)) return returning[i]!.variable;
    return null;
  };

  const varFor = async (raw: unknown): Promise<string> => {
    const v = raw === null || raw === undefined ? null : String(raw);
    if (v === null) throw new Error('a NULL parameter cannot be replayed by pgbench');
    const known = byValue.get(v);
    if (known) return known;
    let name: string;
    if (v === uid) exprs.push([(name = 'uid'), `'bench' || :n`]);
    else if (v === `bt${facts.userNumber}`) exprs.push([(name = 'tok'), `'bt' || :n`]);
    else if (v === `bs${facts.userNumber}`) exprs.push([(name = 'sid'), `'bs' || :n`]);
    else if (v === facts.seedId) exprs.push([(name = 'seed'), `md5('seed' || :n)::uuid::text`]);
    else if (v === clientSeed) exprs.push([(name = 'cseed'), `substr(md5('client' || :n), 1, 16)`]);
    else if (v === facts.serverSeedHash) {
      exprs.push([(name = 'sshash'), `(select "server_seed_hash" from "user_seeds" where "user_id" = 'bench' || :n and "active")`]);
    }
    else if (v === facts.idempotencyKey) exprs.push([(name = 'ikey'), `'bench-pgbench-' || :r`]);
    // The journal entry's key is the request's key scoped to its user (ADR 0010). The colon stands
    // alone in its literal: pgbench would read ':bench…' inside a string as a variable.
    else if (v === `${uid}:${facts.idempotencyKey}`) exprs.push([(name = 'jkey'), `'bench' || :n || ':' || 'bench-pgbench-' || :r`]);
    else if (facts.cardNumbers.has(v)) {
      name = `card${++card}`;
      // Distinct cards within a transaction, each still uniform over the catalogue: card j is
      // kb + (j - 1) × (cards / CARD_STRATA), wrapped, from one random kb. The opening statement
      // checks that it took one row per card it asked for, so a repeat would fail it.
      if (card > CARD_STRATA) throw new Error(`more than ${CARD_STRATA} distinct cards in one captured request`);
      if (card === 1) sets.push(`\\set kb random(0, ${sizes.cards - 1})`);
      sets.push(`\\set k${card} 1 + (:kb + ${(card - 1) * Math.floor(sizes.cards / CARD_STRATA)}) % ${sizes.cards}`);
      exprs.push([name, `md5('card' || :k${card})::uuid::text`]);
    } else if (/^\d+$/.test(v) && Number(v) === facts.nonce) {
      name = 'nonce';
      needNonce = true;
    } else if (UUID_RE.test(v) && !facts.constants.has(v)) {
      const generated = await generatedBy(v);
      if (generated) name = generated;
      else exprs.push([(name = `f${++fresh}`), 'gen_random_uuid()::text']);
    } else {
      name = `${scriptId}c${++constant}`;
      defines[name] = v;
    }
    byValue.set(v, name);
    return name;
  };

  /** A per-transaction variable for `v`, or null when it is a plain constant. */
  const dynamicVar = async (v: string): Promise<string | null> => {
    const dynamic =
      v === uid ||
      v === `bt${facts.userNumber}` ||
      v === `bs${facts.userNumber}` ||
      v === facts.seedId ||
      v === clientSeed ||
      v === facts.serverSeedHash ||
      v === facts.idempotencyKey ||
      v === `${uid}:${facts.idempotencyKey}` ||
      facts.cardNumbers.has(v) ||
      (/^\d+$/.test(v) && Number(v) === facts.nonce) ||
      (UUID_RE.test(v) && !facts.constants.has(v));
    return dynamic ? varFor(v) : null;
  };
  /**
   * A JSON document parameter (the opening passes its openings and cards as one each) is rebuilt
   * with json_build_array/json_build_object so that its ids are this transaction's variables, as
   * the app's are fresh per request; everything else in it stays a literal.
   */
  const jsonExpr = async (v: unknown): Promise<string> => {
    if (Array.isArray(v)) return `json_build_array(${(await Promise.all(v.map(jsonExpr))).join(', ')})`;
    if (v !== null && typeof v === 'object') {
      const parts: string[] = [];
      for (const [k, x] of Object.entries(v)) parts.push(`${pgQuote(k)}, ${await jsonExpr(x)}`);
      return `json_build_object(${parts.join(', ')})`;
    }
    if (typeof v === 'string') {
      const name = await dynamicVar(v);
      return name ? `:${name}::text` : `${pgQuote(v)}::text`;
    }
    if (typeof v === 'number') {
      const name = await dynamicVar(String(v));
      return name ? `(:${name})::int` : String(v);
    }
    return v === null ? 'null::text' : String(v);
  };
  const isUuidArray = (p: unknown): p is string => typeof p === 'string' && /^\{[0-9a-f-]{36}(,[0-9a-f-]{36})*\}$/i.test(p);
  const isJsonDocument = (p: unknown): p is string => typeof p === 'string' && /^[[{]/.test(p) && /^[[{][\s\S]*[\]}]$/.test(p);

  const body: string[] = [];
  let nonceSource = false;
  for (const [index, s] of stmts.entries()) {
    const names: string[] = [];
    for (const p of s.parameters) {
      if (isUuidArray(p)) {
        // An array literal of ids ('{a,b}'): rebuilt from this transaction's variables.
        const parts = await Promise.all(p.slice(1, -1).split(',').map(async (id) => `:${await varFor(id)}::text`));
        names.push(`('{' || concat_ws(',', ${parts.join(', ')}) || '}')`);
      } else if (isJsonDocument(p) && /json_to_recordset\(\$/.test(s.query)) names.push(`(${await jsonExpr(JSON.parse(p))})`);
      else names.push(`:${await varFor(p)}`);
    }
    // $10 before $1: replace from the highest number down.
    let text = s.query.trim().replace(/;\s*$/, '');
    for (let i = names.length; i >= 1; i--) text = text.replaceAll(`$${i}`, names[i - 1]!);
    if (/^update "user_seeds"/i.test(text) && /returning/i.test(text)) {
      body.push(`${text}\n\\gset ns_`);
      body.push(`\\set nonce :ns_next_nonce - 1`);
      nonceSource = true;
    } else if (/insert into "(\w+)"/i.test(text) && /returning "id"(,[^()]*)?$/i.test(text)) {
      // Also `with … insert into "t" … returning "id", …` (the debit writes its ledger entry so).
      const table = [...text.matchAll(/insert into "(\w+)"/gi)].at(-1)![1]!;
      body.push(`${text}\n\\gset r${index}_`);
      returning.push({ table, variable: `r${index}_id` });
    } else body.push(`${text};`);
  }
  if (needNonce && !nonceSource) {
    // The one-statement opening sends the nonce it drew with (the app keeps each user's next
    // nonce); pgbench reads it in its preamble instead, the way the app does on a cache miss.
    exprs.push(['nonce', `(select "next_nonce" from "user_seeds" where "user_id" = 'bench' || :n and "active")`]);
  }
  const preamble = exprs.length ? [`select ${exprs.map(([n, e]) => `${e} as ${n}`).join(', ')}\n\\gset`] : [];
  return {
    shape: stmts.map((s) => s.query).join('\n;\n'),
    text: [...sets, ...preamble, ...body].join('\n') + '\n',
    defines,
    statements: stmts.length,
  };
}

export interface PgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  p50_ms: number | null;
  p99_ms: number | null;
  target_rate?: number;
  /** PostgreSQL's CPU (every server process) per transaction, ms; null when the server is not local. */
  db_cpu_ms_per_tx: number | null;
}

/** Runs weighted scripts; latency percentiles come from the per-transaction log (-l). */
let dumpRuns = 0;

export async function pgbench(opts: {
  url: string;
  scripts: Array<{ script: Script; weight: number }>;
  clients: number;
  seconds: number;
  rate?: number;
  mode: 'prepared' | 'extended';
}): Promise<PgbenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-pgbench-'));
  try {
    const args = ['-n', '-M', opts.mode, '-c', String(opts.clients), '-j', String(Math.min(2, opts.clients)), '-T', String(opts.seconds)];
    if (opts.rate) args.push('-R', String(opts.rate));
    args.push('-l', `--log-prefix=${path.join(dir, 'log')}`);
    opts.scripts.forEach(({ script, weight }, i) => {
      const file = path.join(dir, `s${i}.sql`);
      writeFileSync(file, script.text);
      args.push('-f', `${file}@${weight}`);
      for (const [k, v] of Object.entries(script.defines)) args.push('-D', `${k}=${v}`);
      args.push('-D', `nclients=${opts.clients}`);
    });
    if (process.env.BENCH_PGBENCH_DUMP) {
      // For working on the SQL by hand: the scripts and the command line, re-runnable.
      // One folder per pgbench run (captured SQL, essential, fixed rates…), numbered in run order.
      const dump = path.join(process.env.BENCH_PGBENCH_DUMP, `run-${String(++dumpRuns).padStart(2, '0')}`);
      mkdirSync(dump, { recursive: true });
      for (const f of readdirSync(dir)) if (f.endsWith('.sql')) writeFileSync(path.join(dump, f), readFileSync(path.join(dir, f)));
      const quoted = args.map((a) => `'${a.replaceAll(dir, dump).replace(/'/g, `'\\''`)}'`).join(' ');
      writeFileSync(path.join(dump, 'pgbench.sh'), `pgbench ${quoted} "$@"\n`);
    }
    const cpu0 = await databaseCpuMs();
    const { stdout, stderr } = await run('pgbench', args, { env: { ...process.env, ...libpqEnv(opts.url) } }).catch((err: Error) => {
      const keep = path.join(tmpdir(), `pv-bench-failed-script-${process.pid}.sql`);
      writeFileSync(keep, opts.scripts.map((x) => `${x.script.text}\n-- defines: ${JSON.stringify(x.script.defines)}`).join('\n\n-- next script --\n'));
      throw new Error(`${err.message}\nscripts kept in ${keep}`);
    });
    if (/aborted|error/i.test(stderr) && !/^$/.test(stderr)) {
      const aborted = /client \d+ aborted/.test(stderr);
      if (aborted) throw new Error(`pgbench: a client aborted:\n${stderr.slice(0, 3000)}`);
    }
    const cpu1 = await databaseCpuMs();
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    const lat: number[] = [];
    for (const f of readdirSync(dir).filter((n) => n.startsWith('log'))) {
      for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
        const parts = line.split(' ');
        // client_id transaction_no time script_no time_epoch time_us [schedule_lag]; time is µs and,
        // under -R, counted from the scheduled start (like autocannon's coordinated-omission correction).
        if (parts.length >= 6 && parts[2] !== 'skipped' && parts[2] !== 'failed') lat.push(Number(parts[2]) / 1000);
      }
    }
    return {
      tps: round(tps, 1)!,
      transactions,
      failed,
      p50_ms: round(percentile(lat, 50), 2),
      p99_ms: round(percentile(lat, 99), 2),
      ...(opts.rate ? { target_rate: opts.rate } : {}),
      db_cpu_ms_per_tx: cpu0 === null || cpu1 === null || transactions === 0 ? null : round((cpu1 - cpu0) / transactions, 2),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Quote helper for literal SQL elsewhere in the bench. */
export { pgQuote };
