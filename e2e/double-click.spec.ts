import { randomUUID } from 'node:crypto';
import type { Locator, Page, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { newVerifiedUser, sandboxDeposit, shopProduct, unique } from './support.ts';

/**
 * Issue 38, "a double-click buys once": every money button is clicked twice and three times in a
 * real browser — Playwright's double-click, a triple click (one gesture, `detail` 1, 2, 3) and
 * three separate rapid clicks of the mouse — and then the books are read through the API: each
 * gesture sent one request and made exactly one charge, and the message states that charge.
 */

interface Gesture {
  name: string;
  run(page: Page, button: Locator): Promise<void>;
}

const GESTURES: Gesture[] = [
  { name: 'double-click', run: (_page, button) => button.dblclick() },
  { name: 'triple click', run: (_page, button) => button.click({ clickCount: 3 }) },
  {
    name: 'three separate clicks',
    async run(page, button) {
      await button.scrollIntoViewIfNeeded();
      // The mouse clicks below do no actionability checks: wait until the button is visible,
      // enabled and still (a dialog that is still opening moves it).
      await button.click({ trial: true });
      const box = await button.boundingBox();
      if (!box) throw new Error('the button has no box');
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      // Each its own gesture (clickCount 1): only the action's in-flight guard stops the others.
      // The server's answer is held until the third click has landed: on a loaded machine three
      // clicks can take longer than an answer plus the half-second gesture tail, and a click
      // after that is a new intent (a second purchase, rightly).
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const handled: Promise<void>[] = [];
      const hold = (route: Route) => {
        const done = (async () => {
          if (route.request().method() === 'POST') await gate;
          // On to the counting route (postsTo), which lets it through.
          await route.fallback();
        })();
        handled.push(done);
        return done;
      };
      await page.route('**/api/**', hold);
      try {
        await page.mouse.click(x, y);
        await page.mouse.click(x, y);
        await page.mouse.click(x, y);
      } finally {
        release();
        await Promise.all(handled);
        await page.unroute('**/api/**', hold);
      }
    },
  },
];

/**
 * Counts the page's POSTs to `path` from now on, as they leave the page: a route that lets each
 * through (a gesture's own route falls back to it). Counted from the 'request' event instead, a
 * request that raced the gesture's unroute on a loaded machine was once missed although the
 * server had answered it.
 */
async function postsTo(page: Page, path: RegExp) {
  let n = 0;
  const count = (route: Route) => {
    const r = route.request();
    if (r.method() === 'POST' && path.test(new URL(r.url()).pathname)) n++;
    return route.fallback();
  };
  await page.route('**/api/**', count);
  return {
    count: () => n,
    stop: () => page.unroute('**/api/**', count),
  };
}

/** Lets any late request of the gesture arrive before the books are read. */
const settle = (page: Page) => page.waitForTimeout(400);

async function ledger(page: Page, kind: string): Promise<Array<{ amountCents: number; purchase?: { packs: number } | null }>> {
  const res = await page.request.get(`/api/wallet/history?kind=${kind}&pageSize=100`);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { entries: Array<{ amountCents: number; purchase?: { packs: number } | null }> }).entries;
}

async function balance(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/wallet/balance')).json()) as { balanceCents: number }).balanceCents;
}

const origin = (page: Page) => ({ Origin: new URL(page.url()).origin });

test.describe.configure({ mode: 'serial' });

