import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '../../db/schema/mail.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { sendMail } from './service.ts';

/** No log line ever holds a sign-in, verification or reset link (their tokens sign you in). */

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger('debug', {}, (l) => lines.push(l)) };
}

const LINK = 'http://localhost:3000/api/auth/reset-password/RESET-TOKEN-42?callbackURL=%2Fupdate-password';

describe('mail and the log', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('the dev mailbox logs the masked recipient, kind, subject and where to read it — never the link', async () => {
    const { lines, log } = capture();
    await sendMail({ ...t.deps, log }, { to: 'dev@example.test', kind: 'reset-password', data: { url: LINK } });
    const out = lines.join('\n');
    // The recipient, masked: which mailbox, without collecting addresses in the log.
    expect(out).toContain('d…@example.test');
    expect(out).not.toContain('dev@example.test');
    expect(out).toContain('reset-password');
    expect(out).toContain('/api/dev/mailbox');
    expect(out).not.toContain('RESET-TOKEN-42');
    expect(out).not.toContain('/reset-password/');
  });

  it('a failed SMTP send logs no link either', async () => {
    const { lines, log } = capture();
    const deps = { ...t.deps, log, config: { ...t.deps.config, smtpUrl: 'smtp://mailer:SMTP-PASSWORD@127.0.0.1:1' } };
    await sendMail(deps, { to: 'later@example.test', kind: 'verify-email', data: { url: LINK } });
    const out = lines.join('\n');
    expect(out).toContain('mail send failed');
    expect(out).not.toContain('RESET-TOKEN-42');
    expect(out).not.toContain('SMTP-PASSWORD');
  });
});

describe('MAIL_DISABLED', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { mailDisabled: true } });
  });
  afterAll(() => t.close());

  it('drops mail with a warning and stores nothing', async () => {
    const { lines, log } = capture();
    expect(await sendMail({ ...t.deps, log }, { to: 'nobody@example.test', kind: 'reset-password', data: { url: LINK } })).toBeNull();
    expect(await t.deps.db.select().from(mailMessages).where(eq(mailMessages.to, 'nobody@example.test'))).toHaveLength(0);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'mail dropped: MAIL_DISABLED is on' }),
    );
    expect(lines.join('\n')).not.toContain('RESET-TOKEN-42');
  });

  it('features that need mail say so (503)', async () => {
    const signUp = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      json: { email: 'new@example.test', password: 'violet-moth-lantern', username: 'new_user', ageConfirmed: true, termsAccepted: true },
    });
    expect(signUp.status).toBe(503);
    const body = await signUp.json();
    expect(body.code).toBe('MAIL_DISABLED');
    expect(body.message).toMatch(/sends no email/);
    const reset = await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email: 'x@example.test', redirectTo: '/update-password' } });
    expect(reset.status).toBe(503);
    expect(await t.deps.db.select().from(mailMessages)).toHaveLength(0);
  });
});
