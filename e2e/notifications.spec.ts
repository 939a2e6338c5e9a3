import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';
import { expectAccessible, latestMailLink, newVerifiedUser } from './support.ts';

/**
 * Notifications as a user meets them (issue 17): the header bell lights up live when a deposit is
 * paid elsewhere, the inbox links to it, preferences stick, and the mail's unsubscribe link works
 * without signing in (and a tampered one changes nothing).
 */

/** Pays a deposit outside the page: its own request, sharing only the cookie. */
async function payDeposit(page: Page, amountCents: number) {
  const origin = new URL(page.url()).origin;
  const started = await page.request.post('/api/wallet/deposits', {
    data: { amountCents },
    headers: { 'Idempotency-Key': randomUUID(), Origin: origin },
  });
  expect(started.status()).toBe(201);
  const { deposit } = (await started.json()) as { deposit: { id: string } };
  const paid = await page.request.post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {
    headers: { 'Idempotency-Key': randomUUID(), Origin: origin },
  });
  expect(paid.status()).toBe(200);
}

test('the bell lights up live, the inbox links to the deposit, mark all read clears it', async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page, watch } = await newVerifiedUser(browser, 'bell');
  const origin = new URL(page.url()).origin;
  // The drop specs run alongside and every drop that opens tells every user: this one counts
  // only its own deposits.
  const quiet = await page.request.put('/api/notifications/preferences', {
    headers: { Origin: origin },
    data: { preferences: [{ kind: 'drop_starting', inApp: false, email: false }] },
  });
  expect(quiet.status(), await quiet.text()).toBe(200);
  // Start from a clean inbox (sign-up may already have said something).
  await page.request.post('/api/notifications/read-all', { headers: { Origin: origin } });
  await page.goto('/shop');
  const bell = page.getByRole('button', { name: 'Notifications', exact: true });
  await expect(bell).toBeVisible();

  await payDeposit(page, 1_500);
  const lit = page.getByRole('button', { name: 'Notifications, 1 unread', exact: true });
  await expect(lit).toBeVisible();
  // Announced politely, without moving focus.
  await expect(page.getByRole('status').filter({ hasText: 'New notification: Deposit credited' })).toBeAttached();

  // Keyboard: Enter opens the inbox, Escape closes it and gives focus back to the bell.
  await lit.focus();
  await page.keyboard.press('Enter');
  const inbox = page.getByRole('dialog', { name: 'Notifications' });
  await expect(inbox).toBeVisible();
  const entry = inbox.getByRole('link', { name: /Deposit credited.*\$15\.00 was added to your balance/ });
  await expect(entry).toBeVisible();
  await expect(inbox.getByRole('link', { name: 'Notification settings' })).toBeVisible();
  await expectAccessible(page, 'the open inbox');
  await page.keyboard.press('Escape');
  await expect(inbox).toBeHidden();
  await expect(lit).toBeFocused();

  // Opening the entry goes where it is about and marks it read. The shop and the profile area
  // share one header: it stays mounted (a panel opened while the next page's code loads stays open).
  await page.locator('header').first().evaluate((h) => h.setAttribute('data-kept', ''));
  await lit.click();
  await inbox.getByRole('link', { name: /Deposit credited/ }).click();
  await expect(page).toHaveURL(/\/profile\/billing/);
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.locator('header[data-kept]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // Another one, then "Mark all read".
  await payDeposit(page, 1_000);
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Notifications, 1 unread', exact: true }).click();
  await expect(inbox).toBeVisible();
  await expect(inbox.getByRole('link', { name: /Deposit credited/ })).toHaveCount(2);
  await inbox.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  await context.close();
  expect(watch.errors, 'console errors').toEqual([]);
});

test('the inbox fits a phone screen', async ({ browser }) => {
  const { context, page, watch } = await newVerifiedUser(browser, 'phone');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/shop');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const inbox = page.getByRole('dialog', { name: 'Notifications' });
  await expect(inbox).toBeVisible();
  const box = await inbox.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await context.close();
  expect(watch.errors, 'console errors').toEqual([]);
});

test('preferences stick; security mail stays on; the mail link unsubscribes without signing in', async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page, watch, email } = await newVerifiedUser(browser, 'prefs');
  await page.goto('/profile/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const depositMail = page.getByRole('switch', { name: 'Deposit credited: email' });
  await expect(depositMail).toBeChecked();
  const securityMail = page.getByRole('switch', { name: 'Security: email' });
  await expect(securityMail).toBeChecked();
  await expect(securityMail).toBeDisabled();
  await expect(page.getByText("Security mail can't be turned off")).toBeVisible();
  await expectAccessible(page, 'notification preferences');

  // A threshold out of range is refused in the browser, on its field.
  const threshold = page.getByLabel('Tell me about pulls worth at least (USD)');
  await threshold.fill('0.5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('At least $1.00.')).toBeVisible();
  await threshold.fill('25');

  await depositMail.click();
  await expect(depositMail).not.toBeChecked();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved. Your notification settings are up to date.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Deposit credited: email' })).not.toBeChecked();
  await expect(page.getByLabel('Tell me about pulls worth at least (USD)')).toHaveValue('25');

  // The API refuses security mail off as well.
  const refused = await page.request.put('/api/notifications/preferences', {
    data: { preferences: [{ kind: 'security', inApp: true, email: false }] },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(400);

  // Deposit mail back on, then off again from a deposit mail's link.
  await page.getByRole('switch', { name: 'Deposit credited: email' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved. Your notification settings are up to date.')).toBeVisible();
  await payDeposit(page, 1_200);
  const link = await latestMailLink(page.request, email, /\/unsubscribe\?token=/);

  const anon = await newPageAs(browser, null);
  allowConsoleError(anon.page, /Failed to load resource: the server responded with a status of 400/);
  await anon.page.goto(link);
  await expect(anon.page.getByRole('heading', { name: /^Stop emails about Deposit credited to .+….+@packvault\.test\?$/ })).toBeVisible();
  await expectAccessible(anon.page, 'unsubscribe confirmation');
  await anon.page.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(anon.page.getByRole('heading', { name: "You're unsubscribed" })).toBeVisible();
  await expect(anon.page.getByRole('link', { name: 'Notification settings' })).toHaveAttribute('href', '/profile/notifications');

  // A tampered token: a neutral page, nothing changed.
  const url = new URL(link);
  const token = url.searchParams.get('token')!;
  url.searchParams.set('token', `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`);
  await anon.page.goto(url.pathname + url.search);
  await expect(anon.page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await expectAccessible(anon.page, 'unsubscribe, bad link');
  await anon.context.close();
  expect(anon.watch.errors, 'console errors (anonymous)').toEqual([]);

  await page.goto('/profile/notifications');
  await expect(page.getByRole('switch', { name: 'Deposit credited: email' })).not.toBeChecked();
  await context.close();
  expect(watch.errors, 'console errors').toEqual([]);
});
