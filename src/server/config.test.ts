import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'pv-config-'));

describe('loadConfig', () => {
  it('works with no configuration, generating and keeping a secret in the data directory', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
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
    });
    expect(c.isProduction).toBe(true);
    expect(c.seedDemo).toBe(false);
  });

  it('accepts a PostgreSQL URL', () => {
    const c = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pv' });
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/pv');
  });
});
