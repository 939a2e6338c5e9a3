import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startServerProcess } from './test/server-process.ts';

/**
 * Production-mode start-up, on the real process (src/server/main.ts): missing SMTP, NODE_ENV
 * unset (development: loopback-only dev tools), production (no mailbox, no demo accounts), and
 * secrets kept out of errors. Runs on PGlite, and on PostgreSQL in the postgres project.
 */

const ORIGIN = 'http://localhost:3000';
const SECRET = 'start-up-test-secret-0123456789-abcdef';
/** An address of this machine that is not loopback: requests to it arrive from a non-loopback peer. */
const externalIp = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;


const tmpDir = () => mkdtempSync(path.join(os.tmpdir(), 'pv-start-'));

/** The database for one server: a PGlite directory, or a PostgreSQL copy of the migrated template. */
const created: string[] = [];
async function databaseEnv(): Promise<Record<string, string>> {
  const dataDir = tmpDir();
  if (inject('dbKind') !== 'postgres') return { DATA_DIR: dataDir };
  const adminUrl = inject('postgresAdminUrl');
  const name = `pv_t_${process.ppid}_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${inject('postgresTemplate')}"`);
  } finally {
    await admin.end();
  }
  created.push(name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { DATA_DIR: dataDir, DATABASE_URL: u.toString() };
}
afterAll(async () => {
  if (!created.length) return;
  const admin = postgres(inject('postgresAdminUrl'), { max: 1, onnotice: () => {} });
  for (const name of created) await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
});

const production = { NODE_ENV: 'production', APP_SECRET: SECRET, ALLOW_SANDBOX_PAYMENTS: 'true', PUBLIC_URL: ORIGIN };

function signIn(host: string, port: number, email: string, password: string) {
  return fetch(`http://${host}:${port}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ email, password }),
  });
}

describe('start-up refusals', () => {
  it('production without SMTP_URL refuses to start, with one line naming it', async () => {
    const s = startServerProcess({ ...production, DATA_DIR: tmpDir() });
    expect(await s.exited).toBe(1);
    const lines = s.output().err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^packvault: invalid configuration — SMTP_URL: must be set in production.*MAIL_DISABLED=true/);
  }, 240_000);

  it('errors do not echo secrets', async () => {
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ STRIPE_SECRET_KEY: 'sk_live_51TOPSECRETKEY-x' }, 'TOPSECRETKEY', /STRIPE_SECRET_KEY/],
      [{ SMTP_URL: 'smtp://mailer:SMTPPASSWORD1@smtp.example:bad port' }, 'SMTPPASSWORD1', /invalid configuration — SMTP_URL: must be a valid URL/],
      // Valid configuration, unreachable database: the driver's error is shown, the password is not.
      [{ DATABASE_URL: 'postgres://pv:DBPASSWORD2@127.0.0.1:1/pv', MAIL_DISABLED: 'true' }, 'DBPASSWORD2', /cannot open the database/],
    ];
    const runs = cases.map(([env]) => startServerProcess({ ...production, DATA_DIR: tmpDir(), ...env }));
    for (const [i, s] of runs.entries()) {
      const [, secret, expected] = cases[i]!;
      expect(await s.exited, secret).toBe(1);
      const { out, err } = s.output();
      expect(err).toMatch(expected);
      expect(err + out).not.toContain(secret);
    }
  }, 240_000);
});

describe('NODE_ENV unset, then production on the same data', () => {
  let db: Record<string, string>;
  beforeAll(async () => {
    db = await databaseEnv();
  });

  it('development: the dev mailbox and the demo accounts answer to loopback only, and the log holds no link', async () => {
    const s = startServerProcess({ ...db, HOST: '0.0.0.0', PUBLIC_URL: ORIGIN, LOG_LEVEL: 'debug' });
    try {
      const port = await s.listening;
      expect(s.output().out).toContain('"msg":"seeded"');
      const local = `http://127.0.0.1:${port}`;

      expect((await signIn('127.0.0.1', port, 'demo@packvault.test', 'demo-password-1')).status).toBe(200);
      const reset = await fetch(`${local}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ email: 'demo@packvault.test', redirectTo: '/update-password' }),
      });
      expect(reset.status).toBe(200);
      const box = await fetch(`${local}/api/dev/mailbox?to=demo@packvault.test`);
      expect(box.status).toBe(200);
      const [mail] = ((await box.json()) as { items: Array<{ kind: string; links: string[] }> }).items;
      expect(mail!.kind).toBe('reset-password');
      const token = /reset-password\/([^?]+)/.exec(mail!.links[0]!)![1]!;
      expect(token.length).toBeGreaterThan(10);
      expect(s.output().out).toContain('"msg":"mail kept in the dev mailbox"');
      expect(s.output().out).not.toContain(token);

      if (externalIp) {
        const remote = `http://${externalIp}:${port}`;
        expect((await fetch(`${remote}/api/dev/mailbox`)).status).toBe(403);
        expect((await fetch(`${remote}/api/dev/mailbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(403);
        const demo = await signIn(externalIp, port, 'demo@packvault.test', 'demo-password-1');
        expect(demo.status).toBe(403);
        expect(((await demo.json()) as { code: string }).code).toBe('DEMO_ACCOUNT_DISABLED');
      }
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 240_000);

  it('production: no dev mailbox, no seeding, and the leftover demo accounts cannot sign in', async () => {
    const s = startServerProcess({ ...db, ...production, HOST: '127.0.0.1', MAIL_DISABLED: 'true', LOG_LEVEL: 'debug' });
    try {
      const port = await s.listening;
      const { out } = s.output();
      expect(out).not.toContain('"msg":"seeded"');
      expect(out).toContain('demo accounts exist in this production database');
      expect(out).toContain('MAIL_DISABLED is on');
      const box = await fetch(`http://127.0.0.1:${port}/api/dev/mailbox`);
      expect(box.status).toBe(404);
      const demo = await signIn('127.0.0.1', port, 'admin@packvault.test', 'admin-password-1');
      expect(demo.status).toBe(403);
      expect(((await demo.json()) as { code: string }).code).toBe('DEMO_ACCOUNT_DISABLED');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 240_000);
});
