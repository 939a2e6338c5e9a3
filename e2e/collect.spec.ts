import type { Page } from '@playwright/test';
import { expect, newPageAs, test } from './fixtures.ts';
import { expectAccessible, newVerifiedUser, unique } from './support.ts';

/**
 * Collecting (issue 19): set completion on /collect, the wishlist heart, and the notification a
 * wisher gets when an admin puts a product live that can draw their card. The set and its cards
 * are this test's own, so other specs (opening packs, granting cards) cannot move the counts.
 */

const origin = (page: Page) => ({ Origin: new URL(page.url()).origin });

/** Three cards in a set of their own, borrowing a seeded card's class, frame and art. */
async function newSet(admin: Page) {
  const listed = await admin.request.get('/api/admin/catalog/cards?pageSize=1');
  const [seed] = ((await listed.json()) as { items: Array<{ classId: string; architectId: string; imageKey: string }> }).items;
  const id = unique();
  const setName = `Collect ${id}`;
  const cards: Array<{ id: string; name: string }> = [];
  for (const [i, label] of ['Amber', 'Beryl', 'Cobalt'].entries()) {
    const name = `${label} ${id}`;
    const res = await admin.request.post('/api/admin/catalog/cards', {
      data: { name, setName, number: i + 1, classId: seed!.classId, architectId: seed!.architectId, imageKey: seed!.imageKey, valueCents: 500 + i, stock: 5 },
      headers: origin(admin),
    });
    expect(res.status(), await res.text()).toBe(201);
    cards.push({ id: ((await res.json()) as { card: { id: string } }).card.id, name });
  }
  return { setName, classId: seed!.classId, cards };
}

test('set completion counts, a hearted card, and the wishlist notification when its pack goes live', async ({ browser }) => {
  // Two signed-in pages, an admin's setup and three axe runs: this journey is long on a loaded CI.
  test.setTimeout(240_000);
  const { context, page, watch, username } = await newVerifiedUser(browser, 'collect');
  const admin = await newPageAs(browser, 'admin');
  await admin.page.goto('/admin');
  const { setName, classId, cards } = await newSet(admin.page);
  const [amber, beryl] = [cards[0]!, cards[1]!];

  // The user owns one card of the three.
  const grant = await admin.page.request.post('/api/admin/owned/grant', {
    data: { cardId: amber.id, user: username, reason: 'e2e: set completion' },
    headers: origin(admin.page),
  });
  expect(grant.status(), await grant.text()).toBe(201);

  // Heart a card on its tile in /cards (the dialog's heart is the same control; the signed-out test opens it).
  await page.goto(`/cards?set=${encodeURIComponent(setName)}`);
  const tiles = page.getByRole('list', { name: 'Cards' });
  await expect(tiles.getByRole('listitem')).toHaveCount(3);
  await tiles.getByRole('button', { name: `Add ${beryl.name} to your wishlist` }).click();
  await expect(tiles.getByRole('button', { name: `Remove ${beryl.name} from your wishlist` })).toBeVisible();
  await expectAccessible(page, '/cards with hearts');

  // The card's own dialog, from a link, shows the same heart, hearted.
  await page.goto(`/cards?card=${beryl.id}`);
  const dialog = page.getByRole('dialog', { name: beryl.name });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('button', { name: `Remove ${beryl.name} from your wishlist` })).toBeVisible();
  await page.keyboard.press('Escape');

  // Sets: 1 of 3, and the two missing cards (the hearted one shows hearted).
  await page.goto('/collect?tab=sets');
  await expect(page.getByRole('heading', { level: 1, name: 'My vault' })).toBeVisible();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: setName, exact: true }) });
  await expect(row.getByText('of 3 cards')).toBeVisible();
  await expect(row.getByRole('progressbar', { name: `${setName} completion` })).toHaveAttribute('aria-valuenow', '1');
  await row.getByRole('button', { name: 'Show the 2 missing cards' }).click();
  const missing = row.getByRole('list', { name: `Missing from ${setName}` });
  await expect(missing.getByRole('listitem')).toHaveCount(2);
  await expect(missing.getByRole('button', { name: `Remove ${beryl.name} from your wishlist` })).toBeVisible();
  await expectAccessible(page, 'set completion, expanded');

  await page.getByRole('tab', { name: 'Wishlist' }).click();
  await expect(page.getByRole('list', { name: 'Wishlist' }).getByRole('button', { name: `Remove ${beryl.name} from your wishlist` })).toBeVisible();
  await expectAccessible(page, 'the wishlist tab');

  // An admin puts a product live whose pool is the hearted card.
  const created = await admin.page.request.post('/api/admin/products', { data: { name: `Beryl box ${unique()}`, priceCents: 500 }, headers: origin(admin.page) });
  expect(created.status(), await created.text()).toBe(201);
  const { product } = (await created.json()) as { product: { id: string; packId: string; name: string } };
  const pack = await admin.page.request.put(`/api/admin/packs/${product.packId}`, {
    data: { name: product.name, slots: [{ odds: [{ classId, weight: 1 }] }], pool: { mode: 'cards', cardIds: [beryl.id] } },
    headers: origin(admin.page),
  });
  expect(pack.status(), await pack.text()).toBe(200);
  try {
    const live = await admin.page.request.patch(`/api/admin/products/${product.id}`, { data: { status: 'live' }, headers: origin(admin.page) });
    expect(live.status(), await live.text()).toBe(200);

    // The bell lights up live; the inbox names the card and links to the pack.
    const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    await expect(bell).toBeVisible();
    await bell.click();
    const inbox = page.getByRole('dialog', { name: 'Notifications' });
    const entry = inbox.getByRole('link', { name: new RegExp(`${beryl.name} is in a pack`) });
    await expect(entry).toBeVisible();
    await expectAccessible(page, 'the inbox with the wishlist notification');
    await expect(entry).toHaveAttribute('href', `/shop/${product.id}`);
    // Following it lands on the pack, which can draw the card (no 404 on the way).
    await entry.click();
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();

    // The wishlist tile says where to pull it (the only card of that pack: one per pack), and
    // opens the card itself (issue 41).
    await page.goto('/collect?tab=wishlist');
    const tile = page.getByRole('list', { name: 'Wishlist' }).getByRole('listitem').filter({ hasText: beryl.name });
    await expect(tile.getByRole('link', { name: product.name })).toHaveAttribute('href', `/shop/${product.id}`);
    await expect(tile).toContainText('1.00 per pack on average');
    await tile.getByRole('link', { name: /Open the card/ }).click();
    await expect(page.getByRole('dialog', { name: beryl.name })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/cards\\?.*card=${beryl.id}`));
  } finally {
    // Out of the shop again, so other specs never meet it.
    await admin.page.request.patch(`/api/admin/products/${product.id}`, { data: { status: 'archived' }, headers: origin(admin.page) });
  }

  await admin.context.close();
  await context.close();
  expect(watch.errors, 'console errors').toEqual([]);
  expect(admin.watch.errors, 'console errors (admin)').toEqual([]);
});

test('signed out, the heart asks to sign in', async ({ page }) => {
  const list = await page.request.get('/api/cards?pageSize=1');
  const [card] = ((await list.json()) as { items: Array<{ id: string; name: string }> }).items;
  await page.goto(`/cards?card=${card!.id}`);
  const dialog = page.getByRole('dialog', { name: card!.name });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: `Add ${card!.name} to your wishlist` }).click();
  const ask = page.getByRole('dialog', { name: 'Sign in to keep a wishlist' });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', /\/sign-in\?redirect=/);
  await expectAccessible(page, 'the sign-in prompt');
});
