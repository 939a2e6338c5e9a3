import { appendFileSync } from 'node:fs';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { trackCommits } from './after-commit.ts';
import { createPglite } from './pglite.ts';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The one database type every service takes: PGlite and PostgreSQL share it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** The rows of `db.execute(sql…)`: an array on postgres-js, `{ rows }` on PGlite. */
export function rowsOf<T>(res: unknown): T[] {
  return (Array.isArray(res) ? res : (res as { rows: T[] }).rows) as T[];
}

export type Listener = (payload: string) => void;

export interface DbHandle {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Subscribe to a NOTIFY channel. Resolves once the LISTEN is active. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Raw SQL returning rows, for the few places that need it (health, test helpers). */
  query<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  /**
   * One statement given as text with $1…$n and its parameters, for a hot path whose SQL is built
   * once (drizzle's `sqlToQuery` with placeholders, see shop/one-statement-open.ts): no query
   * building per call. A named prepared statement on PostgreSQL.
   */
  run<T = Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]>;
}

export async function openPglite(dataDirOrClient?: string | PGlite): Promise<DbHandle> {
  const client =
    dataDirOrClient instanceof PGlite ? dataDirOrClient : await createPglite(dataDirOrClient);
  const db = trackCommits(drizzlePglite(client, { schema }) as unknown as Db);
  return {
    kind: 'pglite',
    db,
    async listen(channel, listener) {
      const unsub = await client.listen(channel, listener);
      return async () => unsub();
    },
    async query<T>(query: SQL) {
      const res = (await db.execute(query)) as unknown as { rows: T[] };
      return res.rows;
    },
    run: namedStatements(client),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * `run` on PGlite: a named statement, parsed and planned once per statement text. PGlite's own
 * `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six calls into WebAssembly
 * and plans the statement every time; for the buy-and-open statement the planning alone took
 * 1.4 ms of PGlite's 5 (docs/performance.md). Here a call is one batch (Bind, Describe, Execute,
 * Sync) against the statement prepared on first use, then the same sync to disk as `query`.
 * Never inside a PGlite transaction (it takes the transaction lock, like `query`).
 */
function namedStatements(client: PGlite) {
  const { serialize } = protocol;
  const prepared = new Map<string, { name: string; types: number[] }>();
  const concat = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  return <T>(text: string, params: unknown[]): Promise<T[]> =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        let st = prepared.get(text);
        if (!st) {
          const name = `pv_${prepared.size + 1}`;
          const described = await client.execProtocolStream(
            concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
            { syncToFs: false },
          );
          const types = described.find((m): m is typeof m & { dataTypeIDs: number[] } => m.name === 'parameterDescription')?.dataTypeIDs ?? [];
          prepared.set(text, (st = { name, types }));
        }
        const { types } = st;
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const serializer = client.serializers[types[i]!];
          return serializer ? serializer(v) : String(v);
        });
        const messages = await client.execProtocolStream(
          concat([serialize.bind({ statement: st.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
          { syncToFs: false },
        );
        await client.syncToFs();
        return (parse.parseResults(messages, client.parsers)[0]?.rows ?? []) as T[];
      }),
    );
}

/**
 * Drizzle asks postgres.js for unnamed statements (`prepare: false`) unless a query is built with
 * `.prepare(name)`. For a statement with parameters postgres.js then makes two round trips
 * (Parse/Describe, wait, Bind/Execute) and PostgreSQL parses and plans it on every call. Named
 * statements, cached per connection by postgres.js, take one round trip and no re-parse: on the
 * buy-and-open path that halves the messages to the server (docs/performance.md).
 *
 * The cache grows with the number of distinct statement texts (IN lists of different lengths count
 * separately), which our code keeps to a few hundred; postgres.js recycles each connection after
 * 30–60 minutes (`max_lifetime`), dropping its statements. PgBouncer in transaction mode carries
 * named statements from 1.21 on (`max_prepared_statements` > 0); an older one cannot, and
 * DATABASE_PREPARE=false turns them off (docs/deploy.md).
 */
function preparing(client: postgres.Sql): postgres.Sql {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (prop === 'unsafe' && typeof value === 'function') {
          return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
            (value as (...a: unknown[]) => unknown).call(t, query, params, { ...options, prepare: true });
        }
        if ((prop === 'begin' || prop === 'savepoint') && typeof value === 'function') {
          // Transactions hand drizzle a new sql object; it must prepare too.
          return (...args: unknown[]) => {
            const fnIndex = args.findIndex((a) => typeof a === 'function');
            if (fnIndex >= 0) {
              const fn = args[fnIndex] as (sql: object) => unknown;
              args[fnIndex] = (sql: object) => fn(wrap(sql));
            }
            return (value as (...a: unknown[]) => unknown).apply(t, args);
          };
        }
        return value;
      },
    });
  return wrap(client);
}

/**
 * postgres.js takes a Unix socket only as an option; libpq (psql, pgbench) also reads it from the
 * URL: `postgres://user@localhost/db?host=/var/run/postgresql`. A PostgreSQL on the same machine
 * is best reached that way: a message over a Unix socket costs the app a fraction of what one over
 * loopback TCP does, and an opening sends about a dozen (docs/performance.md).
 */
export function postgresTarget(url: string): { url: string; path?: string } {
  const u = new URL(url);
  const socketDir = u.searchParams.get('host');
  if (!socketDir?.startsWith('/')) return { url };
  u.searchParams.delete('host');
  return { url: u.toString(), path: `${socketDir}/.s.PGSQL.${u.port || '5432'}` };
}

export interface PostgresOptions {
  statementLog?: string | undefined;
  /**
   * Where LISTEN connects when `url` is a transaction-mode pooler (PgBouncer), which cannot keep a
   * session's LISTEN: PostgreSQL itself. Defaults to `url`.
   */
  directUrl?: string | undefined;
  /** false: unnamed statements only (PgBouncer in transaction mode before 1.21). Default true. */
  prepare?: boolean | undefined;
}

const PIPELINE_BOUND = { max_pipeline: 100_000 };

export async function openPostgres(url: string, poolSize = 10, opts: PostgresOptions = {}): Promise<DbHandle> {
  const statementLog = opts.statementLog;
  const prepare = opts.prepare ?? true;
  const target = postgresTarget(url);
  const client = postgres(target.url, {
    ...(target.path ? { path: target.path } : {}),
    max: poolSize,
    // postgres.js names its own statements (tagged templates) unless told not to.
    ...(prepare ? {} : { prepare: false }),
    onnotice: () => {},
    connect_timeout: 10,
    idle_timeout: 60,
    // postgres.js 3.4.9 skips a transaction's connection reservation when its BEGIN is the query
    // that fills a connection's pipeline (max_pipeline, default 100): the transaction then fails
    // with UNSAFE_TRANSACTION, or worse, another query runs inside it (porsager/postgres#823,
    // #1189). Seen once in wallet/load.test.ts on PostgreSQL. A bound no connection reaches keeps
    // the reservation; queries still spread over the pool first (open, then new, then busy ones).
    // Not in postgres.js's typings (src/index.js reads it); a spread skips the excess-property check.
    ...PIPELINE_BOUND,
    // Benchmark capture (bench/run.ts turns the SQL of a request into a pgbench script): one JSON line per statement.
    ...(statementLog
      ? {
          debug: (connection: number, query: string, parameters: unknown[]) =>
            appendFileSync(statementLog, `${JSON.stringify({ connection, query, parameters })}\n`),
        }
      : {}),
  });
  // postgres.js gives LISTEN a connection of its own, made from the client's options: a client of
  // its own (one connection, opened on the first listen) when that must bypass the pooler.
  let listener: postgres.Sql | null = null;
  const listenClient = () => {
    if (!opts.directUrl || opts.directUrl === url) return client;
    if (!listener) {
      const direct = postgresTarget(opts.directUrl);
      listener = postgres(direct.url, { ...(direct.path ? { path: direct.path } : {}), max: 1, onnotice: () => {}, connect_timeout: 10 });
    }
    return listener;
  };
  const statements = prepare ? preparing(client) : client;
  const db = trackCommits(drizzlePostgres(statements, { schema }) as unknown as Db);
  return {
    kind: 'postgres',
    db,
    async listen(channel, fn) {
      const sub = await listenClient().listen(channel, fn);
      return async () => sub.unlisten();
    },
    async query<T>(query: SQL) {
      return (await db.execute(query)) as unknown as T[];
    },
    async run<T>(text: string, params: unknown[]) {
      return (await statements.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare })) as unknown as T[];
    },
    async close() {
      await Promise.all([client.end({ timeout: 5 }), listener?.end({ timeout: 5 })]);
    },
  };
}

export async function pingDb(handle: DbHandle): Promise<boolean> {
  try {
    await handle.query(sql`select 1 as ok`);
    return true;
  } catch {
    return false;
  }
}
