import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, newVerifiedUser } from './support.ts';

/**
 * Too little credit on a product page: the Buy button says how much is missing, "Top up the
 * difference" deposits it (raised to the minimum deposit) through the sandbox checkout, and the
 * page offers to finish the purchase on return — bought only on the user's click. The purchase
 * is then in the history, linked to its openings and their proofs, and the product page's reveal
 * sells back like /open-pack.
 */

async function noHorizontalOverflow(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow at 390 px: ${where}`).toBeLessThanOrEqual(0);
}

test('top up the difference, finish the purchase, find it in history, sell back from the reveal', async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page, watch } = await newVerifiedUser(browser, 'topup');
  const products = (await (await page.request.get('/api/shop/products')).json()) as { items: Array<{ id: string; name: string; priceCents: number }> };
  const starter = products.items.find((p) => p.name === 'Starter Pack')!;
  expect(starter.priceCents).toBe(100);
  const { minCents } = (await (await page.request.get('/api/wallet/deposit-options')).json()) as { minCents: number };
  expect(minCents).toBe(500);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/shop/${starter.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Starter Pack' })).toBeVisible();
  await page.getByRole('button', { name: 'One pack more' }).click();
  await page.getByRole('button', { name: 'One pack more' }).click();
  await expect(page.getByLabel('Quantity')).toHaveValue('3');

  // The Buy button says what is missing, with the balance beside it; no silent disabled button.
  const short = page.getByRole('button', { name: 'Add $3.00 to buy' });
  await expect(short).toBeVisible();
  await expect(short).toBeDisabled();
  await expect(page.getByText('Your balance is $0.00; 3 packs cost $3.00.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy and open', exact: true })).toHaveCount(0);
  await noHorizontalOverflow(page, 'product page, short');
  await expectAccessible(page, 'product page with too little credit');

  // $3.00 short → the $5.00 minimum deposit, through the sandbox checkout.
  await page.getByRole('button', { name: 'Top up the difference: $5.00' }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pay $5.00' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay $5.00 (test)' }).click();

  // Back on the product page with the purchase waiting, not bought.
  await expect(page).toHaveURL(new RegExp(`/shop/${starter.id}\\?buy=3&deposit=[0-9a-f-]{36}&result=success$`));
  const finish = page.getByRole('status').filter({ hasText: 'Finish your purchase' });
  await expect(finish).toBeVisible();
  await expect(page.getByLabel('Quantity')).toHaveValue('3');
  const before = (await (await page.request.get('/api/wallet/history')).json()) as { entries: Array<{ kind: string }> };
  expect(before.entries.map((e) => e.kind)).toEqual(['deposit']);
  await noHorizontalOverflow(page, 'product page, finish your purchase');
  await expectAccessible(page, 'product page, finish your purchase');

  const opened = page.waitForResponse((r) => r.url().endsWith('/api/shop/open') && r.request().method() === 'POST');
  await finish.getByRole('button', { name: 'Buy and open 3 packs' }).click();
  const openRes = await opened;
  expect(openRes.status()).toBe(201);
  expect(openRes.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  const result = (await openRes.json()) as { purchase: { id: string }; openings: Array<{ id: string; cards: Array<{ name: string }> }> };
  expect(result.openings).toHaveLength(3);
  // The top-up's return parameters are gone; the reveal's openings are in the URL (issue 41: a refresh replays them).
  await expect(page).toHaveURL(new RegExp(`/shop/${starter.id}\\?opening=${result.openings.map((o) => o.id).join('(,|%2C)')}$`));

  // The reveal's results sell back like /open-pack's; no "coming soon" placeholder.
  await page.getByRole('button', { name: 'Skip to results' }).click();
  await expect(page.getByText('Sell back (soon)')).toHaveCount(0);
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  const panel = page.getByRole('region', { name: 'Sell back' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Sell for \$[\d.,]+ ?: .+/ })).toHaveCount(3);
  await noHorizontalOverflow(page, 'product page reveal results');
  await expectAccessible(page, 'product page reveal results');

  // The history, in a second tab: the purchase links its openings and their fairness proofs.
  const history = await context.newPage();
  await history.setViewportSize({ width: 390, height: 844 });
  await history.goto('/profile/history');
  const row = history.getByRole('row').filter({ hasText: 'Pack purchase' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: 'Opened 3 packs' })).toBeVisible();
  const proofs = row.getByRole('link', { name: /^proof \d ?: fairness proof of opening \d of 3$/ });
  await expect(proofs).toHaveCount(3);
  const hrefs = await proofs.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
  expect(new Set(hrefs)).toEqual(new Set(result.openings.map((o) => `/fairness?opening=${o.id}`)));
  // A deposit's row carries no opening links.
  await expect(history.getByRole('row').filter({ hasText: 'Deposit' }).getByRole('link', { name: /proof/i })).toHaveCount(0);
  await expectAccessible(history, 'history with purchase links');
  await proofs.first().click();
  await expect(history).toHaveURL(/\/fairness\?opening=[0-9a-f-]{36}$/);
  await expect(history.getByRole('heading', { level: 1, name: /Every pull can be checked/ })).toBeVisible();
  await history.close();

  // Sell one card back from the product page's reveal.
  await panel.getByRole('button', { name: /^Sell for \$[\d.,]+ ?: .+/ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Sell back to Packvault' });
  await dialog.getByRole('button', { name: /^Sell 1 for / }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByText('Sold back')).toBeVisible();
  const after = (await (await page.request.get('/api/wallet/history')).json()) as { entries: Array<{ kind: string }> };
  expect(after.entries[0]!.kind).toBe('buyback');

  await context.close();
  expect(watch.errors, 'console errors').toEqual([]);
});
