import type { Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { allowConsoleError, expect, test } from './fixtures.ts';
import { latestMailLink, unique } from './support.ts';

/**
 * The account journey through the real forms (the only specs that use them): register → mail →
 * verify → enrol two-factor → sign out → sign in → second factor → /home; backup codes work
 * once; repeated wrong codes lock the factor; password reset through the mailed link.
 */

/** A code for the next 30-second step, so it is never a replay of one just used. */
async function freshCode(secret: string, lastUsedStep: { value: number }): Promise<string> {
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  let step = Math.floor(Date.now() / 30_000);
  while (step <= lastUsedStep.value) {
    await new Promise((r) => setTimeout(r, 500));
    step = Math.floor(Date.now() / 30_000);
  }
  lastUsedStep.value = step;
  return totp.generate();
}

async function signOut(page: Page) {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const res = await page.request.post('/api/auth/sign-out', { headers: { origin }, data: {} });
  expect(res.ok()).toBe(true);
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/sign-in');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password\*?$/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('register, verify, enrol two-factor, sign in with a code and with a backup code once, lockout', async ({ page }) => {
  test.setTimeout(180_000);
  // Wrong codes are answered 401/429 by design; the browser logs those responses.
  allowConsoleError(page, /Failed to load resource: the server responded with a status of (401|429)/);
  const id = unique();
  const email = `e2e-${id}@packvault.test`;
  const password = `correct-horse-${id}`;

  await page.goto('/sign-up');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Username/).fill(`u_${id}`.slice(0, 20));
  await page.getByLabel(/^Password\*?$/).fill(password);
  await page.getByLabel(/18 or older/).check();
  await page.getByRole('checkbox', { name: /terms of service/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/confirm-request/);

  const verify = await latestMailLink(page.request, email, /verify/);
  await page.goto(verify);
  await expect(page).toHaveURL(/\/home/);

  await page.goto('/register-mfa');
  await page.getByLabel('Your password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.locator('code[aria-labelledby="secret-label"]').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  const used = { value: 0 };
  await page.getByLabel('Code from your app').fill(await freshCode(secret, used));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  const codeItems = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codeItems).toHaveCount(10);
  const codes = await codeItems.allInnerTexts();
  await page.getByLabel('I have saved my backup codes somewhere safe').check();
  await page.getByRole('button', { name: 'Done' }).click();

  // Sign out from the account menu (by keyboard), then in again: the password leads to the second factor.
  const menu = page.getByRole('button', { name: /^Account menu for / });
  await menu.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/login-mfa/);
  await page.getByRole('textbox', { name: '6-digit code' }).fill(await freshCode(secret, used));
  await page.getByRole('button', { name: 'Verify and continue' }).click();
  await expect(page).toHaveURL(/\/home/);

  // A backup code works once.
  const backup = codes[0]!.trim();
  for (const attempt of ['first', 'second'] as const) {
    await signOut(page);
    await signInWithPassword(page, email, password);
    await expect(page).toHaveURL(/\/login-mfa/);
    await page.getByRole('tab', { name: 'Backup code' }).click();
    await page.getByRole('textbox', { name: 'Backup code' }).fill(backup);
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    if (attempt === 'first') await expect(page).toHaveURL(/\/home/);
    else {
      await expect(page.getByRole('textbox', { name: 'Backup code' })).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(/used already/)).toBeVisible();
      await expect(page).toHaveURL(/\/login-mfa/);
    }
  }

  // Wrong codes lock the factor with a retry time.
  await page.getByRole('tab', { name: 'Authenticator app' }).click();
  for (let i = 0; i < 6; i++) {
    await page.getByRole('textbox', { name: '6-digit code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await expect(page.getByRole('button', { name: 'Verify and continue' })).toBeEnabled();
  }
  await expect(page.getByText(/locked for this account for a while/)).toBeVisible();
});

test('password reset through the mailed link, then sign in with the new password', async ({ page }) => {
  const id = unique();
  const email = `reset-${id}@packvault.test`;
  const origin = { origin: new URL(test.info().project.use.baseURL!).origin };
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    headers: origin,
    data: { email, password: `first-pass-${id}`, name: `r_${id}`.slice(0, 20), username: `r_${id}`.slice(0, 20), ageConfirmed: true, termsAccepted: true },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  await page.goto(await latestMailLink(page.request, email, /verify/));
  await expect(page).toHaveURL(/\/home/);
  // Leave the signed-in page first: its queries and live stream would meet the revoked session
  // with 401s (what a real second tab would see too), and the browser logs each one.
  await page.goto('about:blank');
  await signOut(page);

  await page.goto('/reset-password');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(email).first()).toBeVisible();

  await page.goto(await latestMailLink(page.request, email, /reset-password/));
  await expect(page).toHaveURL(/\/update-password/);
  const next = `second-pass-${id}`;
  await page.getByLabel(/^New password\*?$/).fill(next);
  await page.getByLabel(/^New password again/).fill(next);
  await page.getByRole('button', { name: 'Set new password' }).click();
  // Not "the button is hidden": while saving it is renamed "Saving…", before the reset is done.
  await expect(page.getByText('Your password is changed')).toBeVisible();

  await signInWithPassword(page, email, next);
  await expect(page).toHaveURL(/\/home/);
});
