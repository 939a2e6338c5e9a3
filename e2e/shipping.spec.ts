import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { allowConsoleError, expect, test as base } from './fixtures.ts';
import { expectAccessible, newVerifiedUser } from './support.ts';

/**
 * Shipping as a collector and the warehouse meet it (issue 15): ship two vault cards, watch the
 * fee leave the balance, cancel and get fee and cards back; then an admin takes a shipment to
 * delivered, with tracking, while the collector's page follows live.
 */

/**
 * A collector of its own (signed up and verified here): the other specs move the demo user's
 * balance and cards at any moment, and these tests count both to the cent.
 */
const test = base.extend<{ collector: Page }>({
  collector: async ({ browser }, use) => {
    const { context, page, watch } = await newVerifiedUser(browser, 'ship');
    await use(page);
    await context.close();
    expect(watch.errors, 'console errors (collector)').toEqual([]);
  },
});

test.describe.configure({ mode: 'serial' });

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);


async function origin(page: Page) {
  return new URL(page.url()).origin;
}

async function balance(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/wallet/balance')).json()) as { balanceCents: number }).balanceCents;
}

async function fund(page: Page, cents: number) {
  const o = await origin(page);
  const started = await page.request.post('/api/wallet/deposits', { data: { amountCents: cents }, headers: { 'Idempotency-Key': randomUUID(), Origin: o } });
  expect(started.status()).toBe(201);
  const { deposit } = (await started.json()) as { deposit: { id: string } };
  const paid = await page.request.post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, { headers: { 'Idempotency-Key': randomUUID(), Origin: o } });
  expect(paid.status()).toBe(200);
}

/** Opens `packs` Starter Packs through the API and returns the new vault cards' ids. */
async function newVaultCards(page: Page, packs: number): Promise<string[]> {
  const products = (await (await page.request.get('/api/shop/products')).json()) as { items: Array<{ id: string; name: string }> };
  const productId = products.items.find((i) => i.name === 'Starter Pack')!.id;
  const opened = await page.request.post('/api/shop/open', {
    data: { productId, quantity: packs },
    headers: { 'Idempotency-Key': randomUUID(), Origin: await origin(page) },
  });
  expect(opened.status()).toBe(201);
  const { openings } = (await opened.json()) as { openings: Array<{ cards: Array<{ ownedCardId: string }> }> };
  return openings.flatMap((o) => o.cards.map((c) => c.ownedCardId));
}

async function vaultStatus(page: Page, ids: string[]): Promise<string[]> {
  const res = await page.request.get(`/api/collection?status=all&ids=${ids.join(',')}`);
  const { items } = (await res.json()) as { items: Array<{ id: string; status: string }> };
  return ids.map((id) => items.find((i) => i.id === id)?.status ?? 'missing');
}

