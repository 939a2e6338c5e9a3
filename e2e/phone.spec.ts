import { request, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { ROUTE_LIST, fillPath, type RouteDef } from '../src/shared/routes.ts';
import { ADMIN, authFile } from './accounts.ts';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';
import { newVerifiedUser, sandboxDeposit } from './support.ts';

/**
 * Every public and signed-in page at 390 × 844 (a phone): compared with its reference screenshot
 * (e2e/__screenshots__/phone.spec.ts/), free of sideways scrolling, and the product page's buy
 * action reachable without scrolling. Signed-in pages are seen by a fresh user of the test's own
 * (no balance, no cards), since other specs move the demo user's. What still changes between runs
 * (usernames, e-mail addresses and codes, times, other users' pulls, drops) is masked.
 *
 * After an intended change of look, update the references with
 * `E2E_PORT=… npm run test:e2e -- e2e/phone.spec.ts --update-snapshots` and review the PNGs.
 */
const PHONE = { width: 390, height: 844 };
const UNKNOWN_ID = '00000000-0000-0000-0000-000000000000';
/** A seeded pack, found by name: other specs add products while this one runs. */
const PACK = 'Starter Pack';

/**
 * Masked on every page: clocks, and pack and card art (5:7 boxes), whose colours are seeded by
 * ids that each run's fresh database makes anew.
 */
const ALWAYS_MASKED = ['time', '[class*="aspect-[5/7]"]'];
/** Per page: other users' activity, drops (their state follows the clock), per-user names and codes. */
const SHARED_ACTIVITY = ['main', 'footer'];
const MASKED: Partial<Record<string, string[]>> = {
  // What the rest of the suite changes while this spec runs beside it (pulls, products, cards and
  // stock other specs create), so only the chrome and the layout's fit are compared on these.
  '/': SHARED_ACTIVITY,
  '/shop': SHARED_ACTIVITY,
  '/shop/$id': SHARED_ACTIVITY,
  '/cards': SHARED_ACTIVITY,
  '/top-pulls': SHARED_ACTIVITY,
  '/home': SHARED_ACTIVITY,
  '/daily-drop-winners': ['main > *'],
  '/daily-drop/$id': ['main > *'],
  '/pulls/$id': ['main > *'],
  '/invite/$referralCode': ['main h1', 'main strong'],
  '/profile/account': ['main input', 'main dd'],
  // The fresh user's own code, as text and as a QR code.
  '/profile/referral': ['main input', 'main code', 'main dd', 'main .font-mono', 'main svg[role="img"]'],
  '/profile/privacy-and-security': ['main dd'],
  '/register-mfa': ['main img', 'main canvas', 'main code', 'main input[readonly]'],
};
/** The header's account button names the fresh user. */
const SIGNED_IN_MASKED = ['header [aria-haspopup="menu"]'];
/** Pages whose sample (an id that does not exist) answers 404 on purpose. */
const EXPECTS_404 = new Set(['/$', '/checkout/$id']);

const pagesFor = (access: RouteDef['access']) => ROUTE_LIST.filter((r) => r.access === access);

async function starterPackId(page: Page) {
  const res = await page.request.get('/api/shop/products');
  const { items } = (await res.json()) as { items: Array<{ id: string; name: string }> };
  const pack = items.find((p) => p.name === PACK);
  if (!pack) throw new Error(`the seeded ${PACK} is not on sale`);
  return pack.id;
}

/** A pull of its own (a fresh user opens one Starter Pack), so the page never depends on other specs. Its card, pack and user are masked. */
async function freshPull(page: Page): Promise<string> {
  const user = await newVerifiedUser(page.context().browser()!, 'pull');
  try {
    await sandboxDeposit(user.page, 5_000);
    const res = await user.page.request.post('/api/shop/open', {
      data: { productId: await starterPackId(page), quantity: 1 },
      headers: { Origin: new URL(user.page.url()).origin, 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { openings } = (await res.json()) as { openings: Array<{ cards: Array<{ ownedCardId: string }> }> };
    return openings[0]!.cards[0]!.ownedCardId;
  } finally {
    await user.context.close();
  }
}

async function samplePath(page: Page, def: RouteDef, baseURL: string): Promise<string> {
  if (def.notFound) return '/no-such-page';
  if (def.path === '/shop/$id') return fillPath(def.path, { id: await starterPackId(page) });
  if (def.path === '/pulls/$id') return fillPath(def.path, { id: await freshPull(page) });
  if (def.path === '/daily-drop/$id') {
    const { items } = (await (await page.request.get('/api/drops?when=past')).json()) as { items: Array<{ id: string }> };
    return fillPath(def.path, { id: items.at(-1)?.id ?? UNKNOWN_ID });
  }
  if (def.path === '/invite/$referralCode') {
    // The seeded demo referral's code (seed/referrals.ts), read as the admin.
    const api = await request.newContext({ baseURL, storageState: authFile(ADMIN.name) });
    try {
      const { items } = (await (await api.get('/api/admin/referrals')).json()) as { items: Array<{ code: string }> };
      return fillPath(def.path, { referralCode: items.at(-1)?.code ?? 'NO-SUCH-CODE' });
    } finally {
      await api.dispose();
    }
  }
  return fillPath(def.path, { id: UNKNOWN_ID });
}

const shotName = (def: RouteDef) =>
  `${def.notFound ? 'not-found' : def.path === '/' ? 'landing' : def.path.slice(1).replace(/\$/g, '').replace(/[^a-z0-9]+/gi, '-')}.png`;

/** Until the page has its heading, no skeletons, its on-screen images decoded and its fonts loaded. */
async function settle(page: Page) {
  await expect(page.locator('h1').first()).toBeAttached();
  await expect(page.locator('.animate-pulse:visible')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('[aria-busy="true"]:visible')).toHaveCount(0);
  await page.evaluate(async () => {
    await document.fonts.ready;
    const onScreen = [...document.images].filter((img) => img.loading !== 'lazy' && !img.complete);
    const timeout = new Promise((r) => setTimeout(r, 5_000));
    await Promise.race([Promise.all(onScreen.map((img) => img.decode().catch(() => null))), timeout]);
  });
}

async function checkPage(page: Page, def: RouteDef, baseURL: string, signedIn: boolean) {
  const path = await samplePath(page, def, baseURL);
  if (EXPECTS_404.has(def.path)) allowConsoleError(page, 'status of 404');
  await page.goto(path);
  await settle(page);
  const { width, wide } = await page.evaluate((limit) => {
    // What sticks out, so a failure names the element rather than only the width.
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 80)} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { width: document.documentElement.scrollWidth, wide };
  }, PHONE.width);
  expect(width, `${path} scrolls sideways at 390 px: ${wide.join('; ')}`).toBeLessThanOrEqual(PHONE.width);
  const mask: Locator[] = [...ALWAYS_MASKED, ...(MASKED[def.path] ?? []), ...(signedIn ? SIGNED_IN_MASKED : [])].map((s) =>
    page.locator(s),
  );
  await expect(page, path).toHaveScreenshot(shotName(def), {
    fullPage: false,
    mask,
    animations: 'disabled',
    caret: 'hide',
    maxDiffPixelRatio: 0.02,
  });
}

test.describe('at 390 × 844', () => {
  test.use({ viewport: PHONE });

  for (const def of pagesFor('public')) {
    test(`${def.notFound ? '/no-such-page' : def.path} (visitor)`, async ({ page, baseURL }) => {
      await checkPage(page, def, baseURL!, false);
    });
  }

  test.describe('signed in', () => {
    test.describe.configure({ mode: 'serial' });
    let context: BrowserContext;
    let page: Page;
    let errors: string[];
    test.beforeAll(async ({ browser }) => {
      const user = await newVerifiedUser(browser, 'phone');
      ({ context, page } = user);
      errors = user.watch.errors;
      await page.setViewportSize(PHONE);
    });
    test.afterAll(async () => {
      await context?.close();
    });
    for (const def of pagesFor('user')) {
      test(`${def.path} (user)`, async ({ baseURL }) => {
        await checkPage(page, def, baseURL!, true);
        expect(errors, 'console errors').toEqual([]);
      });
    }
  });

  test('the product page offers its buy action without scrolling', async ({ page }) => {
    await page.goto(`/shop/${await starterPackId(page)}`);
    const bar = page.getByRole('region', { name: `Buy ${PACK}` });
    await expect(bar.getByRole('link', { name: 'Sign in to buy' })).toBeInViewport();
    // The bar steps aside once the panel's own action is on screen, and the page ends below it.
    await page.locator('#buy-quantity').scrollIntoViewIfNeeded();
    await expect(bar).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.getByRole('navigation', { name: 'Footer' })).toBeInViewport();
  });

  test('the vault starts with cards above the fold; its filters are in a sheet', async ({ browser }) => {
    const { context, page, watch } = await newPageAs(browser, 'user');
    await page.setViewportSize(PHONE);
    await page.goto('/collect');
    const firstCard = page.getByRole('list', { name: 'Your cards' }).getByRole('listitem').first();
    await expect(firstCard).toBeVisible();
    const box = await firstCard.boundingBox();
    expect(box && box.y < PHONE.height, 'the first card starts above the fold').toBe(true);
    await expect(page.getByRole('search', { name: 'Filter your cards' })).toBeHidden();
    await page.getByRole('button', { name: /^Filters/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Your vault' });
    await sheet.getByLabel('Sort by').selectOption('name');
    await sheet.getByRole('button', { name: /^Show \d+ cards?$/ }).click();
    await expect(sheet).toBeHidden();
    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(filters).toContainText('1');
    await expect(filters).toBeFocused();
    // Again by keyboard (the sheet's code is loaded now): the choice is kept, Escape returns focus.
    await page.keyboard.press('Enter');
    await expect(sheet.getByLabel('Sort by')).toHaveValue('name');
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expect(filters).toBeFocused();
    await context.close();
    expect(watch.errors, 'console errors').toEqual([]);
  });
});
