import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible } from './support.ts';

/**
 * The admin dashboard (issue 18): /admin shows the key figures for a period against the one
 * before, the period lives in the URL (presets and custom days), a bad custom range says what is
 * wrong next to its field, the charts load on this page only, and it all fits a phone.
 */

async function expectFitsPhone(page: Page, where: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Sales against buyback' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow at 390px: ${where}`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const periodOption = (page: Page, name: string) => page.locator('label').filter({ has: page.getByRole('radio', { name, exact: true }) });

test('an admin reads the dashboard, switches to 30 days and to custom days, and is told what is wrong with a bad range', async ({ adminPage: page }) => {
  // A big page (with the result and the margins, issue 38) checked by axe twice, on a machine shared with other suites.
  test.setTimeout(180_000);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Admin page not found')).toHaveCount(0);

  const figures = page.getByRole('list', { name: 'Key figures' });
  await expect(figures.getByRole('listitem')).toHaveCount(13);
  for (const label of ['Deposits', 'Pack sales', 'Buyback paid', 'Promo cost', 'Referral cost', 'Shipping fees', 'Revenue', 'Cost of cards', 'Gross margin', 'Net result', 'Pack opens', 'Active users', 'Sign-ups']) {
    await expect(figures.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(figures.locator('[data-figure="depositsCents"]')).toContainText('$');
  await expect(figures.locator('[data-figure="opens"]')).toContainText(/\d/);
  await expect(page.getByText(/^7 days: /)).toBeVisible();
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();

  // The charts (recharts, a chunk of its own) and the lists that need attention.
  await expect(page.getByRole('figure', { name: 'Sales against buyback' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Pack sales:/ })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Gross margin' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Gross margin: / })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Reconciliation' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Return to players' })).toBeVisible();

  // The result (issue 38): each line with its definition, the same figures as the API, and every
  // product the API calls a loss says "Loss" in its row (in words, not only in red).
  const api7d = (await (await page.request.get('/api/admin/dashboard?range=7d')).json()) as {
    result: { current: Record<string, number | null> };
    products: Array<{ productId: string; loss: boolean; grossMarginCents: number }>;
  };
  const statement = page.getByRole('table', { name: /^Result for the period/ });
  await expect(statement.locator('[data-line="revenueCents"]')).toContainText('Packs opened, at the price paid, less promo credit');
  await expect(statement.locator('[data-line="cardCostCents"]')).toContainText('at their value when they were pulled');
  const usd = (c: number) => `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  await expect(statement.locator('[data-line="grossMarginCents"] td').first()).toContainText(usd(api7d.result.current.grossMarginCents!));
  await expect(statement.locator('[data-line="netResultCents"] td').first()).toContainText(usd(api7d.result.current.netResultCents!));
  await expect(figures.locator('[data-figure="grossMarginCents"]')).toContainText(usd(api7d.result.current.grossMarginCents!));
  const margins = page.getByRole('region', { name: 'Gross margin by product' });
  for (const p of api7d.products) {
    const row = margins.locator(`[data-product="${p.productId}"]`);
    if (p.loss) await expect(row).toContainText('Loss');
    else await expect(row).not.toContainText('Loss');
  }
  // Every other screen is still one click away in the side navigation.
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Queue' })).toBeAttached();
  await expectAccessible(page, 'dashboard, 7 days');

  await periodOption(page, '30 days').click();
  await expect(page).toHaveURL(/[?&]range=30d/);
  await expect(page.getByText(/^30 days: /)).toBeVisible();
  await expect(figures.getByRole('listitem')).toHaveCount(13);

  await periodOption(page, 'Custom').click();
  await expect(page).toHaveURL(/range=custom/);
  await page.getByLabel('From', { exact: true }).fill('2025-01-01');
  await page.getByLabel('To', { exact: true }).fill('2025-01-31');
  await page.getByRole('button', { name: 'Apply dates' }).click();
  await expect(page).toHaveURL(/from=2025-01-01/);
  await expect(page).toHaveURL(/to=2025-01-31/);
  await expect(page.getByText('Custom: Jan 1, 2025 – Jan 31, 2025 (UTC)')).toBeVisible();

  // The period is in the URL: a reload shows the same one.
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Custom' })).toBeChecked();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('2025-01-01');
  await expect(page.getByText('Custom: Jan 1, 2025 – Jan 31, 2025 (UTC)')).toBeVisible();

  // The end before the start: the message sits on the field and nothing is sent.
  await page.getByLabel('From', { exact: true }).fill('2025-02-10');
  await page.getByLabel('To', { exact: true }).fill('2025-02-01');
  await page.getByRole('button', { name: 'Apply dates' }).click();
  await expect(page.getByText('The end date is before the start date.')).toBeVisible();
  await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/from=2025-01-01/);
  await expectAccessible(page, 'dashboard, custom range refused');

  // A linked range over a year gets the same message the server gives.
  await page.goto('/admin?range=custom&from=2024-01-01&to=2025-06-01');
  await expect(page.getByText('Choose at most 366 days.')).toBeVisible();
  const api = await page.request.get('/api/admin/dashboard?range=custom&from=2024-01-01&to=2025-06-01');
  expect(api.status()).toBe(400);
  expect(((await api.json()) as { error: { fields: Record<string, string[]> } }).error.fields.to).toEqual(['Choose at most 366 days.']);

});

test('the dashboard fits a 390px phone and stays accessible there', async ({ adminPage: page }) => {
  test.setTimeout(120_000);
  await page.goto('/admin?range=30d');
  await expectFitsPhone(page, 'dashboard, 30 days');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, 'dashboard at 390px');
});
