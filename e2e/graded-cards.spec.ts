import { expect, test } from './fixtures.ts';
import { expectAccessible } from './support.ts';

/**
 * Issue 19, graded cards: the graded filter on /cards shows only slabbed cards, each with its
 * badge; the card view shows the slab, the photos of the physical copy and the price chart.
 * The demo seed grades six cards (src/server/seed/graded.ts), the best of them a PSA 10. Each copy
 * is its own slab with its own certificate (issue 38), so the catalog names the grade, not a certificate.
 */

const SLAB = /^(PSA|BGS|CGC|SGC) \d+(\.5)?$/;

test('the graded filter on /cards lists graded cards only, each with its slab badge', async ({ page }) => {
  await page.goto('/cards');
  const cards = page.getByRole('list', { name: 'Cards' });
  await expect(cards.getByRole('listitem').first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Grading' }).selectOption('graded');
  await expect(page).toHaveURL(/grading=graded/);
  const items = cards.getByRole('listitem');
  await expect(items).toHaveCount(6);
  for (const item of await items.all()) {
    await expect(item.locator('[aria-hidden="true"]').filter({ hasText: SLAB })).toBeVisible();
    // The badge is read as "Graded PSA 10": a listing, whose copies each carry their own certificate.
    // The tile's own button (the wishlist heart beside it is a second one).
    await expect(item.getByRole('button').first()).toHaveAccessibleName(/Graded (PSA|BGS|CGC|SGC) [\d.]+/);
    await expect(item.getByRole('button').first()).not.toHaveAccessibleName(/certificate/);
  }
  await expectAccessible(page, '/cards?grading=graded');
});

test('the card view shows the slab, the photos and the price chart', async ({ page }) => {
  await page.goto('/cards?grading=graded');
  const first = page.getByRole('list', { name: 'Cards' }).getByRole('button').first();
  await expect(first).toHaveAccessibleName(/Graded PSA 10/);
  await first.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(/PSA \(Professional Sports Authenticator\)\. Each copy is its own slab with its own certificate/)).toBeVisible();
  await expect(dialog.getByRole('img', { name: /photo of the front of the physical card/ })).toBeVisible();
  await expect(dialog.getByRole('img', { name: /photo of the back of the physical card/ })).toBeVisible();
  const chart = dialog.getByRole('img', { name: /^Price chart of / });
  await expect(chart).toBeVisible();
  await expect(chart.locator('.recharts-line-curve')).toBeVisible();
  // The text version: the summary and a table of every recorded value.
  await expect(dialog.getByRole('figure', { name: /^Up \d+% since .* prices recorded/ })).toBeVisible();
  await expect(dialog.getByRole('table', { name: /Market value of .* over time/ }).getByRole('row')).toHaveCount(10);
  await expectAccessible(page, 'card view of a graded card');
});

test('at 390 px the filtered list and the card view fit, with no horizontal overflow', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/cards?grading=graded');
  await page.getByRole('list', { name: 'Cards' }).getByRole('button').first().click();
  const chart = page.getByRole('dialog').getByRole('img', { name: /^Price chart of / });
  await expect(chart).toBeVisible();
  const box = await chart.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
