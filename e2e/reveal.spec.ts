import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { sandboxDeposit as deposit, expectAccessible, newVerifiedUser, shopProduct } from './support.ts';

/**
 * The pack-opening reveal: it tears open and plays through on its own at the user's pace, can be
 * hurried or skipped, opens several packs in one go, remembers the sound choice, and falls back
 * to still frames for reduced motion. Each test has a user of its own (its own wallet and packs).
 */

interface OpenedCard {
  name: string;
  valueCents: number;
  classSortOrder: number;
}

/** Buys and opens from the product page; resolves with the settled openings. */
async function buyAndOpen(page: Page, productId: string, quantity = 1) {
  await page.goto(`/shop/${productId}`);
  for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'One pack more' }).click();
  await expect(page.getByLabel('Quantity')).toHaveValue(String(quantity));
  const opened = page.waitForResponse((r) => r.url().endsWith('/api/shop/open') && r.request().method() === 'POST');
  // The panel's own button (on a phone the sticky bar offers the same action).
  await page.locator('#main').getByRole('button', { name: 'Buy and open', exact: true }).first().click();
  const res = await opened;
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { openings: Array<{ cards: OpenedCard[] }> }).openings;
}

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

// Whole journeys (sign-up by mail, deposit, buying, a reveal, axe) on a shared 2-core machine.
test.describe.configure({ timeout: 240_000 });

/** Records every card the reveal announces (each shows only briefly at a fast pace). */
async function recordAnnouncements(page: Page) {
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[role="status"]')) {
        const t = el.textContent ?? '';
        if (t.startsWith('Card ') && said.at(-1) !== t) said.push(t);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __said: string[] }).__said);
}

test('a pack tears open and plays through on its own, best card last, in view on a phone', async ({ browser }) => {
  const u = await newVerifiedUser(browser, 'reveal');
  const page = u.page;
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    const announced = await recordAnnouncements(page);
    await deposit(page, 5_000);
    const premium = await shopProduct(page, 'Premium Vault Pack');
    // A slow pace remembered from before, so the tear lasts long enough to be seen here.
    await page.evaluate(() => localStorage.setItem('packvault:reveal', JSON.stringify({ pace: 'slow', sound: false })));
    const [opening] = await buyAndOpen(page, premium.id);
    const best = [...opening!.cards].sort((a, b) => b.classSortOrder - a.classSortOrder || b.valueCents - a.valueCents)[0]!;

    // No click needed: the pack tears by itself, then the cards follow.
    await expect(page.locator('[data-stage="tear"]')).toBeVisible();
    const reveal = page.getByRole('region', { name: /^Opening Premium Vault Pack/ });
    await expect(reveal).toBeVisible();
    // Scrolled so its top is in view (not under the sticky header), and the footer is below the fold.
    await expect.poll(async () => (await reveal.boundingBox())!.y).toBeGreaterThanOrEqual(60);
    expect((await reveal.boundingBox())!.y).toBeLessThan(140);
    expect((await page.getByRole('contentinfo').boundingBox())!.y).toBeGreaterThanOrEqual(844);

    await expect(page.getByRole('radio', { name: 'Slow' })).toBeChecked();
    await page.getByRole('radio', { name: 'Fast' }).check();
    await expect(page.locator('[data-stage="animated"]')).toBeVisible({ timeout: 15_000 });
    const results = page.getByRole('region', { name: /Your pack: 5 cards/ });
    await expect(results).toBeVisible({ timeout: 60_000 });
    // Every card was shown in turn, and the best came last.
    const said = await announced();
    expect(said.map((t) => t.slice(0, 12))).toEqual([1, 2, 3, 4, 5].map((i) => `Card ${i} of 5:`));
    expect(said.at(-1)).toContain(`Card 5 of 5: ${best.name},`);
    // Selling back is offered right after the reveal.
    await expect(page.getByRole('region', { name: 'Sell back' })).toBeVisible();
    await expectAccessible(page, 'results after an automatic reveal (phone)');
  } finally {
    await u.context.close();
  }
  expect(u.watch.errors, 'console errors').toEqual([]);
});

