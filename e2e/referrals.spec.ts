import type { Page } from '@playwright/test';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';
import { expectAccessible, latestMailLink, newVerifiedUser, unique } from './support.ts';

/**
 * Referrals as people meet them (issue 17): a friend follows an invite link, signs up through the
 * form, confirms the email and makes a qualifying deposit; both balances rise by the reward and
 * both bells light up without a reload. An unknown code gets a friendly page, and an admin voids
 * a referral.
 */

const balanceOf = async (page: Page) => ((await (await page.request.get('/api/wallet/balance')).json()) as { balanceCents: number }).balanceCents;
const offerOf = async (page: Page) =>
  ((await (await page.request.get('/api/referrals/me')).json()) as { offer: { referrerRewardCents: number; refereeRewardCents: number; qualifyingDepositCents: number } }).offer;
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, \d+ unread$/ });

test('a friend signs up through an invite link, deposits, and both get the reward live', async ({ browser }) => {
  test.setTimeout(120_000);
  // A: the inviter, a fresh user of this test's own.
  const a = await newVerifiedUser(browser, 'refa');
  const offer = await offerOf(a.page);
  await a.page.goto('/profile/referral');
  await expect(a.page.getByRole('heading', { level: 1, name: 'Referrals' })).toBeVisible();
  const link = await a.page.getByRole('textbox', { name: 'Your invite link' }).inputValue();
  expect(link).toMatch(/\/invite\/[A-Z0-9]+$/);
  await expect(a.page.getByRole('img', { name: /QR code of your invite link/ })).toBeVisible();
  await expectAccessible(a.page, '/profile/referral');

  // It fits a phone: nothing wider than 390 px.
  await a.page.setViewportSize({ width: 390, height: 844 });
  expect(await a.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await a.page.setViewportSize({ width: 1280, height: 720 });

  // B: a fresh visitor opens the link.
  const b = await newPageAs(browser, null);
  const page = b.page;
  try {
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole('heading', { level: 1, name: `${a.username} invited you` })).toBeVisible();
    await expect(page.getByText(/when your deposits reach/)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page, 'the invite page');

    await page.getByRole('link', { name: 'Create your account' }).click();
    await expect(page).toHaveURL(/\/sign-up/);
    await expect(page.getByRole('status').filter({ hasText: `Invited by ${a.username}` })).toBeVisible();
    const id = unique();
    const email = `refb-${id}@packvault.test`;
    const username = `b_${id}`.slice(0, 20);
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Username/).fill(username);
    await page.getByLabel(/^Password\*?$/).fill(`refb-pass-${id}`);
    await page.getByLabel(/18 or older/).check();
    await page.getByRole('checkbox', { name: /terms of service/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/confirm-request/);
    await page.goto(await latestMailLink(page.request, email, /verify/));
    await expect(page).toHaveURL(/\/home/);

    // B's referral page names A; A's lists B as pending.
    await page.goto('/profile/referral');
    await expect(page.getByText(`${a.username} invited you.`)).toBeVisible();
    await a.page.reload();
    const friends = a.page.getByRole('list', { name: 'Friends you invited' });
    await expect(friends.getByRole('listitem').filter({ hasText: username })).toContainText('Pending');

    const aBefore = await balanceOf(a.page);
    const bBefore = await balanceOf(page);

    // B deposits the qualifying amount (or the nearest preset above it) through the sandbox checkout.
    const amount = Math.max(offer.qualifyingDepositCents, 500);
    const dollars = `$${(amount / 100).toFixed(2)}`;
    await page.goto('/profile/billing');
    await page.getByRole('textbox', { name: 'Or another amount' }).fill((amount / 100).toFixed(2));
    await page.getByRole('button', { name: `Deposit ${dollars}` }).click();
    await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: new RegExp(`Pay \\${dollars.replace('.', '\\.')} \\(test\\)`) }).click();
    await expect(page.getByText('Payment received (test mode)')).toBeVisible();

    // Both balances rose by the reward (B's also by the deposit).
    await expect.poll(() => balanceOf(a.page)).toBe(aBefore + offer.referrerRewardCents);
    await expect.poll(() => balanceOf(page)).toBe(bBefore + amount + offer.refereeRewardCents);

    // A's open page shows B qualified and the reward, without a reload.
    await expect(friends.getByRole('listitem').filter({ hasText: username })).toContainText('Qualified');
    const rewards = a.page.getByRole('list', { name: 'Rewards earned' });
    await expect(rewards.getByRole('listitem').filter({ hasText: username })).toContainText(`+$${(offer.referrerRewardCents / 100).toFixed(2)}`);
    await expect(rewards.getByRole('link', { name: /Ledger entry/ }).first()).toHaveAttribute('href', '/profile/history');

    // Both bells lit up live (the bell is the notifications feature's header button).
    await expect(bell(a.page)).toBeVisible();
    await expect(bell(page)).toBeVisible();
    expect(b.watch.errors, 'console errors (friend)').toEqual([]);
  } finally {
    await b.context.close();
    await a.context.close();
  }
  expect(a.watch.errors, 'console errors (inviter)').toEqual([]);
});

