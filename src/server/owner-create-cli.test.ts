import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from './lib/paths.ts';
import { cookiesFrom, totpCode } from './test/auth-helpers.ts';
import { startServerProcess, type ServerProcess } from './test/server-process.ts';

/**
 * `npm run owner:create` end to end (issue 39.6): the npm script as an operator runs it, in
 * production mode, against a fresh database (a temp PGlite DATA_DIR; a copy of the migrated
 * template in the postgres project), then the real server: the printed password signs in and the
 * admin API demands two-factor enrolment until it is done. Without a current build the script
 * runs the source through tsx (the case here unless a build is in the worktree).
 */

const ORIGIN = 'http://localhost:3000';
const production = {
  NODE_ENV: 'production',
  APP_SECRET: 'owner-create-test-secret-0123456789-abcdef',
  ALLOW_SANDBOX_PAYMENTS: 'true',
  PUBLIC_URL: ORIGIN,
  MAIL_DISABLED: 'true',
  LOG_LEVEL: 'info',
};

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function ownerCreate(env: Record<string, string>, args: string[]): Promise<Run> {
  const child = spawn('npm', ['run', '--silent', 'owner:create', '--', ...args], {
    cwd: projectRoot,
    // Clean apart from PATH and HOME, as the server processes of the tests: the test states the configuration.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

let env: Record<string, string>;
let dbName: string | null = null;
beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pv-owner-'));
  env = { ...production, DATA_DIR: dataDir };
  if (inject('dbKind') === 'postgres') {
    const adminUrl = inject('postgresAdminUrl');
    dbName = `pv_t_${process.ppid}_${randomBytes(5).toString('hex')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${dbName}" template "${inject('postgresTemplate')}"`);
    } finally {
      await admin.end();
    }
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
});
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.stop();
  if (dbName) {
    const admin = postgres(inject('postgresAdminUrl'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => {});
    await admin.end();
  }
});

describe('npm run owner:create', () => {
  it('refuses a missing or invalid --email and a taken one (exit 1), creates the owner once (exit 0); the password signs in and admin APIs answer 403 until TOTP is enrolled', async () => {
    const missing = await ownerCreate(env, []);
    expect(missing.code, missing.err).toBe(1);
    expect(missing.err).toMatch(/--email is required/);
    expect(missing.out).toBe('');

    const invalid = await ownerCreate(env, ['--email', 'not-an-email']);
    expect(invalid.code, invalid.err).toBe(1);
    expect(invalid.err).toMatch(/--email: Enter a valid email address/);

    const made = await ownerCreate(env, ['--email', 'Founder@Shop.TEST']);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toMatch(/created the owner founder@shop\.test/);
    const password = /One-time password: (\S+)/.exec(made.out)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // Printed once, on stdout only: no log line carries it.
    expect(made.err).not.toContain(password);
    expect(made.out.split(password!)).toHaveLength(2);

    const taken = await ownerCreate(env, ['--email', 'founder@shop.test']);
    expect(taken.code, taken.err).toBe(1);
    expect(taken.err).toMatch(/already exists.*--promote/);

    server = startServerProcess(env);
    const port = await server.listening;

    if (!env.DATABASE_URL) {
      // PGlite is one process's: the running server holds DATA_DIR, and the command says so.
      const locked = await ownerCreate(env, ['--email', 'second@shop.test']);
      expect(locked.code, locked.err).toBe(1);
      expect(locked.err).toMatch(/in use by a running Packvault server.*Stop the server/);
    }

    const base = `http://127.0.0.1:${port}`;
    const req = (p: string, init: { method?: string; cookie?: string; json?: unknown } = {}) =>
      fetch(`${base}${p}`, {
        method: init.method ?? 'GET',
        headers: { origin: ORIGIN, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.cookie ? { cookie: init.cookie } : {}) },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      });

    expect((await req('/api/auth/sign-in/email', { method: 'POST', json: { email: 'founder@shop.test', password: 'wrong-password-1' } })).status).toBe(401);
    const signIn = await req('/api/auth/sign-in/email', { method: 'POST', json: { email: 'founder@shop.test', password } });
    expect(signIn.status, server.log()).toBe(200);
    const cookie = cookiesFrom(signIn);
    const me = await (await req('/api/me', { cookie })).json();
    expect(me.user).toMatchObject({ role: 'owner', twoFactorEnabled: false, emailVerified: true });
    expect(me.session.mfaPassed).toBe(false);
    const denied = await req('/api/admin/users', { cookie });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe('mfa_required');

    const enable = await req('/api/auth/two-factor/enable', { method: 'POST', cookie, json: { password } });
    expect(enable.status).toBe(200);
    const secret = new URL((await enable.json()).totpURI).searchParams.get('secret')!;
    const pending = cookiesFrom(enable, cookie);
    expect((await req('/api/admin/users', { cookie: pending })).status).toBe(403);
    const verify = await req('/api/auth/two-factor/verify-totp', { method: 'POST', cookie: pending, json: { code: totpCode(secret) } });
    expect(verify.status).toBe(200);
    const enrolled = cookiesFrom(verify, pending);
    expect((await req('/api/admin/users', { cookie: enrolled })).status).toBe(200);
    expect((await req('/api/admin/admins', { cookie: enrolled })).status).toBe(200);
  }, 420_000);
});
