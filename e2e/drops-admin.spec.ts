import type { Page } from '@playwright/test';
import { allowConsoleError, expect, test } from './fixtures.ts';
import { expectAccessible, unique } from './support.ts';

/**
 * The back office's daily drops (issue 16): schedule a drop with a prize card through the form,
 * find it in the list, edit it, see a server refusal on its field, cancel it and watch the prize
 * go back to stock.
 */

/** No sideways scrolling at phone width. */
async function expectFitsPhone(page: Page, where: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow at 390px: ${where}`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * A prize card of this test's own, so packs opened by other specs at the same time cannot move
 * the stock counted here. Its class, architect and art are borrowed from a seeded card.
 */
async function newPrizeCard(page: Page, stock: number) {
  const listed = await page.request.get('/api/admin/catalog/cards?pageSize=1');
  const [seed] = ((await listed.json()) as { items: Array<{ classId: string; architectId: string; imageKey: string }> }).items;
  const id = unique();
  const name = `Drop prize ${id}`;
  const res = await page.request.post('/api/admin/catalog/cards', {
    data: { name, setName: `Drops ${id}`, number: 1, classId: seed!.classId, architectId: seed!.architectId, imageKey: seed!.imageKey, valueCents: 1234, stock },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: ((await res.json()) as { card: { id: string } }).card.id, name };
}

async function stockOf(page: Page, cardId: string): Promise<number> {
  const res = await page.request.get(`/api/admin/catalog/cards/${cardId}`);
  return ((await res.json()) as { card: { stock: number } }).card.stock;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value (the browser's zone, which is this machine's) `hours` from now. */
function localIn(hours: number): string {
  const d = new Date(Date.now() + hours * 3_600_000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// Each of these walks several admin forms with axe checks: on CI it took up to 58 s of the
// default 60, so a busy machine tipped it over. The steps wait on what they see, not on time.
test.describe.configure({ timeout: 120_000 });

test('an admin schedules a drop with a prize card, edits it, is refused a bad edit, and cancels it: the prize goes back to stock', async ({ adminPage: page }) => {
  // The out-of-stock and past-close refusals answer 4xx on purpose.
  allowConsoleError(page, /Failed to load resource: the server responded with a status of (400|409)/);
  await page.goto('/admin/daily');
  await expect(page.getByRole('heading', { level: 1, name: 'Daily drops' })).toBeVisible();
  const card = await newPrizeCard(page, 5);
  const title = `Friday drop ${unique()}`;

  await page.getByRole('button', { name: 'New drop' }).click();
  const dialog = page.getByRole('dialog', { name: 'New drop' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Description').fill('Two copies, two winners.');
  await dialog.getByLabel('Opens').fill(localIn(2));
  await dialog.getByLabel('Closes').fill(localIn(26));
  await dialog.getByLabel('Winners').fill('2');

  // Nothing picked yet: the contract says so on the prizes.
  await dialog.getByRole('button', { name: 'Schedule drop' }).click();
  await expect(dialog.getByText('A drop needs at least one prize card.')).toBeVisible();

  await dialog.getByLabel('Find a card to add').fill(card.name);
  const results = dialog.getByRole('list', { name: 'Cards with stock' });
  await expect(results.getByText('5 in stock')).toBeVisible();
  await results.getByRole('button', { name: `Add ${card.name}` }).click();
  const copies = dialog.getByLabel(`Copies of ${card.name}`);
  await expect(copies).toHaveValue('1');
  await expectAccessible(page, 'new drop dialog');

  // More winners than prizes: refused in the browser, on the winner count.
  await dialog.getByRole('button', { name: 'Schedule drop' }).click();
  await expect(dialog.getByText(/More winners than prizes/)).toBeVisible();
  await expect(dialog.getByLabel('Winners')).toHaveAttribute('aria-invalid', 'true');

  // More copies than stock: the server refuses (out_of_stock) and the card's quantity says why.
  await copies.fill('6');
  await dialog.getByRole('button', { name: 'Schedule drop' }).click();
  await expect(dialog.getByText(/Not enough stock of .*: 5 left, the drop needs 6/)).toBeVisible();
  await expect(copies).toHaveAttribute('aria-invalid', 'true');
  expect(await stockOf(page, card.id)).toBe(5);

  await copies.fill('2');
  await dialog.getByRole('button', { name: 'Schedule drop' }).click();
  await expect(page).toHaveURL(/\/admin\/daily\/[0-9a-f-]{36}$/);
  const dropId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  await expect(page.getByText('Upcoming').first()).toBeVisible();
  expect(await stockOf(page, card.id)).toBe(3);

  // In the list, with the counts the API gives, and under its status chip.
  await page.goto('/admin/daily');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
  await expect(row).toContainText('2 × ' + card.name);
  await expect(row).toContainText('Upcoming');
  const { counts } = (await (await page.request.get('/api/admin/drops?pageSize=1')).json()) as { counts: Record<string, number> };
  expect(counts.upcoming).toBeGreaterThanOrEqual(1);
  const chip = page.getByRole('navigation', { name: 'Drops by status' }).getByRole('button', { name: /^Upcoming/ });
  await expect(chip).toHaveText(new RegExp(`Upcoming\\s*${counts.upcoming}$`));
  await chip.click();
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await expectAccessible(page, 'drop list');
  await expectFitsPhone(page, 'drop list');

  // Edit: a new title.
  await page.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/daily/${dropId}$`));
  const edit = page.getByRole('form', { name: 'Edit drop' });
  await edit.getByLabel('Title').fill(`${title} (edited)`);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 2, name: `${title} (edited)` })).toBeVisible();
  // Checked on a fresh load: once a toast has shown, Radix's toast viewport keeps focus-guard
  // spans that axe flags (the kit's toaster, not this page).
  await page.reload();
  await expect(edit.getByLabel('Title')).toHaveValue(`${title} (edited)`);
  await expectAccessible(page, 'drop detail');
  await expectFitsPhone(page, 'drop detail');

  // A close already past passes the browser's checks but not the server's: its message sits on Closes.
  await edit.getByLabel('Opens').fill(localIn(-3));
  await edit.getByLabel('Closes').fill(localIn(-2));
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByText('Choose a closing time in the future.')).toBeVisible();
  await expect(edit.getByLabel('Closes')).toHaveAttribute('aria-invalid', 'true');
  const still = (await (await page.request.get(`/api/admin/drops/${dropId}`)).json()) as { drop: { status: string; title: string } };
  expect(still.drop).toMatchObject({ status: 'scheduled', title: `${title} (edited)` });

  // Cancel, with confirmation: the two copies go back to stock.
  await page.reload();
  await page.getByRole('button', { name: 'Cancel drop' }).click();
  const confirm = page.getByRole('dialog', { name: /^Cancel “/ });
  await expect(confirm).toContainText('2 prize cards go back to stock');
  await expectAccessible(page, 'cancel dialog');
  await confirm.getByRole('button', { name: 'Cancel drop' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Cancelled').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel drop' })).toHaveCount(0);
  await expect(page.getByText('it can no longer be edited')).toBeVisible();
  expect(await stockOf(page, card.id)).toBe(5);
});