test('a tap or Space hurries the reveal, Pause holds it, and Skip jumps to the results', async ({ browser }) => {
  const u = await newVerifiedUser(browser, 'reveal');
  const page = u.page;
  try {
    await page.goto('/shop');
    await deposit(page, 5_000);
    const premium = await shopProduct(page, 'Premium Vault Pack');
    await buyAndOpen(page, premium.id);

    // Paused while still sealed, the pack waits to be torn by hand: pause once it has torn (the
    // reveal is loaded after the purchase, so wait for what only a torn pack shows).
    await expect(page.getByRole('button', { name: /^(Reveal now|Next card)/ })).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('button', { name: 'Play on its own' })).toHaveAttribute('aria-pressed', 'true');
    // Paused, a card still turns after its build-up, then stays until the user moves on.
    const turned = status(page, /Card \d of 5:/);
    await expect(turned).toBeAttached({ timeout: 15_000 });
    const n = Number(/Card (\d)/.exec((await turned.textContent()) ?? '')![1]);
    expect(n).toBeLessThanOrEqual(3);
    await page.waitForTimeout(2_500);
    await expect(status(page, `Card ${n} of 5:`)).toBeAttached();
    await expect(page.getByRole('button', { name: `Next card (${n + 1} of 5)` })).toBeVisible();
    await expectAccessible(page, 'a revealed card, paused');
    // Space (outside a control) moves on; the next card turns after its build-up.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await expect(status(page, `Card ${n + 1} of 5:`)).toBeAttached({ timeout: 15_000 });
    // A tap on the stage does the same.
    await page.getByTestId('reveal-stage').click();
    await expect(status(page, `Card ${n + 2} of 5:`)).toBeAttached({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Skip to results' }).click();
    await expect(page.getByRole('region', { name: /Your pack: 5 cards/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Your pack: 5 cards/ })).toBeFocused();
  } finally {
    await u.context.close();
  }
  expect(u.watch.errors, 'console errors').toEqual([]);
});

test('"Open all" opens every pack in one go and sums them up in a grid', async ({ browser }) => {
  const u = await newVerifiedUser(browser, 'reveal');
  const page = u.page;
  try {
    await page.goto('/shop');
    await deposit(page, 5_000);
    const starter = await shopProduct(page, 'Starter Pack');
    const bought = await page.request.post('/api/shop/purchases', {
      data: { productId: starter.id, quantity: 3 },
      headers: { Origin: new URL(page.url()).origin, 'Idempotency-Key': randomUUID() },
    });
    expect(bought.status(), await bought.text()).toBe(201);

    await page.goto('/open-pack');
    await page.getByRole('button', { name: 'Open all 3', exact: true }).click();
    await expect(page.getByRole('region', { name: /^Opening 3 packs/ })).toBeVisible();
    await page.getByRole('radio', { name: 'Fast' }).check();
    // No "Tear it open" per pack: all three tear together and their cards play straight through.
    await expect(page.getByRole('heading', { name: /pack 3 of 3/ })).toBeVisible({ timeout: 30_000 });
    const results = page.getByRole('region', { name: /Your 3 packs: 3 cards/ });
    await expect(results).toBeVisible({ timeout: 30_000 });

    const packs = results.getByRole('list', { name: 'Your packs' }).locator(':scope > li');
    await expect(packs).toHaveCount(3);
    const [a, b] = [await packs.nth(0).boundingBox(), await packs.nth(1).boundingBox()];
    expect(Math.abs(a!.y - b!.y), 'packs sit side by side, not one per row').toBeLessThan(2);
    await expectAccessible(page, 'results of three packs');
  } finally {
    await u.context.close();
  }
  expect(u.watch.errors, 'console errors').toEqual([]);
});

test('sound stays off until turned on, and the choice is remembered across a reload', async ({ browser }) => {
  const u = await newVerifiedUser(browser, 'reveal');
  const page = u.page;
  // Count synthesised tones (the sound is Web Audio oscillators, no files).
  await page.addInitScript(() => {
    const w = window as unknown as { __tones: number };
    w.__tones = 0;
    const proto = AudioContext.prototype;
    const original = proto.createOscillator;
    proto.createOscillator = function (this: AudioContext) {
      w.__tones++;
      return original.call(this);
    };
  });
  const tones = () => page.evaluate(() => (window as unknown as { __tones: number }).__tones);
  try {
    await page.goto('/shop');
    await deposit(page, 10_000);
    const starter = await shopProduct(page, 'Starter Pack');
    const premium = await shopProduct(page, 'Premium Vault Pack');
    await page.evaluate(() => localStorage.setItem('packvault:reveal', JSON.stringify({ pace: 'slow', sound: false })));

    await buyAndOpen(page, premium.id);
    await page.getByRole('button', { name: 'Pause' }).click();
    const sound = page.getByRole('switch', { name: 'Sound' });
    await expect(sound).not.toBeChecked();
    // Paused, a pack still sealed waits for a click; a card already turning still turns.
    await page.waitForTimeout(3_000);
    expect(await tones(), 'no sound before it is turned on').toBe(0);
    await sound.click();
    await expect(sound).toBeChecked();

    await page.reload();
    await buyAndOpen(page, starter.id);
    await expect(page.getByRole('switch', { name: 'Sound' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Slow' })).toBeChecked();
    await expect.poll(tones, { timeout: 20_000 }).toBeGreaterThan(0);
  } finally {
    await u.context.close();
  }
  expect(u.watch.errors, 'console errors').toEqual([]);
});

test('with reduced motion the reveal is still frames, stepped through by the user', async ({ browser }) => {
  const u = await newVerifiedUser(browser, 'reveal');
  const page = u.page;
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/shop');
    await deposit(page, 5_000);
    const premium = await shopProduct(page, 'Premium Vault Pack');
    await buyAndOpen(page, premium.id);

    // Nothing moves by itself: the pack waits for the click.
    await page.waitForTimeout(1_500);
    await expect(page.locator('[data-stage="tear"]')).toHaveCount(0);
    await page.getByRole('button', { name: 'Tear it open' }).click();
    await expect(status(page, 'Card 1 of 5:')).toBeAttached();
    await expect(page.locator('[data-stage="still"]')).toBeVisible();
    await expect(page.locator('[data-stage="animated"]')).toHaveCount(0);
    await page.waitForTimeout(2_000);
    await expect(status(page, 'Card 1 of 5:')).toBeAttached();
    await expectAccessible(page, 'reduced-motion reveal');
    await page.getByRole('button', { name: 'Next card (2 of 5)' }).click();
    await expect(status(page, 'Card 2 of 5:')).toBeAttached();
    await page.getByRole('button', { name: 'Skip to results' }).click();
    await expect(page.getByRole('region', { name: /Your pack: 5 cards/ })).toBeVisible();
  } finally {
    await u.context.close();
  }
  expect(u.watch.errors, 'console errors').toEqual([]);
});
