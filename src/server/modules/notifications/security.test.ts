import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '../../db/schema/mail.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { signUpAndSignIn, totpCode } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const securityEvents = async (userId: string) =>
  (await t.deps.db.select().from(notifications).where(eq(notifications.userId, userId)))
    .filter((n) => n.kind === 'security')
    .map((n) => (n.data as { event: string }).event);
const securityMails = async (email: string) => (await t.deps.db.select().from(mailMessages).where(eq(mailMessages.to, email))).filter((m) => m.kind === 'security');

describe('security notifications (Better Auth paths)', () => {
  it('a sign-in, a wrong password (nothing), a password change, two-factor on and off', async () => {
    const u = await signUpAndSignIn(t);
    const wrong = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: u.email, password: 'not-the-password-1' } });
    expect(wrong.status).toBe(401);
    expect(await securityEvents(u.userId)).toEqual([]);

    const ok = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: u.email, password: u.password }, headers: { 'user-agent': 'NotifyTest/1.0' } });
    expect(ok.status).toBe(200);
    expect(await securityEvents(u.userId)).toEqual(['new_sign_in']);
    const [mail] = await securityMails(u.email);
    expect(mail!.text).toContain('NotifyTest/1.0');
    expect(mail!.text).not.toContain('unsubscribe');

    const changed = await t.request('/api/auth/change-password', { method: 'POST', json: { currentPassword: u.password, newPassword: 'a-new-long-passphrase-1' }, headers: u.headers });
    expect(changed.status).toBe(200);
    expect(await securityEvents(u.userId)).toContain('password_changed');
    expect((await securityEvents(u.userId)).filter((e) => e === 'new_sign_in')).toHaveLength(1);
  });

  it('two-factor enrolment completes on verify-totp (enable alone tells nothing)', async () => {
    const u = await signUpAndSignIn(t);
    const enable = await t.request('/api/auth/two-factor/enable', { method: 'POST', json: { password: u.password }, headers: u.headers });
    expect(enable.status).toBe(200);
    expect(await securityEvents(u.userId)).toEqual([]);
    const secret = new URL((await enable.json()).totpURI).searchParams.get('secret')!;
    const confirm = await t.request('/api/auth/two-factor/verify-totp', { method: 'POST', json: { code: totpCode(secret) }, headers: u.headers });
    expect(confirm.status).toBe(200);
    expect(await securityEvents(u.userId)).toEqual(['two_factor_enabled']);
    expect(await securityMails(u.email)).toHaveLength(1);
  });
});
