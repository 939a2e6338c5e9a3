import { createHash, createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/client-ip.ts';
import { shownConfigValue } from './lib/redact.ts';

/**
 * The only module that reads process.env. Everything else receives a Config.
 * A bad value stops start-up with one line naming the variable (see ConfigError).
 */

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const postgresUrl = z
  .string()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be a postgres:// or postgresql:// URL with a host, e.g. postgres://user:pass@127.0.0.1:5432/packvault');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Deploy (docs/deploy.md): a direct PostgreSQL URL for what a transaction-mode pooler cannot
   * carry, LISTEN and the migration's session lock, when DATABASE_URL goes through PgBouncer.
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /** false: unnamed statements only, for a transaction-mode PgBouncer older than 1.21. */
  DATABASE_PREPARE: boolish.default(true),
  /** false: this process does not migrate at start (a one-shot `npm run db:migrate` did). */
  MIGRATE_ON_START: boolish.default(true),
  /** Benchmark only (bench/run.ts): append every PostgreSQL statement and its parameters to this file. */
  DB_STATEMENT_LOG: z.string().min(1).optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: z
    .string()
    .url('must be an absolute URL such as https://packvault.example')
    .optional(),
  /**
   * Initial value only: the site name, the deposit limits are settings (admin screen, settings
   * registry). These seed them on the first start, when the database has no value yet (ADR 0016).
   */
  SITE_NAME: z.string().min(1).max(60).default('Packvault'),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD')
    .default('USD'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .refine((v) => URL.canParse(v), 'must be a valid URL such as smtp://user:pass@smtp.example:587')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Packvault <no-reply@packvault.test>'),
  SENTRY_DSN: z.string().url('must be a Sentry DSN URL').optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** true|false|<proxy hops>|<comma-separated proxy IPs/CIDRs>: see http/client-ip.ts. */
  TRUST_PROXY: z
    .string()
    .transform((v, ctx): TrustProxy => {
      try {
        return parseTrustProxy(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    })
    .default(false),
  SEED_DEMO: boolish.optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)').optional(),
  ALLOW_SANDBOX_PAYMENTS: boolish.default(false),
  DEPOSIT_MIN_CENTS: z.coerce.number().int('must be whole cents').min(50, 'must be at least 50').default(500),
  DEPOSIT_MAX_CENTS: z.coerce.number().int('must be whole cents').max(100_000_000, 'is too large').default(100_000),
  MONITORING_MAX_REPORT_BYTES: z.coerce.number().int('must be whole bytes').min(1024, 'must be at least 1024').max(1024 * 1024, 'must be at most 1048576').optional(),
  MONITORING_MAX_REPORTS: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
  MONITORING_RETENTION_DAYS: z.coerce.number().int('must be whole days').min(1, 'must be at least 1').optional(),
  IDEMPOTENCY_RETENTION_HOURS: z.coerce
    .number()
    .int('must be whole hours')
    .min(24, 'must be at least 24 (a client may retry a money request that long)')
    .optional(),
  RATE_LIMIT_RETENTION_HOURS: z.coerce
    .number()
    .int('must be whole hours')
    .min(2, 'must be at least 2 (longer than the longest rate-limit window, 1 hour)')
    .optional(),
  VAULT_PROOF_RETENTION_DAYS: z.coerce.number().int('must be whole days').min(7, 'must be at least 7 (a collector needs time to download a week of proofs)').optional(),
  PRUNE_INTERVAL_MINUTES: z.coerce.number().int('must be whole minutes').min(1, 'must be at least 1').optional(),
  PRUNE_BATCH_SIZE: z.coerce.number().int('must be a whole number').min(10, 'must be at least 10').max(100_000, 'must be at most 100000').optional(),
  /** Bearer token a Prometheus scraper sends to GET /metrics; unset: /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Says on purpose that this site sends no mail: production may then start without SMTP_URL. */
  MAIL_DISABLED: boolish.default(false),
  /** SIGTERM/SIGINT: how long in-flight requests get to finish before sockets are cut (exit 1). */
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ message: 'must be whole milliseconds' })
    .int('must be whole milliseconds')
    .min(500, 'must be at least 500')
    .max(600_000, 'must be at most 600000 (10 minutes)')
    .default(8_000),
  /** Concurrent GET /api/events streams one client address may hold on a process (429 past it). */
  SSE_MAX_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Concurrent streams one signed-in user may hold on a process, from any address. */
  SSE_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /**
   * How often each process checks, in one query, that the sessions of its open streams still
   * exist, have not expired and belong to a user neither banned nor deleted (issue 39): the
   * backstop for a revocation the bus did not deliver to a stream.
   */
  SSE_SESSION_SWEEP_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** Uncached pull Open Graph image renders one address may start per minute. */
  OG_RENDERS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
  PAGE_CACHE_MS: z.coerce.number().int('must be whole milliseconds').min(0, 'must be at least 0').max(60_000, 'must be at most 60000').default(1_000),
  /**
   * Proof of the vault (ADR 0030): the Ed25519 key that signs the daily snapshots, as the
   * 32-byte private seed in base64/base64url or a PKCS#8 PEM. Production needs it for snapshots
   * (none are made without it); development keeps a generated one in DATA_DIR.
   */
  VAULT_SIGNING_KEY: z
    .string()
    .refine((v) => parseVaultSigningKey(v) !== null, 'must be an Ed25519 private key: 32 bytes in base64, or a PKCS#8 PEM (openssl genpkey -algorithm ed25519)')
    .optional(),
});

