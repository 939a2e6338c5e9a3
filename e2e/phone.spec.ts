import { request, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { ROUTE_LIST, fillPath, type RouteDef } from '../src/shared/routes.ts';
import { ADMIN, authFile } from './accounts.ts';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';
import { USERNAME_MAX } from '../src/shared/contracts/account-rules.ts';
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
 * The signed-in pages' user has the longest names an account can have, in the widest letters and
 * with no place to wrap: a username of USERNAME_MAX (40) characters and a 60-character address.
 * Each run's database is fresh, so the names are fixed and the screenshots show them unmasked.
 */
const LONG_USERNAME = 'W'.repeat(USERNAME_MAX);
const LONG_EMAIL = `${'w'.repeat(45)}@packvault.test`;
const LONG_PASSWORD = 'phone-long-names-1';

/**
 * Masked on every page: clocks, and pack and card art (5:7 boxes), whose colours are seeded by
 * ids that each run's fresh database makes anew.
 */
const ALWAYS_MASKED = ['time', '[class*="aspect-[5/7]"]'];
/** Per page: other users' activity, drops (their state follows the clock), per-user names and codes. */
// What the rest of the suite changes while this spec runs beside it: the lists of pulls, products,
// cards and drops other specs create, and the footer's live figures. The page around them (headings,
// text, controls, the layout's fit) is compared.
const SHARED_ACTIVITY = ['main ul', 'main ol', 'footer'];
const MASKED: Partial<Record<string, string[]>> = {
  '/': SHARED_ACTIVITY,
  '/shop': SHARED_ACTIVITY,
  '/shop/$id': SHARED_ACTIVITY,
  '/cards': SHARED_ACTIVITY,
  '/top-pulls': SHARED_ACTIVITY,
  '/home': SHARED_ACTIVITY,
  '/daily-drop-winners': SHARED_ACTIVITY,
  '/daily-drop/$id': SHARED_ACTIVITY,
  // Other specs list and sell cards while this one runs: the results (count, tiles, pages) are a
  // fixed block below (VARIABLE_BLOCK).
  '/market': SHARED_ACTIVITY,
  // The pull is a fresh user's random card: what names it (card, user, values) is masked.
  '/pulls/$id': [...SHARED_ACTIVITY, 'main .pv-card', 'main h1', 'main h1 + p', 'main dd'],
  '/invite/$referralCode': ['main h1', 'main strong'],
  // Odds revisions and returns follow the products and openings the rest of the suite makes.
  '/fairness/returns': SHARED_ACTIVITY,
  '/fairness/products/$id': [...SHARED_ACTIVITY, 'main dd', 'main table'],
  // The fresh user's own code, as text and as a QR code.
  '/profile/referral': ['main input', 'main code', 'main dd', 'main .font-mono', 'main svg[role="img"]'],
  '/profile/privacy-and-security': ['main dd'],
  '/register-mfa': ['main img', 'main canvas', 'main code', 'main input[readonly]'],
};
/**
 * Pages whose shared lists grow while the suite runs (other specs add drops): each list is drawn
 * at one fixed height for the screenshot, so what comes below it stays in place. Its contents are
 * masked anyway; the sideways-scroll check runs before, on the page as it is.
 */
const VARIABLE_LENGTH = new Set(['/daily-drop-winners']);
/**
 * Pages with a block whose length follows the suite's data (rows per product and revision, and a
 * line that says whether the rollup has run yet): the block is drawn empty at one fixed height and
 * masked. The sideways-scroll check runs before, on the page as it is.
 */
const VARIABLE_BLOCK: Partial<Record<string, string>> = {
  '/fairness/returns': 'main div:has(> [role="region"] > table)',
  // The list of pulls, or "No pulls in this period yet" until another spec's opening makes one.
  '/top-pulls': 'main [role="tabpanel"]',
  // Listings, an empty state or a page count, as the other specs list and sell cards.
  '/market': 'main section',
};
/**
 * Masked text whose length follows random data (a pulled card's name): drawn at a fixed height, so
 * a name that wraps once more does not push what comes below it down.
 */
const FIXED_HEIGHT: Partial<Record<string, string>> = {
  '/pulls/$id': 'main h1 { height: 4.5rem } main h1 + p { height: 3.5rem } main dd { height: 1.5rem }',
};
/** Pages whose sample (an id that does not exist) answers 404 on purpose. */
const EXPECTS_404 = new Set(['/$', '/checkout/$id', '/market/$id']);

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
  if (def.path === '/fairness/products/$id') return fillPath(def.path, { id: await starterPackId(page) });
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

/** The href of the first link on `listPath` whose path matches `re`, or null. */
async function firstLink(page: Page, listPath: string, re: RegExp): Promise<string | null> {
  await page.goto(listPath);
  await settle(page);
  const hrefs = await page.locator('main a[href]').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return hrefs.find((h) => re.test(h)) ?? null;
}

/** An admin page's path with a real id where its list has one (`/admin/users/$id/balance` → the first user's). */
async function adminSamplePath(page: Page, path: string): Promise<string> {
  const at = path.indexOf('/$id');
  if (at < 0) return path;
  const [base, rest] = [path.slice(0, at), path.slice(at + '/$id'.length)];
  const detail = new RegExp(`^${base}/(?!${UNKNOWN_ID})[0-9a-f-]{36}$`);
  // Packs have no list of their own: a product's page links to its packs.
  const found =
    base === '/admin/packs'
      ? await firstLink(page, (await firstLink(page, '/admin/products', /^\/admin\/products\/[0-9a-f-]{36}$/)) ?? '/admin/products', detail)
      : await firstLink(page, base, detail);
  return `${found ?? `${base}/${UNKNOWN_ID}`}${rest}`;
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

/** Fails, naming what sticks out, when the page scrolls sideways at the phone's width. */
async function expectNoSidewaysScroll(page: Page, path: string) {
  const { width, wide } = await page.evaluate((limit) => {
    // What sticks out, so a failure names the element rather than only the width.
    // The innermost ones (what pushes the rest out), and none inside a box that scrolls or clips them.
    const clips = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > limit + 0.5;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => {
        if (!sticksOut(el) || (!clips(el) && [...el.children].some(sticksOut))) return false;
        // An absolutely placed box escapes a scroller that is not its containing block.
        if (['absolute', 'fixed'].includes(getComputedStyle(el).position)) return true;
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (clips(p)) return false;
        return true;
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 80)} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { width: document.documentElement.scrollWidth, wide };
  }, PHONE.width);
  expect(width, `${path} scrolls sideways at 390 px: ${wide.join('; ')}`).toBeLessThanOrEqual(PHONE.width);
}

async function checkPage(page: Page, def: RouteDef, baseURL: string) {
  const path = await samplePath(page, def, baseURL);
  if (EXPECTS_404.has(def.path)) allowConsoleError(page, 'status of 404');
  await page.goto(path);
  await settle(page);
  await expectNoSidewaysScroll(page, path);
  if (VARIABLE_LENGTH.has(def.path)) await page.addStyleTag({ content: 'main ul, main ol { height: 280px !important; overflow: hidden !important; } main :is(ul, ol) :is(ul, ol) { display: none !important; }' });
  const fixed = FIXED_HEIGHT[def.path];
  if (fixed) await page.addStyleTag({ content: `${fixed.replaceAll('}', '; overflow: hidden }')}` });
  const block = VARIABLE_BLOCK[def.path];
  // Its contents are not drawn at all, so no mask of something inside it lands outside the block.
  if (block) await page.addStyleTag({ content: `${block} { height: 360px !important; } ${block} > * { display: none !important; }` });
  const mask: Locator[] = [...ALWAYS_MASKED, ...(MASKED[def.path] ?? []), ...(block ? [block] : [])].map((s) => page.locator(s));
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
      await checkPage(page, def, baseURL!);
    });
  }

  // Not serial, so one page's failure does not hide the others': a worker that starts after a
  // failure signs the same user in again.
  test.describe('signed in', () => {
    let context: BrowserContext;
    let page: Page;
    let errors: string[];
    test.beforeAll(async ({ browser }) => {
      expect(LONG_EMAIL).toHaveLength(60);
      const again = await newPageAs(browser, null);
      await again.page.goto('/about');
      const signIn = await again.page.request.post('/api/auth/sign-in/email', {
        headers: { Origin: new URL(again.page.url()).origin },
        data: { email: LONG_EMAIL, password: LONG_PASSWORD },
      });
      if (signIn.ok()) {
        ({ context, page } = again);
        errors = again.watch.errors;
      } else {
        await again.context.close();
        const user = await newVerifiedUser(browser, 'phone', { username: LONG_USERNAME, email: LONG_EMAIL, password: LONG_PASSWORD });
        ({ context, page } = user);
        errors = user.watch.errors;
      }
      await page.setViewportSize(PHONE);
    });
    test.afterAll(async () => {
      await context?.close();
    });
    for (const def of pagesFor('user')) {
      test(`${def.path} (user)`, async ({ baseURL }) => {
        await checkPage(page, def, baseURL!);
        expect(errors, 'console errors').toEqual([]);
      });
    }
  });

  /**
   * The admin pages (the owner's too) are checked for fit only: the whole suite edits the catalog,
   * products and users they list. A detail page is reached through the first link of its list, as
   * an admin would; one whose list is empty in this run is shown for an id that does not exist.
   */
  test.describe('as the admin', () => {
    let context: BrowserContext;
    let page: Page;
    let errors: string[];
    test.beforeAll(async ({ browser }) => {
      const admin = await newPageAs(browser, 'admin');
      ({ context, page } = admin);
      errors = admin.watch.errors;
      await page.setViewportSize(PHONE);
    });
    test.afterAll(async () => {
      await context?.close();
    });
    for (const def of [...pagesFor('admin'), ...pagesFor('owner')]) {
      test(`${def.path} (admin)`, async () => {
        const path = def.notFound ? '/admin/no-such-page' : await adminSamplePath(page, def.path);
        if (def.notFound || path.includes(UNKNOWN_ID)) allowConsoleError(page, 'status of 404');
        await page.goto(path);
        await settle(page);
        await expectNoSidewaysScroll(page, path);
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

  test("a vault card's details fit the phone: the card and its proof inside the dialog", async ({ browser }) => {
    const { context, page, watch } = await newPageAs(browser, 'user');
    await page.setViewportSize(PHONE);
    await page.goto('/collect');
    await page.getByRole('list', { name: 'Your cards' }).getByRole('button', { name: /: details$/ }).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Market value now')).toBeVisible();
    const fit = await dialog.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(fit.scroll, 'the dialog scrolls sideways').toBeLessThanOrEqual(fit.client);
    const box = (await dialog.boundingBox())!;
    for (const inside of [dialog.getByRole('img').first(), dialog.getByText('Market value now')]) {
      const b = (await inside.boundingBox())!;
      expect(b.x + b.width, 'inside the dialog').toBeLessThanOrEqual(box.x + box.width);
    }
    await context.close();
    expect(watch.errors, 'console errors').toEqual([]);
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