test('Buy, Buy and open and the phone bar: each gesture buys one pack, once', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, watch } = await newVerifiedUser(browser, 'dbl');
  try {
    await sandboxDeposit(page, 2000);
    const starter = await shopProduct(page, 'Starter Pack');
    expect(starter.priceCents).toBe(100);

    for (const g of GESTURES) {
      await page.goto(`/shop/${starter.id}`);
      const buy = page.getByRole('button', { name: 'Buy', exact: true });
      await expect(buy).toBeEnabled();
      const [before, cents] = [(await ledger(page, 'pack_purchase')).length, await balance(page)];
      const posts = await postsTo(page, /^\/api\/shop\/purchases$/);
      await g.run(page, buy);
      const done = page.getByRole('status').filter({ hasText: '1 pack added to your unopened packs' });
      await expect(done, g.name).toBeVisible();
      await expect(done).toContainText('You paid $1.00.');
      await settle(page);
      await posts.stop();
      expect(posts.count(), `Buy, ${g.name}: requests`).toBe(1);
      const after = await ledger(page, 'pack_purchase');
      expect(after.length, `Buy, ${g.name}: charges`).toBe(before + 1);
      expect(after[0]).toMatchObject({ amountCents: -100, purchase: { packs: 1 } });
      expect(await balance(page)).toBe(cents - 100);
    }

    for (const g of GESTURES) {
      await page.goto(`/shop/${starter.id}`);
      const open = page.getByRole('button', { name: 'Buy and open', exact: true });
      await expect(open).toBeEnabled();
      const [before, cents] = [(await ledger(page, 'pack_purchase')).length, await balance(page)];
      const posts = await postsTo(page, /^\/api\/shop\/open$/);
      await g.run(page, open);
      // The reveal states what the server charged.
      await expect(page.getByRole('status').filter({ hasText: '1 pack of Starter Pack: you paid $1.00.' }), g.name).toBeVisible();
      await settle(page);
      await posts.stop();
      expect(posts.count(), `Buy and open, ${g.name}: requests`).toBe(1);
      const after = await ledger(page, 'pack_purchase');
      expect(after.length, `Buy and open, ${g.name}: charges`).toBe(before + 1);
      expect(after[0]).toMatchObject({ amountCents: -100, purchase: { packs: 1 } });
      expect(await balance(page)).toBe(cents - 100);
    }

    // A phone: the sticky bar repeats "Buy and open" while the panel is below the fold.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const g of GESTURES) {
      await page.goto(`/shop/${starter.id}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      const bar = page.getByRole('region', { name: 'Buy Starter Pack' });
      const open = bar.getByRole('button', { name: 'Buy and open', exact: true });
      await expect(open).toBeVisible();
      const before = (await ledger(page, 'pack_purchase')).length;
      const posts = await postsTo(page, /^\/api\/shop\/open$/);
      await g.run(page, open);
      await expect(page.getByRole('status').filter({ hasText: '1 pack of Starter Pack: you paid $1.00.' }), g.name).toBeVisible();
      await settle(page);
      await posts.stop();
      expect(posts.count(), `phone bar, ${g.name}: requests`).toBe(1);
      expect((await ledger(page, 'pack_purchase')).length, `phone bar, ${g.name}: charges`).toBe(before + 1);
    }
  } finally {
    await context.close();
  }
  expect(watch.errors, 'console errors').toEqual([]);
});

test('Deposit, the test checkout’s Pay and Redeem: each gesture starts, pays or redeems once', async ({ browser, adminPage }) => {
  test.setTimeout(180_000);
  // Three one-use codes of $3, made by an admin.
  await adminPage.goto('/admin');
  const codes = GESTURES.map(() => `DBL${unique().toUpperCase()}`.replace(/[^A-Z0-9]/g, '').slice(0, 20));
  for (const code of codes) {
    const res = await adminPage.request.post('/api/admin/promo', { headers: origin(adminPage), data: { code, kind: 'credit', amountCents: 300 } });
    expect(res.status(), await res.text()).toBe(201);
  }

  const { context, page, watch } = await newVerifiedUser(browser, 'dbl');
  try {
    for (const [i, g] of GESTURES.entries()) {
      await page.goto('/profile/billing');
      await page.getByRole('button', { name: '$10.00', exact: true }).click();
      const deposit = page.getByRole('button', { name: 'Deposit $10.00' });
      const starts = await postsTo(page, /^\/api\/wallet\/deposits$/);
      await g.run(page, deposit);
      await expect(page, g.name).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
      await settle(page);
      await starts.stop();
      expect(starts.count(), `Deposit, ${g.name}: requests`).toBe(1);
      const list = (await (await page.request.get('/api/wallet/deposits')).json()) as { total: number };
      expect(list.total, `Deposit, ${g.name}: deposits started`).toBe(i + 1);

      const pay = page.getByRole('button', { name: 'Pay $10.00 (test)' });
      await expect(pay).toBeEnabled();
      const pays = await postsTo(page, /\/pay$/);
      await g.run(page, pay);
      await expect(page.getByText('Payment received (test mode)'), g.name).toBeVisible();
      await settle(page);
      await pays.stop();
      expect(pays.count(), `Pay, ${g.name}: requests`).toBe(1);
      expect((await ledger(page, 'deposit')).length, `Pay, ${g.name}: credits`).toBe(i + 1);
    }
    expect(await balance(page)).toBe(3000);

    for (const [i, g] of GESTURES.entries()) {
      await page.goto('/profile/billing');
      await page.getByRole('textbox', { name: 'Code' }).fill(codes[i]!);
      const redeems = await postsTo(page, /^\/api\/wallet\/promo\/redeem$/);
      await g.run(page, page.getByRole('button', { name: 'Redeem' }));
      await expect(page.getByText('$3.00 was added to your balance'), g.name).toBeVisible();
      await settle(page);
      await redeems.stop();
      expect(redeems.count(), `Redeem, ${g.name}: requests`).toBe(1);
      expect((await ledger(page, 'promo_credit')).length, `Redeem, ${g.name}: credits`).toBe(i + 1);
    }
    expect(await balance(page)).toBe(3000 + 3 * 300);
  } finally {
    await context.close();
  }
  expect(watch.errors, 'console errors').toEqual([]);
});

test('Sell back and Ship from the vault: each gesture sells or ships once', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, watch } = await newVerifiedUser(browser, 'dbl');
  try {
    await sandboxDeposit(page, 5000);
    const starter = await shopProduct(page, 'Starter Pack');
    const opened = await page.request.post('/api/shop/open', {
      data: { productId: starter.id, quantity: 6 },
      headers: { ...origin(page), 'Idempotency-Key': randomUUID() },
    });
    expect(opened.status(), await opened.text()).toBe(201);
    const owned = ((await opened.json()) as { openings: Array<{ cards: Array<{ ownedCardId: string }> }> }).openings.flatMap((o) =>
      o.cards.map((c) => c.ownedCardId),
    );
    expect(owned.length).toBeGreaterThanOrEqual(6);
    const address = await page.request.post('/api/shipping/addresses', {
      headers: origin(page),
      data: { name: 'Dee Double', line1: '1 Market Street', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US', phone: '+1 415 555 0101' },
    });
    expect(address.status(), await address.text()).toBe(201);

    for (const [i, g] of GESTURES.entries()) {
      await page.goto('/collect');
      await page.locator(`input[type="checkbox"][value="${owned[i]}"]`).check();
      const bar = page.getByRole('region', { name: 'Selected cards' });
      await bar.getByRole('button', { name: 'Sell back 1' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sell back to Packvault' });
      const sell = dialog.getByRole('button', { name: /^Sell 1 for \$/ });
      await expect(sell).toBeEnabled();
      const sells = await postsTo(page, /^\/api\/buyback$/);
      await g.run(page, sell);
      await expect(page.getByText('Sold 1 card').first(), g.name).toBeVisible();
      await settle(page);
      await sells.stop();
      expect(sells.count(), `Sell back, ${g.name}: requests`).toBe(1);
      expect((await ledger(page, 'buyback')).length, `Sell back, ${g.name}: credits`).toBe(i + 1);
    }

    for (const [i, g] of GESTURES.entries()) {
      await page.goto('/collect');
      await page.locator(`input[type="checkbox"][value="${owned[3 + i]}"]`).check();
      const bar = page.getByRole('region', { name: 'Selected cards' });
      await bar.getByRole('button', { name: 'Ship 1' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ship 1 card to you' });
      const ship = dialog.getByRole('button', { name: /^Pay .+ and ship$/ });
      await expect(ship).toBeEnabled();
      const fee = Math.round(Number(((await ship.textContent()) ?? '').replace(/[^0-9.]/g, '')) * 100);
      const cents = await balance(page);
      const ships = await postsTo(page, /^\/api\/shipping\/shipments$/);
      await g.run(page, ship);
      await expect(page.getByText(/Shipment SH-\S+ requested/).first(), g.name).toBeVisible();
      await settle(page);
      await ships.stop();
      expect(ships.count(), `Ship, ${g.name}: requests`).toBe(1);
      expect((await ledger(page, 'shipping_fee')).length, `Ship, ${g.name}: fees`).toBe(i + 1);
      expect(await balance(page)).toBe(cents - fee);
      const list = (await (await page.request.get('/api/shipping/shipments')).json()) as { total: number };
      expect(list.total).toBe(i + 1);
    }
  } finally {
    await context.close();
  }
  expect(watch.errors, 'console errors').toEqual([]);
});

test('Enter a drop: each gesture makes one entry with one request', async ({ browser, adminPage }) => {
  test.setTimeout(180_000);
  await adminPage.goto('/admin');
  const cards = await adminPage.request.get('/api/admin/catalog/cards?stock=in&sort=stock_desc&pageSize=1');
  const prize = ((await cards.json()) as { items: Array<{ id: string }> }).items[0]!;
  const drops: string[] = [];
  for (const g of GESTURES) {
    const created = await adminPage.request.post('/api/admin/drops', {
      headers: origin(adminPage),
      data: {
        title: `Double-click drop ${g.name} ${unique()}`,
        description: 'Made by the double-click test.',
        opensAt: new Date().toISOString(),
        closesAt: new Date(Date.now() + 30 * 60_000).toISOString(),
        winnerCount: 1,
        prizes: [{ cardId: prize.id, quantity: 1 }],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    drops.push(((await created.json()) as { drop: { id: string } }).drop.id);
  }
  const { context, page, watch } = await newVerifiedUser(browser, 'dbl');
  try {
    for (const [i, g] of GESTURES.entries()) {
      await page.goto(`/daily-drop/${drops[i]}`);
      const enter = page.getByRole('button', { name: "Enter, it's free" });
      await expect(enter).toBeEnabled();
      const posts = await postsTo(page, /\/entries$/);
      await g.run(page, enter);
      await expect(page.getByText("You're in"), g.name).toBeVisible();
      await settle(page);
      await posts.stop();
      expect(posts.count(), `Enter, ${g.name}: requests`).toBe(1);
      const detail = (await (await page.request.get(`/api/drops/${drops[i]}`)).json()) as { drop: { entryCount: number } };
      expect(detail.drop.entryCount).toBe(1);
    }
  } finally {
    await context.close();
    // The drops would otherwise draw later in the run: cancelling puts the prizes back.
    for (const id of drops) await adminPage.request.post(`/api/admin/drops/${id}/cancel`, { headers: origin(adminPage) });
  }
  expect(watch.errors, 'console errors').toEqual([]);
});