/** What is kept, and for how long (see jobs/prune.ts and modules/monitoring). */
export interface RetentionConfig {
  /** The largest /monitoring report accepted (413 above it). */
  monitoringMaxReportBytes: number;
  /** Stored reports at most; with the per-report cap this bounds their bytes too. */
  monitoringMaxReports: number;
  monitoringRetentionDays: number;
  /** How long an Idempotency-Key replays its first answer. */
  idempotencyRetentionHours: number;
  /** Rate-limit rows whose window started longer ago than this are deleted (must exceed every window). */
  rateLimitRetentionHours: number;
  /**
   * How long a vault snapshot's tree and holdings (the inclusion proofs, ~115 MB per million
   * copies) are kept; its signed statement and totals stay for ever, and so does the latest tree.
   */
  vaultProofRetentionDays: number;
  pruneIntervalMinutes: number;
  /** Rows per DELETE: each batch is its own short transaction. */
  pruneBatchSize: number;
}

export const RETENTION_DEFAULTS: RetentionConfig = {
  monitoringMaxReportBytes: 16 * 1024,
  monitoringMaxReports: 5_000,
  monitoringRetentionDays: 14,
  idempotencyRetentionHours: 48,
  rateLimitRetentionHours: 24,
  vaultProofRetentionDays: 90,
  pruneIntervalMinutes: 60,
  pruneBatchSize: 1_000,
};

/** The retention settings with defaults filled in (test configs may leave them out). */
export function retentionOf(config: Pick<Config, 'retention'>): RetentionConfig {
  return { ...RETENTION_DEFAULTS, ...config.retention };
}

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  dbPoolSize: number;
  /** DATABASE_DIRECT_URL (else DATABASE_URL): LISTEN and migrations, which need a session. */
  databaseDirectUrl?: string | undefined;
  /** DATABASE_PREPARE: named prepared statements (db/client.ts); off behind PgBouncer < 1.21. */
  databasePrepare?: boolean;
  /** MIGRATE_ON_START: off when migrations run once before the new version (docs/deploy.md). */
  migrateOnStart?: boolean;
  /** Benchmark only: file that receives every PostgreSQL statement + parameters (see bench/). */
  dbStatementLog?: string | undefined;
  secret: string;
  publicUrl: string;
  /** SITE_NAME: the first start's site name (then the 'site.identity' setting), and the TOTP issuer. */
  siteName: string;
  currency: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  sentryDsn: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Which reverse proxies may report the client address (http/client-ip.ts). */
  trustProxy: TrustProxy;
  seedDemo: boolean;
  /** Payments (see modules/payments). Optional so older test configs stay valid; defaults apply. */
  stripeSecretKey?: string | undefined;
  stripeWebhookSecret?: string | undefined;
  /** Lets the test-mode sandbox provider run with NODE_ENV=production. */
  allowSandboxPayments?: boolean;
  /** First-start values of the 'payments.depositLimits' setting (DEPOSIT_MIN_CENTS / DEPOSIT_MAX_CENTS). */
  depositMinCents?: number;
  depositMaxCents?: number;
  /** Retention and prune schedule; see RetentionConfig. Optional so test configs stay valid. */
  retention?: Partial<RetentionConfig>;
  /** MAIL_DISABLED: mail is dropped with a warning; features that need mail answer 503. */
  mailDisabled?: boolean;
  /**
   * SHUTDOWN_TIMEOUT_MS: the whole graceful stop (drain, jobs, bus, database) must fit in it. The
   * default stays under `docker stop`'s 10 s so the process exits on its own before a SIGKILL.
   */
  shutdownTimeoutMs?: number;
  /** METRICS_TOKEN: the bearer token of GET /metrics; undefined hides the endpoint (404). */
  metricsToken?: string | undefined;
  /** SSE_MAX_STREAMS_PER_ADDRESS / _PER_USER (issue 39); the bench raises them. */
  sseMaxStreamsPerAddress?: number;
  sseMaxStreamsPerUser?: number;
  /** SSE_SESSION_SWEEP_MS: how often open streams' sessions are checked (2 s; tests shorten it). */
  sseSessionSweepMs?: number;
  /** OG_RENDERS_PER_MINUTE: uncached pull image renders per address per minute. */
  ogRendersPerMinute?: number;
  /**
   * PAGE_CACHE_MS: how long a visitor's server-drawn page is sent as made before its reads are made
   * again (pages/page-cache.ts; 0 turns the cache off). Catalog, product and settings changes and
   * maintenance drop it at once.
   */
  pageCacheMs?: number;
  /** VAULT_SIGNING_KEY as given (see vaultSigningKeyOf): undefined in development and tests. */
  vaultSigningKey?: string | undefined;
};

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    out[key] = v === undefined || v.trim() === '' ? undefined : v.trim();
  }
  return out;
}

