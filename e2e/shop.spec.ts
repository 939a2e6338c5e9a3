import { expect, newPageAs, test } from './fixtures.ts';
import { sandboxDeposit as deposit, shopProduct as product } from './support.ts';

/**
 * The shop loop as a user lives it: buy packs, open them, watch the reveal, find the cards in
 * the vault; and a second browser on /top-pulls seeing a big pull arrive without reloading.
 */

// Both tests spend as the demo user; run them one after the other so balances and inventories
// seen by one are not moved by the other mid-test.
test.describe.configure({ mode: 'serial' });

test('buy two packs, open them with the reveal, and find the cards in the vault', async ({ userPage: page }) => {
  await page.goto('/shop');
  await expect(page.getByRole('heading', { level: 1, name: 'Packs' })).toBeVisible();
  await deposit(page, 5_000);
  const starter = await product(page, 'Starter Pack');

  await page.getByRole('link', { name: /Starter Pack/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Starter Pack' })).toBeVisible();
  // The odds table is on the page, as percentages.
  await expect(page.getByRole('tab', { name: 'Per slot' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Card 1' }).getByText('%').first()).toBeVisible();

  await page.getByRole('button', { name: 'One pack more' }).click();
  await expect(page.getByLabel('Quantity')).toHaveValue('2');
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/shop/purchases') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  expect((await bought).status()).toBe(201);
  await expect(page.getByText('2 packs added to your unopened packs')).toBeVisible();

  await page.getByRole('link', { name: 'Open them now' }).click();
  await expect(page).toHaveURL(/\/open-pack$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Open a pack' })).toBeVisible();
  const opened = page.waitForResponse((r) => r.url().endsWith('/api/shop/open') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /Open all 2 Starter Pack/ }).click();
  const openRes = await opened;
  expect(openRes.status()).toBe(201);
  const result = (await openRes.json()) as { openings: Array<{ productId: string; cards: Array<{ ownedCardId: string; name: string }> }> };
  expect(result.openings).toHaveLength(2);
  expect(result.openings.every((o) => o.productId === starter.id)).toBe(true);
  const cards = result.openings.flatMap((o) => o.cards);

  // The reveal: both packs tear open together, then each card plays on its own, one by one.
  await expect(page.getByRole('status').filter({ hasText: /Card 1 of 1: / })).toBeAttached({ timeout: 15_000 });
  await expect(page.getByRole('heading', { name: /pack 2 of 2/ })).toBeVisible({ timeout: 20_000 });
  const results = page.getByRole('region', { name: /Your 2 packs: 2 cards/ });
  await expect(results).toBeVisible({ timeout: 20_000 });
  for (const c of cards) await expect(results.getByRole('img', { name: new RegExp(`^${c.name},`) }).first()).toBeVisible();

  // The cards are in the vault, owned the moment the opening settled.
  const ids = cards.map((c) => c.ownedCardId).join(',');
  const vault = await page.request.get(`/api/collection?ids=${ids}&status=in_vault`);
  expect(vault.status(), await vault.text()).toBe(200);
  const body = (await vault.json()) as { items: Array<{ id: string }> };
  expect(body.items.map((i) => i.id).sort()).toEqual(cards.map((c) => c.ownedCardId).sort());

  // And the packs are no longer unopened.
  const inv = (await (await page.request.get('/api/shop/inventory')).json()) as { items: Array<{ productId: string }> };
  expect(inv.items.filter((p) => p.productId === starter.id)).toHaveLength(0);
});

test('a big pull appears on /top-pulls in another browser without reloading', async ({ userPage: page, browser }) => {
  const viewer = await newPageAs(browser, null);
  try {
    await viewer.page.goto('/top-pulls');
    await expect(viewer.page.getByRole('heading', { level: 1, name: 'Top pulls' })).toBeVisible();
    await expect(viewer.page.getByText('Live', { exact: true })).toBeVisible({ timeout: 15_000 });
    await viewer.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    await page.goto('/shop');
    await deposit(page, 10_000);
    const premium = await product(page, 'Premium Vault Pack');
    expect(premium.soldOut).toBe(false);
    // Buy and open from the product page: the premium pack guarantees a Rare or better (≥ $5).
    await page.goto(`/shop/${premium.id}`);
    const opened = page.waitForResponse((r) => r.url().endsWith('/api/shop/open') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Buy and open' }).click();
    const res = await opened;
    expect(res.status()).toBe(201);
    const { openings } = (await res.json()) as { openings: Array<{ cards: Array<{ ownedCardId: string; name: string; valueCents: number }> }> };
    const best = [...openings[0]!.cards].sort((a, b) => b.valueCents - a.valueCents)[0]!;
    expect(best.valueCents).toBeGreaterThanOrEqual(500);
    // The reveal plays on its own; skip it if it is still going.
    const results = page.getByRole('region', { name: /Your pack: 5 cards/ });
    const skip = page.getByRole('button', { name: 'Skip to results' });
    await expect(skip.or(results).first()).toBeVisible();
    // On a loaded machine a click can meet the reveal mid-change; try again until the results show.
    await expect(async () => {
      if (await skip.isVisible()) await skip.click({ timeout: 3_000 });
      await expect(results).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });

    const item = viewer.page.getByTestId('pull-item').filter({ hasText: best.name }).filter({ hasText: 'New' });
    await expect(item.first()).toBeVisible({ timeout: 15_000 });
    expect(await viewer.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(viewer.watch.errors, 'console errors (viewer)').toEqual([]);
  } finally {
    await viewer.context.close();
  }
});
