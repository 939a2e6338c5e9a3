import { randomUUID } from 'node:crypto';
import { authFile } from './accounts.ts';
import { allowConsoleError, expect, test } from './fixtures.ts';

/**
 * The wallet as a new user meets it: deposit through the test-mode checkout, redeem a promo code,
 * see the balance and the history; and the admin side: promo codes and a user's balance.
 */

test.describe.configure({ mode: 'serial' });

test('deposit through the sandbox checkout, redeem WELCOME5, see balance and history', async ({ userPage: page }) => {
  await page.goto('/profile/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByText('Test mode').first()).toBeVisible();

  await page.getByRole('button', { name: '$25.00', exact: true }).click();
  await expect(page.getByRole('button', { name: '$25.00', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Deposit $25.00' }).click();

  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pay $25.00' })).toBeVisible();
  await expect(page.getByText('Test mode').first()).toBeVisible();
  await page.getByRole('button', { name: /Pay \$25\.00 \(test\)/ }).click();
  await expect(page.getByText('Payment received (test mode)')).toBeVisible();

  // Other specs spend the demo user's balance in parallel, so check the ledger, not a delta.
  // The shop spec deposits $50 for the same user at any moment, so look for this deposit, not the newest.
  const deposits = (await (await page.request.get('/api/wallet/history?kind=deposit')).json()) as { entries: { amountCents: number }[] };
  expect(deposits.entries.map((e) => e.amountCents)).toContain(2500);

  await page.getByRole('link', { name: 'Back to billing' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  const history = page.getByRole('region', { name: 'Your deposits' });
  await expect(history.getByText('Paid').first()).toBeVisible();
  await history.getByRole('row').filter({ hasText: '$25.00' }).filter({ hasText: 'Paid' }).first().getByRole('button', { name: /Receipt for the deposit/ }).click();
  await expect(page.getByRole('dialog', { name: 'Deposit receipt' })).toContainText('$25.00');
  await page.keyboard.press('Escape');

  // On a re-run against the same database the code was already used (a 409 the page explains).
  allowConsoleError(page, /status of 409/);
  await page.getByRole('textbox', { name: 'Code' }).fill('welcome5');
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText(/\$5\.00 was added to your balance|already used this code/)).toBeVisible();

  await page.goto('/profile/history');
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  const table = page.getByRole('region', { name: 'Your ledger entries' });
  await expect(table.getByText('Deposit', { exact: true }).first()).toBeVisible();
  await page.getByLabel('Kind').selectOption('deposit');
  await expect(table.getByText('Promo credit')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', /history\.csv\?kind=deposit/);
  const csv = await page.request.get('/api/wallet/history.csv?kind=deposit');
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(',deposit,25.00,');
});

test('the server validates deposit amounts and demands an Idempotency-Key', async ({ userPage: page }) => {
  await page.goto('/profile/billing');
  const origin = new URL(page.url()).origin;
  const res = await page.request.post('/api/wallet/deposits', {
    data: { amountCents: 1 },
    headers: { 'Idempotency-Key': randomUUID(), Origin: origin },
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).error.fields.amountCents).toBeDefined();
  const noKey = await page.request.post('/api/wallet/deposits', { data: { amountCents: 1000 }, headers: { Origin: origin } });
  expect(noKey.status()).toBe(400);
  expect((await noKey.json()).error.code).toBe('idempotency_key_required');
  // The page refuses out-of-bounds amounts before asking the server.
  await page.getByRole('textbox', { name: 'Or another amount' }).fill('2');
  await page.getByRole('button', { name: 'Deposit $2.00' }).click();
  await expect(page.getByText('Deposit between $5.00 and $1,000.00.')).toBeVisible();
});

test('admin creates a promo code and adjusts a balance', async ({ adminPage: page, browser }) => {
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  await page.goto('/admin/promo');
  await expect(page.getByRole('heading', { level: 1, name: 'Promo codes' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'WELCOME5' })).toBeVisible();
  await page.getByRole('button', { name: 'New code' }).click();
  const dialog = page.getByRole('dialog', { name: 'New promo code' });
  await dialog.getByRole('textbox', { name: 'Code' }).fill(code);
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('3');
  await dialog.getByRole('textbox', { name: 'Total redemptions' }).fill('10');
  await dialog.getByRole('button', { name: 'Create code' }).click();
  await expect(page).toHaveURL(/\/admin\/promo\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('textbox', { name: 'Code' })).toHaveValue(code);

  await page.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('button', { name: 'Reactivate' })).toBeVisible();

  // The demo user's id, from their own session.
  const userCtx = await browser.newContext({ storageState: authFile('user') });
  const meRes = await userCtx.request.get('/api/me');
  const me = await meRes.json();
  expect(me?.user?.id, `GET /api/me answered ${meRes.status()}`).toBeTruthy();
  await userCtx.close();
  await page.goto(`/admin/users/${me.user.id}/balance`);
  await expect(page.getByRole('heading', { level: 1, name: 'User balance' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Amount' }).fill('1.25');
  await page.getByRole('textbox', { name: 'Reason' }).fill(`E2E goodwill ${code}`);
  await page.getByRole('button', { name: 'Review adjustment' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply adjustment' }).click();
  await expect(page.getByText('Balance adjusted', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent ledger entries' }).getByText(`E2E goodwill ${code}`)).toBeVisible();

  await page.goto(`/admin/users/${me.user.id}/history`);
  await expect(page.getByRole('heading', { level: 1, name: 'User history' })).toBeVisible();
  await expect(page.getByText(`E2E goodwill ${code}`)).toBeVisible();
});

test('a balance change is pushed to open pages without a reload', async ({ userPage: page }) => {
  await page.goto('/profile/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  const before = (await (await page.request.get('/api/wallet/balance')).json()).balanceCents as number;
  // Pay a deposit outside the page (its own request context shares only the cookie).
  const started = await page.request.post('/api/wallet/deposits', {
    data: { amountCents: 1000 },
    headers: { 'Idempotency-Key': randomUUID(), Origin: origin },
  });
  expect(started.status()).toBe(201);
  const { deposit } = await started.json();
  const paid = await page.request.post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {
    headers: { 'Idempotency-Key': randomUUID(), Origin: origin },
  });
  expect(paid.status()).toBe(200);
  const expected = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format((before + 1000) / 100);
  await expect(page.getByRole('link', { name: `Balance: ${expected}` })).toBeVisible();
  await expect(page.locator('main').getByText(expected).first()).toBeVisible();
});