test('an admin makes a recurring daily drop, pauses it and deletes it', async ({ adminPage: page }) => {
  await page.goto('/admin/daily');
  await expect(page.getByRole('heading', { level: 1, name: 'Daily drops' })).toBeVisible();
  const card = await newPrizeCard(page, 10);
  const title = `Every day ${unique()}`;

  await page.getByRole('button', { name: 'New drop' }).click();
  const dialog = page.getByRole('dialog', { name: 'New drop' });
  await dialog.getByRole('radio', { name: 'Every day (recurring)' }).check();
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Opens every day at (UTC)').fill('23:30');
  await dialog.getByLabel('Open for (minutes)').fill('2');
  await dialog.getByLabel('Find a card to add').fill(card.name);
  await dialog.getByRole('list', { name: 'Cards with stock' }).getByRole('button', { name: `Add ${card.name}` }).click();
  await dialog.getByRole('button', { name: 'Create recurring drop' }).click();
  await expect(dialog.getByText('At least 5 minutes.')).toBeVisible();
  await expectAccessible(page, 'new recurring drop dialog');
  await dialog.getByLabel('Open for (minutes)').fill('60');
  await dialog.getByRole('button', { name: 'Create recurring drop' }).click();
  await expect(dialog).toBeHidden();

  const recurring = page.getByRole('list', { name: 'Recurring drops' }).getByRole('listitem').filter({ hasText: title });
  await expect(recurring).toContainText('Opens 23:30 UTC for 60 min');
  await expect(recurring).toContainText('Active');
  await recurring.getByRole('button', { name: `Pause ${title}` }).click();
  await expect(recurring).toContainText('Paused');
  await recurring.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete “${title}”?` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);
});

test('an open drop locks its terms, says why, and may only be extended', async ({ adminPage: page }) => {
  await page.goto('/admin/daily');
  const card = await newPrizeCard(page, 2);
  const title = `Open now ${unique()}`;
  const closesAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const res = await page.request.post('/api/admin/drops', {
    data: { title, opensAt: new Date().toISOString(), closesAt, winnerCount: 1, prizes: [{ cardId: card.id, quantity: 1 }] },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { drop } = (await res.json()) as { drop: { id: string; status: string } };
  expect(drop.status).toBe('open');

  await page.goto(`/admin/daily/${drop.id}`);
  const edit = page.getByRole('form', { name: 'Edit drop' });
  await expect(edit.getByText('This drop is open')).toBeVisible();
  await expect(edit.getByLabel('Winners')).toBeDisabled();
  await expect(edit.getByLabel('Opens')).toBeDisabled();
  await expect(edit.getByLabel(`Copies of ${card.name}`)).toBeDisabled();
  await expect(edit.getByLabel('Find a card to add')).toHaveCount(0);
  await expect(page.getByText(/^[0-9a-f]{64}$/).first()).toBeVisible();
  await expectAccessible(page, 'open drop');

  // Shorter: refused on the field. Later: saved.
  await edit.getByLabel('Closes').fill(localIn(1));
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByText('An open drop may be extended, not shortened.')).toBeVisible();
  await edit.getByLabel('Title').fill(`${title} (longer)`);
  await edit.getByLabel('Closes').fill(localIn(5));
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 2, name: `${title} (longer)` })).toBeVisible();
  const after = (await (await page.request.get(`/api/admin/drops/${drop.id}`)).json()) as { drop: { closesAt: string; winnerCount: number } };
  expect(Date.parse(after.drop.closesAt)).toBeGreaterThan(Date.parse(closesAt));
  expect(after.drop.winnerCount).toBe(1);

  // Cancelled while open: the prize goes back.
  await page.getByRole('button', { name: 'Cancel drop' }).click();
  await page.getByRole('dialog', { name: /^Cancel “/ }).getByRole('button', { name: 'Cancel drop' }).click();
  await expect(page.getByText('it can no longer be edited')).toBeVisible();
  expect(await stockOf(page, card.id)).toBe(2);
});