test('an unknown invite code shows a friendly page that still offers sign-up', async ({ page }) => {
  allowConsoleError(page, /Failed to load resource: the server responded with a status of 404/);
  await page.goto('/invite/NOSUCHCODE99');
  await expect(page.getByRole('heading', { level: 1, name: "This invite link doesn't work" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create your account' })).toHaveAttribute('href', '/sign-up');
  // 10 KB of code: the same neutral answer.
  await page.goto(`/invite/${'A'.repeat(10_000)}`);
  await expect(page.getByRole('heading', { level: 1, name: "This invite link doesn't work" })).toBeVisible();
});

test('an admin finds a referral, sees both parties and voids it', async ({ adminPage, browser }) => {
  test.setTimeout(120_000);
  const a = await newVerifiedUser(browser, 'refc');
  const b = await newVerifiedUser(browser, 'refd');
  try {
    const code = ((await (await a.page.request.get('/api/referrals/me')).json()) as { code: string }).code;
    const claim = await b.page.request.post('/api/referrals/claim', { data: { code }, headers: { Origin: new URL(b.page.url()).origin } });
    expect(claim.ok(), await claim.text()).toBe(true);
  } finally {
    await a.context.close();
    await b.context.close();
  }

  const page = adminPage;
  await page.goto('/admin/referrals');
  await expect(page.getByRole('heading', { level: 1, name: 'Referrals' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Referral settings' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(b.username);
  const row = page.getByRole('row').filter({ hasText: b.username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(a.username);
  await expect(row).toContainText('Pending');
  // The search's own answer (the box waits for typing to pause, then puts it in the address), not
  // the previous list, which is dimmed while the answer loads.
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(b.username)}(&|$)`));
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  await expectAccessible(page, '/admin/referrals');

  await row.getByRole('link', { name: /Open/ }).click();
  await expect(page).toHaveURL(/\/admin\/referrals\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Referral' })).toBeVisible();
  await expect(page.getByRole('link', { name: a.username })).toHaveAttribute('href', /\/admin\/users\//);
  await expect(page.getByRole('link', { name: b.username })).toHaveAttribute('href', /\/admin\/users\//);

  await page.getByRole('button', { name: 'Void' }).click();
  const dialog = page.getByRole('dialog', { name: 'Void this referral?' });
  await dialog.getByRole('button', { name: 'Void referral' }).click();
  await expect(dialog.getByText('Give a reason.')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('E2E: same household');
  await dialog.getByRole('checkbox', { name: /Also take back what it paid/ }).check();
  await dialog.getByRole('button', { name: 'Void referral' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Voided', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('E2E: same household')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Void' })).toHaveCount(0);
});
