import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: z
    .string()
    .url('must be an absolute URL such as https://packvault.example')
    .optional(),
  SITE_NAME: z.string().min(1).max(60).default('Packvault'),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD')
    .default('USD'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Packvault <no-reply@packvault.test>'),
  SENTRY_DSN: z.string().url('must be a Sentry DSN URL').optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  TRUST_PROXY: boolish.default(false),
  SEED_DEMO: boolish.optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  dbPoolSize: number;
  secret: string;
  publicUrl: string;
  siteName: string;
  currency: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  sentryDsn: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  trustProxy: boolean;
  seedDemo: boolean;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const got = env[variable];
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
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT || 3000}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    secret,
    publicUrl,
    siteName: e.SITE_NAME,
    currency: e.CURRENCY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sentryDsn: e.SENTRY_DSN,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    seedDemo: e.SEED_DEMO ?? !isProduction,
  };
}
