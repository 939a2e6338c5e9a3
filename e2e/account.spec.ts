import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { ADMIN, USER } from './accounts.ts';
import { expect, test } from './fixtures.ts';

/**
 * Account screens as people meet them: the demo user on privacy & security (sessions, forms that
 * validate in the page, data export) and on their account page; the demo admin finding users,
 * banning and unbanning a fresh account, and reading the audit log. The demo user is never banned
 * and its sessions are never revoked (other specs sign in with them).
 */

test('the user sees their sessions, the form rules and downloads their data', async ({ userPage: page }) => {
  await page.goto('/profile/privacy-and-security');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy and security' })).toBeVisible();

  const sessions = page.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByText('This device')).toBeVisible();
  await expect(sessions.getByText(/IP .* · Last seen/).first()).toBeVisible();

  // The password form checks in the page before asking the server.
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Enter your current password.')).toBeVisible();
  await password.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
  await password.getByRole('textbox', { name: 'New password again' }).fill('different');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Use at least 8 characters.')).toBeVisible();
  await expect(password.getByText('The two new passwords do not match.')).toBeVisible();

  // Two-factor is off for the demo user: the page offers to set it up.
  await expect(page.getByRole('link', { name: 'Set up two-factor' })).toHaveAttribute('href', /\/register-mfa/);

  // Deletion asks for the typed confirmation before any dialog.
  const del = page.getByRole('region', { name: 'Delete your account' });
  // What the account still holds is said first, with the ways to ship, sell or spend it, and has to be acknowledged.
  const balance = ((await (await page.request.get('/api/wallet/balance')).json()) as { balanceCents: number }).balanceCents;
  const cards = ((await (await page.request.get('/api/collection?pageSize=1')).json()) as { vault: { count: number } }).vault.count;
  if (balance > 0 || cards > 0) {
    await expect(del.getByText(/^You still have /)).toBeVisible();
    if (cards > 0) await expect(del.getByRole('link', { name: 'Ship or sell back your cards' })).toBeVisible();
    await expect(del.getByRole('button', { name: /Delete my account/ })).toBeDisabled();
    await del.getByRole('checkbox', { name: /I understand I lose/ }).check();
  }
  await del.getByRole('button', { name: /Delete my account/ }).click();
  await expect(del.getByText('Enter your password.')).toBeVisible();
  await expect(del.getByText('Type DELETE in capitals to confirm.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download my data (JSON)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(data.account.email).toBe(USER.email);
  expect(Array.isArray(data.sessions)).toBe(true);
  expect(data.sessions.some((s: { current: boolean }) => s.current)).toBe(true);
});

test('the account page shows the username, its availability and the dates', async ({ userPage: page }) => {
  await page.goto('/profile/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const username = page.getByRole('textbox', { name: 'Username' });
  await expect(username).toHaveValue('demo');
  // A shop word is refused before the availability check (issue 39: reserved names).
  await username.fill('admin');
  await expect(page.getByText('That name is kept for the shop’s own accounts. Pick another.')).toBeVisible();
  await username.fill('x!');
  await expect(page.getByText('Use at least 3 characters.').or(page.getByText('Use only letters, digits, _ and -.'))).toBeVisible();
  await expect(page.getByText(USER.email).first()).toBeVisible();
  await expect(page.getByText('Member since')).toBeVisible();

  const email = page.getByRole('region', { name: 'Email address' });
  await email.getByRole('textbox', { name: 'New email address' }).fill(USER.email);
  await email.getByRole('button', { name: 'Change email' }).click();
  await expect(email.getByText('That is already your email address.')).toBeVisible();
});

test('the admin finds the demo user, opens it, and sees the list state in the URL', async ({ adminPage: page }) => {
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search email or username' }).fill(USER.email);
  await expect(page).toHaveURL(/[?&]q=demo%40packvault\.test/);
  const table = page.getByRole('region', { name: 'Users' });
  await expect(table.getByRole('link', { name: 'demo', exact: true })).toBeVisible();
  await expect(table.getByText(ADMIN.email)).toHaveCount(0);

  await page.getByLabel('Role').selectOption('user');
  await expect(page).toHaveURL(/role=user/);
  await table.getByRole('button', { name: /Email/ }).click();
  await expect(page).toHaveURL(/sort=email/);

  await table.getByRole('link', { name: 'demo', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/users\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'User' })).toBeVisible();
  await expect(page.getByText(USER.email).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Balance' })).toHaveAttribute('href', /\/admin\/users\/.+\/balance$/);
  await expect(page.getByRole('region', { name: 'Sessions', exact: true })).toBeVisible();

  // An owner cannot demote themself: there is no button for it.
  await page.goto('/admin/admins');
  await expect(page.getByRole('heading', { level: 1, name: 'Admins' })).toBeVisible();
  await expect(page.getByText('You cannot demote yourself')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Demote admin' })).toHaveCount(0);
});

test('the admin bans and unbans a fresh user, and the audit log shows both', async ({ adminPage: page, request }) => {
  const tag = randomUUID().slice(0, 8);
  const email = `ban-${tag}@example.test`;
  const signUp = await request.post('/api/auth/sign-up/email', {
    data: {
      email,
      password: `pw-${randomUUID()}`,
      username: `ban_${tag}`,
      name: `ban_${tag}`,
      ageConfirmed: true,
      termsAccepted: true,
      callbackURL: '/home',
    },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);

  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  await page.getByRole('region', { name: 'Users' }).getByRole('link', { name: `ban_${tag}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'User' })).toBeVisible();
  const userId = page.url().split('/').pop()!;

  // The ban form validates in the page first.
  await page.getByRole('button', { name: 'Ban…' }).click();
  const dialog = page.getByRole('dialog', { name: `Ban ban_${tag}?` });
  await dialog.getByRole('button', { name: 'Ban user' }).click();
  await expect(dialog.getByText('Give a reason (at least 3 characters).')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('End-to-end test ban');
  await dialog.getByRole('button', { name: 'Ban user' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Banned until unbanned')).toBeVisible();
  await expect(page.getByText('Reason: End-to-end test ban')).toBeVisible();

  await page.getByRole('button', { name: 'Unban' }).click();
  await page.getByRole('dialog', { name: `Unban ban_${tag}?` }).getByRole('button', { name: 'Unban' }).click();
  await expect(page.getByText('Not banned.')).toBeVisible();

  await page.getByRole('navigation', { name: 'About this user' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`targetId=${userId}`));
  const entries = page.getByRole('list', { name: 'Audit entries' });
  await expect(entries.getByRole('listitem')).toHaveCount(2);
  const ban = entries.getByRole('listitem').filter({ hasText: 'user.ban' });
  await expect(ban).toContainText('admin');
  await expect(ban).toContainText('banReason');
  await expect(ban).toContainText('End-to-end test ban');
  await expect(entries.getByRole('listitem').filter({ hasText: 'user.unban' })).toBeVisible();

  await page.getByLabel('Action').selectOption('user.unban');
  await expect(page).toHaveURL(/action=user\.unban/);
  await expect(entries.getByRole('listitem')).toHaveCount(1);
});