test('a user adds an address, ships two cards, sees the fee leave, and cancels: fee and cards come back', async ({ collector: page }) => {
  await page.goto('/profile/shipping');
  await expect(page.getByRole('heading', { level: 1, name: 'Shipping' })).toBeVisible();

  // An address, with the postal code checked against the country first.
  await page.getByRole('button', { name: /^Add (address|your first address)$/ }).first().click();
  const form = page.getByRole('dialog', { name: 'Add an address' });
  await form.getByLabel('Full name').fill('Dana Collector');
  await form.getByLabel('Address line 1').fill('1 Market Street');
  await form.getByLabel('City').fill('San Francisco');
  await form.getByLabel('Region or state').fill('CA');
  await form.getByLabel('Country').selectOption('US');
  await form.getByLabel('Postal code').fill('ABC');
  await form.getByLabel('Phone').fill('+1 415 555 0199');
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(form.getByText(/Not a valid postal code for United States/)).toBeVisible();
  await form.getByLabel('Postal code').fill('94105');
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(form).toBeHidden();
  const addresses = page.getByRole('list', { name: 'Your addresses' });
  await expect(addresses.getByText('Dana Collector')).toBeVisible();

  // Two fresh cards in the vault.
  await fund(page, 3000);
  const [a, b] = await newVaultCards(page, 2);
  expect(a && b).toBeTruthy();

  await page.goto('/collect');
  await expect(page.getByRole('heading', { level: 1, name: 'My vault' })).toBeVisible();
  await page.locator(`input[type="checkbox"][value="${a}"]`).check();
  await page.locator(`input[type="checkbox"][value="${b}"]`).check();
  const bar = page.getByRole('region', { name: 'Selected cards' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Ship 2' }).click();

  const dialog = page.getByRole('dialog', { name: 'Ship 2 cards to you' });
  await expect(dialog.getByText('Dana Collector')).toBeVisible();
  const pay = dialog.getByRole('button', { name: /^Pay .+ and ship$/ });
  await expect(pay).toBeEnabled();
  const feeCents = Math.round(Number(((await pay.textContent()) ?? '').replace(/[^0-9.]/g, '')) * 100);
  expect(feeCents).toBeGreaterThan(0);
  await expectAccessible(page, 'ship dialog');
  const before = await balance(page);
  await pay.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Shipment SH-\S+ requested/).first()).toBeVisible();
  expect(await balance(page)).toBe(before - feeCents);
  await expect(page.getByRole('link', { name: `Balance: ${usd(before - feeCents)}` })).toBeVisible();
  expect(await vaultStatus(page, [a!, b!])).toEqual(['in_shipment', 'in_shipment']);
  await expect(page.locator(`input[type="checkbox"][value="${a}"]`)).toHaveCount(0);

  // The shipment on the profile page: detail, then cancel.
  await page.goto('/profile/shipping');
  const table = page.getByRole('table', { name: /Your shipments/ });
  const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: /^SH-/ }) }).first();
  await expect(row).toContainText('Requested');
  await row.getByRole('button', { name: /^SH-/ }).click();
  const detail = page.getByRole('dialog', { name: /^Shipment SH-/ });
  await expect(detail.getByRole('list', { name: 'Cards in this shipment' }).getByRole('listitem')).toHaveCount(2);
  await expect(detail.getByRole('list', { name: 'Timeline' })).toContainText('Requested');
  await expectAccessible(page, 'shipment detail');
  await detail.getByRole('button', { name: 'Cancel shipment' }).click();
  const confirm = page.getByRole('dialog', { name: /^Cancel shipment SH-/ });
  await confirm.getByRole('button', { name: 'Cancel shipment' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Shipment cancelled').first()).toBeVisible();
  await expect(detail.getByText('Refunded').first()).toBeVisible();
  await expect(detail.getByRole('button', { name: 'Cancel shipment' })).toHaveCount(0);

  expect(await balance(page)).toBe(before);
  expect(await vaultStatus(page, [a!, b!])).toEqual(['in_vault', 'in_vault']);
  await detail.getByRole('button', { name: 'Close' }).first().click();
  await expect(detail).toBeHidden();
  await expect(row).toContainText('Cancelled');
  await expect(page.getByRole('link', { name: `Balance: ${usd(before)}` })).toBeVisible();

  // Back in the vault, selectable again.
  await page.goto('/collect');
  await expect(page.locator(`input[type="checkbox"][value="${a}"]`)).toBeVisible();
});

