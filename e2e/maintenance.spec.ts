import type { Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { ADMIN, USER } from './accounts.ts';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';
import { expectAccessible } from './support.ts';

/**
 * Maintenance mode, as the owner and a user live it. Runs in its own Playwright project against a
 * server of its own (playwright.config.ts): switching maintenance on would close the shop for every
 * other spec running in parallel.
 */

async function signIn(page: Page, account: typeof ADMIN | typeof USER) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post('/api/auth/sign-in/email', { headers: { Origin: origin }, data: { email: account.email, password: account.password } });
  expect(res.ok(), await res.text()).toBe(true);
  if (((await res.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect) {
    const code = new TOTP({ secret: account.totpSecret!, digits: 6, period: 30 }).generate();
    const v = await page.request.post('/api/auth/two-factor/verify-totp', { headers: { Origin: origin }, data: { code, trustDevice: true } });
    expect(v.ok(), await v.text()).toBe(true);
  }
}

test('an owner switches maintenance on: a user’s open page moves to /maintenance, and back when it goes off', async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await newPageAs(browser, null);
  const user = await newPageAs(browser, null);
  const visitor = await newPageAs(browser, null);
  // API calls answered 503 while the shop is closed are expected here.
  for (const p of [user.page, visitor.page]) allowConsoleError(p, /status of 503/);
  try {
    await owner.page.goto('/about');
    await signIn(owner.page, ADMIN);
    await user.page.goto('/about');
    await signIn(user.page, USER);

    await user.page.goto('/shop');
    await expect(user.page.getByRole('heading', { level: 1 })).toBeVisible();

    await owner.page.goto('/admin/maintenance');
    await expect(owner.page.getByRole('heading', { name: 'Maintenance', level: 1 })).toBeVisible();
    await expect(owner.page.getByText('Off — the shop is open', { exact: true })).toBeVisible();
    await expectAccessible(owner.page, '/admin/maintenance, off');
    await owner.page.getByLabel('Message to visitors').fill('Moving the vault to a bigger room.');
    await owner.page.getByRole('button', { name: 'Turn maintenance on…' }).click();
    await owner.page.getByRole('button', { name: 'Turn on', exact: true }).click();
    await expect(owner.page.getByText('On — visitors see the maintenance page', { exact: true })).toBeVisible();
    // The owner keeps working, under a banner.
    const banner = owner.page.getByRole('complementary', { name: 'Maintenance mode' });
    await expect(banner).toContainText('Maintenance mode is on');
    await expect(banner.getByRole('link', { name: 'Turn it off' })).toBeVisible();

    // The user's open page moves by itself.
    await expect(user.page).toHaveURL(/\/maintenance\?from=%2Fshop/, { timeout: 5_000 });
    await expect(user.page.getByRole('heading', { name: 'Down for maintenance' })).toBeVisible();
    await expect(user.page.getByText('Moving the vault to a bigger room.')).toBeVisible();
    await expect(user.page.getByText(/Expected back:/)).toBeVisible();
    await expectAccessible(user.page, '/maintenance, on');

    // A visitor arriving now is sent there too; the API says why.
    // The SPA replaces the URL as soon as it learns the shop is closed, possibly before `load`.
    await visitor.page.goto('/cards', { waitUntil: 'commit' });
    await expect(visitor.page).toHaveURL(/\/maintenance/);
    await expect(visitor.page.getByText('Moving the vault to a bigger room.')).toBeVisible();
    const api = await visitor.page.request.get('/api/shop/products');
    expect(api.status()).toBe(503);
    expect(Number(api.headers()['retry-after'])).toBeGreaterThan(0);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('maintenance');

    // Off again: the user is taken back to the page they were on.
    await owner.page.goto('/admin/maintenance');
    await owner.page.getByRole('button', { name: 'Turn maintenance off' }).click();
    await owner.page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect(owner.page.getByText('Off — the shop is open', { exact: true })).toBeVisible();
    await expect(banner).toHaveCount(0);
    await expect(user.page).toHaveURL(/\/shop$/, { timeout: 12_000 });
    await expect(user.page.getByRole('heading', { level: 1 })).toBeVisible();
    expect((await visitor.page.request.get('/api/shop/products')).status()).toBe(200);

    for (const w of [owner.watch, user.watch, visitor.watch]) expect(w.errors, 'console errors').toEqual([]);
  } finally {
    // Never leave this server closed, whatever failed above.
    await owner.page.request.put('/api/admin/maintenance', { headers: { Origin: new URL(owner.page.url()).origin }, data: { enabled: false } }).catch(() => {});
    await Promise.all([owner.context.close(), user.context.close(), visitor.context.close()]);
  }
});
