import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'pv-config-'));

describe('loadConfig', () => {
  it('works with no configuration, generating and keeping a secret in the data directory', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
    expect(a.shutdownTimeoutMs).toBe(8000);
    expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '25000' }).shutdownTimeoutMs).toBe(25_000);
    expect(a.databaseUrl).toBeUndefined();
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(path.join(dir, 'secret'))).toBe(true);
    expect(loadConfig({ DATA_DIR: dir }).secret).toBe(a.secret);
    expect(readFileSync(path.join(dir, 'secret'), 'utf8').trim()).toBe(a.secret);
  });

  it.each([
    ['PORT', 'abc', /PORT: must be a whole number \(got "abc"\)/],
    ['PORT', '70000', /PORT: must be between 0 and 65535/],
    ['DATABASE_URL', 'nonsense', /DATABASE_URL: must be a postgres/],
    ['DATABASE_URL', 'mysql://x@y/z', /DATABASE_URL/],
    ['SMTP_URL', 'http://mail', /SMTP_URL/],
    ['CURRENCY', 'usd', /CURRENCY/],
    ['NODE_ENV', 'staging', /NODE_ENV/],
    ['APP_SECRET', 'short', /APP_SECRET: must be at least 32/],
    ['SHUTDOWN_TIMEOUT_MS', 'soon', /SHUTDOWN_TIMEOUT_MS: must be whole milliseconds/],
    ['SHUTDOWN_TIMEOUT_MS', '100', /SHUTDOWN_TIMEOUT_MS: must be at least 500/],
  ])('%s=%s stops start-up with one line naming it', (name, value, message) => {
    let err: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });

  it('refuses production without an explicit secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp() })).toThrow(/APP_SECRET: must be set in production/);
    const c = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: tmp(),
      APP_SECRET: 'x'.repeat(40),
      ALLOW_SANDBOX_PAYMENTS: 'true',
      SMTP_URL: 'smtp://mailer:pw@smtp.example:587',
    });
    expect(c.isProduction).toBe(true);
    expect(c.seedDemo).toBe(false);
  });

  const production = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), ALLOW_SANDBOX_PAYMENTS: 'true' };

  it('refuses production without SMTP_URL unless MAIL_DISABLED says mail is off on purpose', () => {
    let err: unknown;
    try {
      loadConfig({ ...production, DATA_DIR: tmp() });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe('SMTP_URL');
    expect((err as Error).message).toMatch(/^SMTP_URL: must be set in production.*MAIL_DISABLED=true/);
    expect((err as Error).message).not.toContain('\n');
    const c = loadConfig({ ...production, DATA_DIR: tmp(), MAIL_DISABLED: 'true' });
    expect(c.mailDisabled).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp() }).mailDisabled).toBe(false);
  });

  it('never seeds the demo accounts in production', () => {
    expect(() => loadConfig({ ...production, MAIL_DISABLED: 'true', DATA_DIR: tmp(), SEED_DEMO: 'true' })).toThrow(/^SEED_DEMO: cannot be on in production/);
    expect(loadConfig({ DATA_DIR: tmp() }).seedDemo).toBe(true);
  });

  it.each([
    ['STRIPE_SECRET_KEY', 'sk_live_51SUPERSECRETVALUE-x', 'SUPERSECRETVALUE'],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_HOOKSECRET!', 'HOOKSECRET'],
    ['APP_SECRET', 'tooshort-APPSECRET', 'APPSECRET'],
    ['DATABASE_URL', 'mysql://root:DBPASSWORD@db.internal/x', 'DBPASSWORD'],
    ['DATABASE_URL', 'postgres://root:DBPASSWORD@/x', 'DBPASSWORD'],
    ['SMTP_URL', 'http://mailer:MAILPASSWORD@smtp.example', 'MAILPASSWORD'],
    ['SMTP_URL', 'smtp://mailer:MAILPASSWORD@smtp.example:bad port', 'MAILPASSWORD'],
    // Issue 39: a `/` in the password (base64), a quote, an `@`, and a value no URL parser accepts.
    ['DATABASE_URL', 'postgres://app:Pa/ssw0rdSECRET@db.example:5432/pv', 'ssw0rdSECRET'],
    ['DATABASE_URL', 'postgres://app:Pa"ssw0rdSECRET@/pv', 'ssw0rdSECRET'],
    ['DATABASE_URL', 'postgres://app:Pa@ssw0rdSECRET@:5432/pv', 'ssw0rdSECRET'],
    ['DATABASE_URL', 'postgresql//u:DBPASS123@host/db', 'DBPASS123'],
    ['DATABASE_DIRECT_URL', 'postgresql//u:DBPASS123@host/db', 'DBPASS123'],
  ])('%s errors do not echo the secret', (name, value, secret) => {
    let err: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message).not.toContain(secret);
  });

  it('shows a URL with its password masked, so the mistake is still visible', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://root:pw@db.internal/x' })).toThrow(
      'DATABASE_URL: must be a postgres:// or postgresql:// URL with a host, e.g. postgres://user:pass@127.0.0.1:5432/packvault (got "mysql://***@db.internal/x")',
    );
  });

  it('accepts a PostgreSQL URL', () => {
    const c = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pv' });
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/pv');
  });

  it('behind PgBouncer: a direct URL for LISTEN and migrations, prepared statements and start-up migration as flags', () => {
    const plain = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://pv@db:5432/pv' });
    expect(plain).toMatchObject({ databaseDirectUrl: 'postgres://pv@db:5432/pv', databasePrepare: true, migrateOnStart: true });
    const pooled = loadConfig({
      DATA_DIR: tmp(),
      DATABASE_URL: 'postgres://pv@pgbouncer:6432/pv',
      DATABASE_DIRECT_URL: 'postgres://pv@db:5432/pv',
      DATABASE_PREPARE: 'false',
      MIGRATE_ON_START: 'false',
    });
    expect(pooled).toMatchObject({ databaseDirectUrl: 'postgres://pv@db:5432/pv', databasePrepare: false, migrateOnStart: false });
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_DIRECT_URL: 'postgres://pv@db:5432/pv' })).toThrow('DATABASE_DIRECT_URL: is only used with DATABASE_URL');
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://pv@db/pv', DATABASE_DIRECT_URL: 'http://db/pv' })).toThrow(/^DATABASE_DIRECT_URL: must be a postgres/);
  });
});

describe('configWarnings', () => {
  const prod = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), ALLOW_SANDBOX_PAYMENTS: 'true', MAIL_DISABLED: 'true', SEED_DEMO: 'false' };
  it('warns when TRUST_PROXY=true in production, recommending CIDRs', () => {
    const [warning, ...rest] = configWarnings(loadConfig({ ...prod, DATA_DIR: tmp(), TRUST_PROXY: 'true' }));
    expect(rest).toEqual([]);
    expect(warning).toMatch(/TRUST_PROXY=true/);
    expect(warning).toMatch(/CIDR|10\.0\.0\.0\/8/);
    expect(warning).toMatch(/docs\/deploy\.md/);
  });
  it('is quiet for CIDRs, or outside production', () => {
    // `1` means the same as `true` (one proxy, whichever peer): it warns too.
    expect(configWarnings(loadConfig({ ...prod, DATA_DIR: tmp(), TRUST_PROXY: '1' }))).toHaveLength(1);
    expect(configWarnings(loadConfig({ ...prod, DATA_DIR: tmp(), TRUST_PROXY: '10.0.0.0/8' }))).toEqual([]);
    expect(configWarnings(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true' }))).toEqual([]);
  });
});