test('an admin takes a shipment to delivered with tracking while the user’s page follows live', async ({ collector: page, adminPage: admin }) => {
  await page.goto('/profile/shipping');
  await expect(page.getByRole('heading', { level: 1, name: 'Shipping' })).toBeVisible();

  // A shipment requested through the API (the first test covered the dialog).
  await fund(page, 2000);
  const [card] = await newVaultCards(page, 1);
  const added = await page.request.post('/api/shipping/addresses', {
    data: { name: 'Lee Collector', line1: '10 Downing Street', city: 'London', postalCode: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' },
    headers: { Origin: await origin(page) },
  });
  expect(added.status()).toBe(201);
  const address = (await added.json()) as { id: string };
  const created = await page.request.post('/api/shipping/shipments', {
    data: { ownedCardIds: [card], addressId: address.id, insured: true },
    headers: { 'Idempotency-Key': randomUUID(), Origin: await origin(page) },
  });
  expect(created.status()).toBe(201);
  const { shipment } = (await created.json()) as { shipment: { id: string; reference: string } };

  await page.reload();
  const table = page.getByRole('table', { name: /Your shipments/ });
  await table.getByRole('button', { name: shipment.reference }).click();
  const detail = page.getByRole('dialog', { name: `Shipment ${shipment.reference}` });
  await expect(detail.getByText('Requested').first()).toBeVisible();

  // The queue lists it; the detail page moves it along.
  await admin.goto('/admin/shipping');
  await expect(admin.getByRole('heading', { level: 1, name: 'Shipping queue' })).toBeVisible();
  await expect(admin.getByRole('link', { name: shipment.reference })).toBeVisible();
  await expectAccessible(admin, 'admin queue');
  await admin.goto('/admin/shipping/cards');
  await expect(admin.getByText(shipment.reference).first()).toBeVisible();
  await expectAccessible(admin, 'pick list');
  await admin.goBack();
  await admin.getByRole('link', { name: shipment.reference }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Shipment' })).toBeVisible();
  await expect(admin.getByText('Next step: Packing')).toBeVisible();
  await expectAccessible(admin, 'admin shipment');
  await admin.getByRole('button', { name: 'Mark packing' }).click();
  await expect(admin.getByText('Next step: Shipped')).toBeVisible();
  await expect(detail.getByText('Packing').first()).toBeVisible();
  await expect(detail.getByRole('button', { name: 'Cancel shipment' })).toHaveCount(0);

  // Shipping needs a carrier and tracking number.
  await admin.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(admin.getByText('Pick the carrier.')).toBeVisible();
  await admin.getByLabel('Carrier').selectOption('ups');
  await admin.getByLabel('Tracking number').fill('1Z999AA10123456784');
  await admin.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(admin.getByText('Next step: Delivered')).toBeVisible();

  await expect(detail.getByText('1Z999AA10123456784')).toBeVisible();
  await expect(detail.getByRole('link', { name: /Track parcel/ })).toHaveAttribute('href', /ups\.com.*1Z999AA10123456784/);

  await admin.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(admin.getByText('nothing more to do')).toBeVisible();
  await expect(detail.getByRole('list', { name: 'Timeline' })).toContainText('Delivered');
  await expect(detail.getByText('Delivered').first()).toBeVisible();
  expect(await vaultStatus(page, [card!])).toEqual(['delivered']);

  // The packing slip lists the card (it prints alone).
  await expect(admin.locator('.packing-slip')).toContainText(shipment.reference);
});

test('an admin works the pick list, the origins and the settings', async ({ adminPage: admin }) => {
  await admin.goto('/admin/shipping/cards');
  await expect(admin.getByRole('heading', { level: 1, name: 'Cards to pull' })).toBeVisible();

  await admin.goto('/admin/shipping/from');
  await expect(admin.getByRole('heading', { level: 1, name: 'Ship-from addresses' })).toBeVisible();
  await expect(admin.getByRole('table', { name: /Origins/ }).getByText('Default')).toBeVisible();
  await expect(admin.getByLabel('Base fee ($)')).toHaveValue(/\d/);
  await expect(admin.getByLabel('United States')).toBeChecked();

  await admin.getByRole('table', { name: /Origins/ }).getByRole('link').first().click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Ship-from address' })).toBeVisible();
  await expect(admin.getByLabel(/^Name\*?$/)).not.toHaveValue('');
  await expectAccessible(admin, 'origin detail');

  // A card's stock is placed on a shelf of this origin.
  const { items } = (await (await admin.request.get('/api/admin/catalog/cards?pageSize=1&archived=active')).json()) as { items: Array<{ id: string; name: string }> };
  const card = items[0]!;
  await admin.getByLabel('Find a card').fill(card.name);
  await admin.getByRole('button', { name: 'Search', exact: true }).click();
  await admin.getByLabel('Card', { exact: true }).selectOption(card.id);
  await admin.getByLabel('Shelf').fill('B-07');
  await admin.getByRole('button', { name: 'Place card' }).click();
  await expect(admin.getByText(`${card.name} placed`).first()).toBeVisible();
});

test('"Select all" in the vault takes every card in it, across pages', async ({ collector: page }) => {
  await page.goto('/collect');
  await expect(page.getByRole('heading', { level: 1, name: 'My vault' })).toBeVisible();
  await fund(page, 3000);
  for (let i = 0; i < 3; i++) await newVaultCards(page, 10);
  await page.reload();
  const all = page.getByRole('button', { name: /^Select all \d+/ });
  await expect(all).toBeVisible();
  const n = Number(((await all.textContent()) ?? '').replace(/\D+/g, ''));
  expect(n).toBeGreaterThan(24);
  await all.click();
  await expect(page.getByRole('region', { name: 'Selected cards' })).toContainText(`${n} selected`);
  await expect(page.getByRole('button', { name: `Ship ${n}` })).toBeVisible();
});

test('refusals say what to do: a short balance offers a deposit, a card that left the vault is named and can be left out', async ({ collector: page }) => {
  await page.goto('/collect');
  await expect(page.getByRole('heading', { level: 1, name: 'My vault' })).toBeVisible();
  // The smallest deposit less three $1 packs leaves less than the fee of three cards.
  await fund(page, 500);
  const [a, b, c] = await newVaultCards(page, 3);
  expect(await balance(page)).toBe(200);
  const added = await page.request.post('/api/shipping/addresses', {
    data: { name: 'Kim Collector', line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE', phone: '+49 30 1234567' },
    headers: { Origin: await origin(page) },
  });
  expect(added.status()).toBe(201);

  await page.reload();
  for (const id of [a, b, c]) await page.locator(`input[type="checkbox"][value="${id}"]`).check();
  await page.getByRole('region', { name: 'Selected cards' }).getByRole('button', { name: 'Ship 3' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ship 3 cards to you' });
  await expect(dialog.getByText('Your balance does not cover the fee')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Make a deposit' })).toHaveAttribute('href', '/profile/billing');
  await expect(dialog.getByRole('button', { name: /^Pay .+ and ship$/ })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Not now' }).click();

  // With credit, but one card sold back in another tab meanwhile: 409 names it, nothing is charged.
  allowConsoleError(page, /status of 409/);
  await fund(page, 2000);
  await page.getByRole('region', { name: 'Selected cards' }).getByRole('button', { name: 'Ship 3' }).click();
  const pay = dialog.getByRole('button', { name: /^Pay .+ and ship$/ });
  await expect(pay).toBeEnabled();
  const sold = await page.request.post('/api/buyback', { data: { ownedCardIds: [a] }, headers: { 'Idempotency-Key': randomUUID(), Origin: await origin(page) } });
  expect(sold.status()).toBe(201);
  const before = await balance(page);
  const { items } = (await (await page.request.get(`/api/collection?status=all&ids=${a}`)).json()) as { items: Array<{ card: { name: string } }> };
  await pay.click();
  await expect(dialog.getByText('Some cards cannot be shipped').first()).toBeVisible();
  await expect(dialog.getByText(new RegExp(`${items[0]!.card.name} is sold back`, 'i')).first()).toBeVisible();
  expect(await balance(page)).toBe(before);
  expect(await vaultStatus(page, [b!, c!])).toEqual(['in_vault', 'in_vault']);
  await expectAccessible(page, 'ship dialog refusal');

  // Leave it out and ship the other two.
  await dialog.getByRole('button', { name: 'Ship the other 2 cards' }).first().click();
  const two = page.getByRole('dialog', { name: 'Ship 2 cards to you' });
  await two.getByRole('button', { name: /^Pay .+ and ship$/ }).click();
  await expect(two).toBeHidden();
  expect(await vaultStatus(page, [b!, c!])).toEqual(['in_shipment', 'in_shipment']);
});

test('an admin bulk-packs, cancels one with a reason and resolves a lost parcel with a refund', async ({ collector: page, adminPage: admin }) => {
  await page.goto('/profile/shipping');
  await expect(page.getByRole('heading', { level: 1, name: 'Shipping' })).toBeVisible();
  await fund(page, 2000);
  const cards = await newVaultCards(page, 2);
  const added = await page.request.post('/api/shipping/addresses', {
    data: { name: 'Ana Collector', line1: 'Rue de Rivoli 1', city: 'Paris', postalCode: '75001', country: 'FR', phone: '+33 1 23 45 67 89' },
    headers: { Origin: await origin(page) },
  });
  const address = (await added.json()) as { id: string };
  const refs: Array<{ id: string; reference: string; feeCents: number }> = [];
  for (const card of cards) {
    const res = await page.request.post('/api/shipping/shipments', {
      data: { ownedCardIds: [card], addressId: address.id },
      headers: { 'Idempotency-Key': randomUUID(), Origin: await origin(page) },
    });
    expect(res.status()).toBe(201);
    refs.push(((await res.json()) as { shipment: { id: string; reference: string; feeCents: number } }).shipment);
  }
  const [one, two] = refs as [(typeof refs)[0], (typeof refs)[0]];
  const afterFees = await balance(page);

  // Both into packing at once, from the queue.
  await admin.goto('/admin/shipping');
  await admin.getByLabel(`Select ${one.reference}`).check();
  await admin.getByLabel(`Select ${two.reference}`).check();
  await admin.getByRole('button', { name: 'Mark packing' }).click();
  await expect(admin.getByText('2 shipments moved to packing').first()).toBeVisible();
  await admin.getByRole('button', { name: /^Packing \d+/ }).click();
  await expect(admin.getByRole('link', { name: one.reference })).toBeVisible();

  // One is cancelled with a reason: the fee and the card go back.
  await admin.goto(`/admin/shipping/${one.id}`);
  await admin.getByRole('button', { name: 'Cancel shipment' }).click();
  const cancel = admin.getByRole('dialog', { name: `Cancel ${one.reference}?` });
  await cancel.getByRole('button', { name: 'Cancel shipment' }).click();
  await expect(cancel.getByText(/Give a reason/)).toBeVisible();
  await cancel.getByLabel('Reason').fill('The card was damaged on the shelf.');
  await cancel.getByRole('button', { name: 'Cancel shipment' }).click();
  await expect(cancel).toBeHidden();
  await expect(admin.getByText('The card was damaged on the shelf.')).toBeVisible();
  expect(await balance(page)).toBe(afterFees + one.feeCents);
  expect(await vaultStatus(page, [cards[0]!])).toEqual(['in_vault']);

  // The other ships, then is lost: refunded, as decided.
  await admin.goto(`/admin/shipping/${two.id}`);
  await admin.getByLabel('Carrier').selectOption('dhl');
  await admin.getByLabel('Tracking number').fill('JD014600003828');
  await admin.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(admin.getByText('Next step: Delivered')).toBeVisible();
  await admin.getByRole('button', { name: 'Mark lost or returned' }).click();
  const resolve = admin.getByRole('dialog', { name: `Lost or returned: ${two.reference}` });
  await resolve.getByLabel('The parcel is lost').check();
  await resolve.getByLabel(/^Refund /).check();
  await resolve.getByLabel('Reason').fill('The carrier lost it in transit.');
  await expectAccessible(admin, 'resolve dialog');
  await resolve.getByRole('button', { name: 'Confirm' }).click();
  await expect(resolve).toBeHidden();
  await expect(admin.getByText('Lost', { exact: true }).first()).toBeVisible();
  expect(await balance(page)).toBe(afterFees + one.feeCents + two.feeCents);

  // The user's history shows both refunds.
  await page.reload();
  const table = page.getByRole('table', { name: /Your shipments/ });
  await expect(table.getByRole('row').filter({ hasText: one.reference })).toContainText('Cancelled');
  await expect(table.getByRole('row').filter({ hasText: two.reference })).toContainText('Lost');
});