/** Reads the generated development secret, creating it on first use. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  }
  mkdirSync(dataDir, { recursive: true });
  const s = randomBytes(32).toString('base64url');
  writeFileSync(file, `${s}\n`, { mode: 0o600 });
  return s;
}

/**
 * What start-up logs as warnings about a configuration that works but is risky (main.ts). Issue 39:
 * TRUST_PROXY=true trusts whatever TCP peer connects to believe its X-Forwarded-For; in production
 * the proxies' addresses (CIDRs) say exactly who may.
 */
export function configWarnings(config: Pick<Config, 'isProduction' | 'trustProxy'>): string[] {
  const warnings: string[] = [];
  if (config.isProduction && config.trustProxy === true) {
    warnings.push(
      'TRUST_PROXY=true trusts X-Forwarded-For from any peer that reaches this port; in production set the proxies\' addresses instead (e.g. TRUST_PROXY=10.0.0.0/8 or 172.18.0.2), see docs/deploy.md',
    );
  }
  return warnings;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const raw = env[variable];
    // Secrets are never echoed: keys show only their prefix, URLs lose their password.
    const got = raw === undefined ? undefined : shownConfigValue(variable, raw);
    throw new ConfigError(variable, `${issue.message}${got !== undefined ? ` (got "${got}")` : ''}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  let secret = e.APP_SECRET;
  if (!secret) {
    if (isProduction) {
      throw new ConfigError(
        'APP_SECRET',
        'must be set in production (at least 32 random characters, e.g. `openssl rand -base64 32`)',
      );
    }
    secret = developmentSecret(dataDir);
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    const missing = e.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
    throw new ConfigError(missing, 'must be set together with the other Stripe variable (or unset both for the sandbox)');
  }
  if (isProduction && !e.STRIPE_SECRET_KEY && !e.ALLOW_SANDBOX_PAYMENTS) {
    throw new ConfigError(
      'ALLOW_SANDBOX_PAYMENTS',
      'production without STRIPE_SECRET_KEY would take test-mode (sandbox) deposits; set the Stripe keys, or ALLOW_SANDBOX_PAYMENTS=true to run a demo on purpose',
    );
  }
  if (e.DEPOSIT_MAX_CENTS < e.DEPOSIT_MIN_CENTS) {
    throw new ConfigError('DEPOSIT_MAX_CENTS', `must be at least DEPOSIT_MIN_CENTS (${e.DEPOSIT_MIN_CENTS})`);
  }
  if (isProduction && !e.SMTP_URL && !e.MAIL_DISABLED) {
    throw new ConfigError(
      'SMTP_URL',
      'must be set in production (e.g. smtp://user:pass@smtp.example:587): without it sign-up, verification and password-reset mail would go nowhere; set MAIL_DISABLED=true to run without mail on purpose',
    );
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    throw new ConfigError('DATABASE_DIRECT_URL', 'is only used with DATABASE_URL (set both, or neither for the embedded database)');
  }
  if (isProduction && e.SEED_DEMO) {
    throw new ConfigError('SEED_DEMO', 'cannot be on in production: the demo accounts have published passwords');
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT || 3000}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    databasePrepare: e.DATABASE_PREPARE,
    migrateOnStart: e.MIGRATE_ON_START,
    dbStatementLog: e.DB_STATEMENT_LOG,
    secret,
    publicUrl,
    siteName: e.SITE_NAME,
    currency: e.CURRENCY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sentryDsn: e.SENTRY_DSN,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    seedDemo: !isProduction && (e.SEED_DEMO ?? true),
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    allowSandboxPayments: e.ALLOW_SANDBOX_PAYMENTS,
    depositMinCents: e.DEPOSIT_MIN_CENTS,
    depositMaxCents: e.DEPOSIT_MAX_CENTS,
    retention: {
      monitoringMaxReportBytes: e.MONITORING_MAX_REPORT_BYTES ?? RETENTION_DEFAULTS.monitoringMaxReportBytes,
      monitoringMaxReports: e.MONITORING_MAX_REPORTS ?? RETENTION_DEFAULTS.monitoringMaxReports,
      monitoringRetentionDays: e.MONITORING_RETENTION_DAYS ?? RETENTION_DEFAULTS.monitoringRetentionDays,
      idempotencyRetentionHours: e.IDEMPOTENCY_RETENTION_HOURS ?? RETENTION_DEFAULTS.idempotencyRetentionHours,
      rateLimitRetentionHours: e.RATE_LIMIT_RETENTION_HOURS ?? RETENTION_DEFAULTS.rateLimitRetentionHours,
      vaultProofRetentionDays: e.VAULT_PROOF_RETENTION_DAYS ?? RETENTION_DEFAULTS.vaultProofRetentionDays,
      pruneIntervalMinutes: e.PRUNE_INTERVAL_MINUTES ?? RETENTION_DEFAULTS.pruneIntervalMinutes,
      pruneBatchSize: e.PRUNE_BATCH_SIZE ?? RETENTION_DEFAULTS.pruneBatchSize,
    },
    mailDisabled: e.MAIL_DISABLED,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sseMaxStreamsPerAddress: e.SSE_MAX_STREAMS_PER_ADDRESS,
    sseMaxStreamsPerUser: e.SSE_MAX_STREAMS_PER_USER,
    sseSessionSweepMs: e.SSE_SESSION_SWEEP_MS,
    ogRendersPerMinute: e.OG_RENDERS_PER_MINUTE,
    pageCacheMs: e.PAGE_CACHE_MS,
    metricsToken: e.METRICS_TOKEN,
    vaultSigningKey: e.VAULT_SIGNING_KEY,
  };
}

/** An Ed25519 private key from VAULT_SIGNING_KEY's text, or null when it is not one. */
export function parseVaultSigningKey(text: string): KeyObject | null {
  try {
    const t = text.trim();
    if (t.startsWith('-----BEGIN')) {
      const k = createPrivateKey(t);
      return k.asymmetricKeyType === 'ed25519' ? k : null;
    }
    const seed = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (seed.length !== 32 || !/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) return null;
    // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410).
    return createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  } catch {
    return null;
  }
}

export type VaultKeySource = 'config' | 'development-file' | 'test-derived';

/**
 * The key that signs vault snapshots (ADR 0030). VAULT_SIGNING_KEY when set. Otherwise: in
 * production none (snapshots are refused: a key made up on a server's disk is a key nobody
 * published or backed up); in development one generated once and kept in DATA_DIR/vault-signing-key
 * (like the development APP_SECRET); in tests one derived from the test secret, so a test run
 * writes nothing and two apps with one config agree.
 */
export function vaultSigningKeyOf(config: Pick<Config, 'env' | 'isProduction' | 'dataDir' | 'secret' | 'vaultSigningKey'>): { key: KeyObject; source: VaultKeySource } | null {
  if (config.vaultSigningKey) {
    const key = parseVaultSigningKey(config.vaultSigningKey);
    return key ? { key, source: 'config' } : null;
  }
  if (config.isProduction) return null;
  if (config.env === 'test') {
    const seed = createHash('sha256').update(`packvault:vault:test-signing-key:v1\0${config.secret}`).digest('base64');
    return { key: parseVaultSigningKey(seed)!, source: 'test-derived' };
  }
  const file = path.join(config.dataDir, 'vault-signing-key');
  if (existsSync(file)) {
    const key = parseVaultSigningKey(readFileSync(file, 'utf8'));
    if (key) return { key, source: 'development-file' };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const seed = randomBytes(32).toString('base64');
  writeFileSync(file, `${seed}\n`, { mode: 0o600 });
  return { key: parseVaultSigningKey(seed)!, source: 'development-file' };
}
