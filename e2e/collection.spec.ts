import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * Collection and buyback as a user meets them: open a pack, sell a card right from the reveal
 * (the header balance follows live), and sell several cards at once from /collect.
 */

test.describe.configure({ mode: 'serial' });

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

async function origin(page: Page) {
  return new URL(page.url()).origin;
}

async function balance(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/wallet/balance')).json()) as { balanceCents: number }).balanceCents;
}

/** Funds the demo user through the sandbox checkout so packs can be bought. */
async function fund(page: Page, cents: number) {
  const o = await origin(page);
  const started = await page.request.post('/api/wallet/deposits', {
    data: { amountCents: cents },
    headers: { 'Idempotency-Key': randomUUID(), Origin: o },
  });
  expect(started.status()).toBe(201);
  const { deposit } = (await started.json()) as { deposit: { id: string } };
  const paid = await page.request.post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {
    headers: { 'Idempotency-Key': randomUUID(), Origin: o },
  });
  expect(paid.status()).toBe(200);
}

async function starterPackId(page: Page): Promise<string> {
  const res = await page.request.get('/api/shop/products');
  const { items } = (await res.json()) as { items: Array<{ id: string; name: string }> };
  const p = items.find((i) => i.name === 'Starter Pack');
  expect(p, 'the seeded Starter Pack').toBeTruthy();
  return p!.id;
}

test('open a pack, sell a card from the reveal, and the header balance follows live', async ({ userPage: page }) => {
  await page.goto('/open-pack');
  await expect(page.getByRole('heading', { level: 1, name: 'Open a pack' })).toBeVisible();
  await fund(page, 2000);
  const productId = await starterPackId(page);
  const o = await origin(page);
  const bought = await page.request.post('/api/shop/purchases', {
    data: { productId, quantity: 1 },
    headers: { 'Idempotency-Key': randomUUID(), Origin: o },
  });
  expect(bought.status()).toBe(201);

  await page.reload();
  await page.getByRole('button', { name: 'Open one Starter Pack' }).click();
  await page.getByRole('button', { name: 'Skip to results' }).click();
  const panel = page.getByRole('region', { name: 'Sell back' });
  await expect(panel).toBeVisible();

  const sell = panel.getByRole('button', { name: /^Sell for \$[\d.,]+ ?: .+/ }).first();
  await expect(sell).toBeVisible();
  const before = await balance(page);
  await expect(page.getByRole('link', { name: `Balance: ${usd(before)}` })).toBeVisible();
  await sell.click();

  const dialog = page.getByRole('dialog', { name: 'Sell back to Packvault' });
  const confirm = dialog.getByRole('button', { name: /^Sell 1 for / });
  await expect(confirm).toBeEnabled();
  const receive = (await dialog.getByText('You receive').locator('xpath=following-sibling::dd[1]').textContent()) ?? '';
  const amount = Math.round(Number(receive.replace(/[^0-9.]/g, '')) * 100);
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Sold 1 card/).first()).toBeVisible();
  await expect(panel.getByText('Sold back')).toBeVisible();
  const afterUi = await balance(page);
  expect(afterUi - before).toBe(amount);
  await expect(page.getByRole('link', { name: `Balance: ${usd(afterUi)}` })).toBeVisible();

  // A sale made outside this page (another tab, the API) reaches the header over the live stream.
  const opened = await page.request.post('/api/shop/open', {
    data: { productId, quantity: 1 },
    headers: { 'Idempotency-Key': randomUUID(), Origin: o },
  });
  expect(opened.status()).toBe(201);
  const { openings } = (await opened.json()) as { openings: Array<{ cards: Array<{ ownedCardId: string }> }> };
  const ownedCardId = openings[0]!.cards[0]!.ownedCardId;
  const sold = await page.request.post('/api/buyback', {
    data: { ownedCardIds: [ownedCardId] },
    headers: { 'Idempotency-Key': randomUUID(), Origin: o },
  });
  expect(sold.status()).toBe(201);
  const { balanceCents } = (await sold.json()) as { balanceCents: number };
  await expect(page.getByRole('link', { name: `Balance: ${usd(balanceCents)}` })).toBeVisible();

  // The same card cannot be sold twice.
  const again = await page.request.post('/api/buyback', {
    data: { ownedCardIds: [ownedCardId] },
    headers: { 'Idempotency-Key': randomUUID(), Origin: o },
  });
  expect(again.status()).toBe(409);
});

test('select several cards in /collect and sell them back at once', async ({ userPage: page }) => {
  await page.goto('/collect');
  await expect(page.getByRole('heading', { level: 1, name: 'My vault' })).toBeVisible();
  await fund(page, 1000);
  const productId = await starterPackId(page);
  const opened = await page.request.post('/api/shop/open', {
    data: { productId, quantity: 3 },
    headers: { 'Idempotency-Key': randomUUID(), Origin: await origin(page) },
  });
  expect(opened.status()).toBe(201);

  await page.reload();
  const cards = page.getByRole('list', { name: 'Your cards' });
  await expect(cards).toBeVisible();
  const vaultCount = Number(await page.getByText('Cards in your vault').locator('..').locator('p').nth(1).textContent());
  expect(vaultCount).toBeGreaterThanOrEqual(3);

  const boxes = cards.getByRole('checkbox');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  const bar = page.getByRole('region', { name: 'Selected cards' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Sell back 2' }).click();

  const dialog = page.getByRole('dialog', { name: 'Sell back to Packvault' });
  await expect(dialog.getByRole('list', { name: 'Cards to sell' }).getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('button', { name: /^Sell 2 for / }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Sold 2 cards/).first()).toBeVisible();
  await expect(bar).toBeHidden();
  await expect(page.getByText('Cards in your vault').locator('..').locator('p').nth(1)).toHaveText(String(vaultCount - 2));

  // They are listed as sold back, with a card view that says so.
  await page.getByLabel('Status').selectOption('sold_back');
  await expect(cards.getByText('Sold back').first()).toBeVisible();
  await cards.getByRole('button', { name: /: details$/ }).first().click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByText('Sold back', { exact: true }).first()).toBeVisible();
  await expect(detail.getByRole('link', { name: 'Verify this opening' })).toHaveAttribute('href', /\/fairness\?opening=/);
});

test('admin sees the buybacks with daily totals and the owned cards', async ({ adminPage: page }) => {
  await page.goto('/admin/buyback');
  await expect(page.getByRole('heading', { level: 1, name: 'Buyback' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Buybacks \(\d+\)/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Buybacks per day' })).toBeVisible();
  await expect(page.getByLabel('Default rate (%)')).toHaveValue(/\d/);

  await page.goto('/admin/owned');
  await expect(page.getByRole('heading', { level: 1, name: 'Owned cards' })).toBeVisible();
  await page.getByLabel('Status').selectOption('sold_back');
  await expect(page.getByRole('table', { name: /Owned cards \(\d+\)/ })).toBeVisible();
});
