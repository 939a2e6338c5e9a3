import { randomUUID } from 'node:crypto';
import { authFile } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { expectAccessible } from './support.ts';

test.setTimeout(120_000);

test('at 1280×800 the admin ledger keeps its Note column in view, and the user page sums money and cards', async ({ adminPage: page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const userCtx = await browser.newContext({ storageState: authFile('user') });
  const me = await (await userCtx.request.get('/api/me')).json();
  // One ledger entry at least, so the table (not the empty state) shows.
  await page.goto('/admin');
  const origin = new URL(page.url()).origin;
  const started = await userCtx.request.post('/api/wallet/deposits', { data: { amountCents: 1000 }, headers: { 'Idempotency-Key': randomUUID(), Origin: origin } });
  expect(started.status()).toBe(201);
  const { deposit } = await started.json();
  const paid = await userCtx.request.post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, { headers: { 'Idempotency-Key': randomUUID(), Origin: origin } });
  expect(paid.status()).toBe(200);
  await userCtx.close();
  expect(me?.user?.id).toBeTruthy();

  await page.goto(`/admin/users/${me.user.id}`);
  const summary = page.getByTestId('user-summary');
  await expect(summary).toBeVisible();
  for (const label of ['Balance', 'Vault value', 'Total deposited', 'Spent on packs', 'Buyback received', 'Packs opened']) {
    await expect(summary.getByText(label, { exact: true })).toBeVisible();
  }
  await expectAccessible(page, 'admin user page with summary');

  await page.goto(`/admin/users/${me.user.id}/history`);
  await expect(page.getByRole('heading', { level: 1, name: 'User history' })).toBeVisible();
  const region = page.getByRole('region', { name: 'Ledger entries of this user' });
  await expect(region).toBeVisible();
  const note = region.getByRole('columnheader', { name: 'Note' });
  const box = await note.boundingBox();
  const fits = box !== null && box.x + box.width <= 1280;
  const scrollable = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(fits || scrollable, 'the Note column is in view, or its table scrolls sideways').toBe(true);
  expect(fits, 'at 1280 px the table fits without scrolling').toBe(true);
});
