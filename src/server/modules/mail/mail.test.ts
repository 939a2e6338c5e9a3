import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '../../db/schema/mail.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { runJobOnce } from '../../jobs/scheduler.ts';
import { mailOutboxJob, retryPendingMail, sendMail } from './service.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

function startSmtp(): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        cb();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.server.address() as AddressInfo).port, received }));
  });
}

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestContext;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestContext({ config: { smtpUrl: `smtp://mailer:secret@127.0.0.1:${smtp.port}`, mailFrom: 'Packvault <no-reply@packvault.test>' } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => smtp.server.close(() => r()));
});

describe('mail over SMTP', () => {
  it('delivers sign-up verification mail over SMTP with HTML and text parts', async () => {
    const res = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      json: { email: 'smtp-user@example.test', password: 'violet-moth-lantern', username: 'smtp_user', ageConfirmed: true, termsAccepted: true },
    });
    expect(res.status).toBe(200);
    const got = smtp.received.find((m) => m.to.includes('smtp-user@example.test'));
    expect(got).toBeDefined();
    expect(got!.from).toBe('no-reply@packvault.test');
    expect(got!.raw).toContain('text/plain');
    expect(got!.raw).toContain('text/html');
    expect(got!.raw).toMatch(/Confirm your email/);
    const [row] = await t.deps.db.select().from(mailMessages).where(eq(mailMessages.to, 'smtp-user@example.test'));
    expect(row!.status).toBe('sent');
  });

  it('keeps a failed send pending and delivers it on retry (never dropped)', async () => {
    const down = { ...t.deps, config: { ...t.deps.config, smtpUrl: 'smtp://127.0.0.1:1' } };
    const id = (await sendMail(down, { to: 'later@example.test', kind: 'reset-password', data: { url: 'http://localhost:3000/x' } }))!;
    const [pending] = await t.deps.db.select().from(mailMessages).where(eq(mailMessages.id, id));
    expect(pending!.status).toBe('pending');
    expect(pending!.attempts).toBe(1);
    expect(pending!.lastError).toBeTruthy();
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Not due yet: nothing happens.
    expect(await retryPendingMail(t.deps)).toBe(0);
    await t.deps.db.update(mailMessages).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(mailMessages.id, id));
    expect(await retryPendingMail(t.deps)).toBe(1);
    const [sent] = await t.deps.db.select().from(mailMessages).where(eq(mailMessages.id, id));
    expect(sent!.status).toBe('sent');
    expect(sent!.attempts).toBe(2);
    expect(smtp.received.some((m) => m.to.includes('later@example.test'))).toBe(true);
  });

  it('the outbox job (a scheduled job, claimed once across processes) sends due pending mail', async () => {
    const down = { ...t.deps, config: { ...t.deps.config, smtpUrl: 'smtp://127.0.0.1:1' } };
    const id = (await sendMail(down, { to: 'job@example.test', kind: 'reset-password', data: { url: 'http://localhost:3000/x' } }))!;
    await t.deps.db.update(mailMessages).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(mailMessages.id, id));
    const job = mailOutboxJob(60_000);
    expect(await runJobOnce(t.deps, job)).toBe('ran');
    const [sent] = await t.deps.db.select().from(mailMessages).where(eq(mailMessages.id, id));
    expect(sent!.status).toBe('sent');
    expect(smtp.received.some((m) => m.to.includes('job@example.test'))).toBe(true);
    // Within its interval another process (or tick) does not run it again.
    expect(await runJobOnce(t.deps, job)).toBe('skipped');
  });
});
