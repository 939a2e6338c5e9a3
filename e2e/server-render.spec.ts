import { authFile } from './accounts.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 40.2: a visitor's public pages come drawn by the server (docs/decisions/0027). With
 * JavaScript off they still show their content and working links; with it on they hydrate
 * without a warning (any console error fails the fixture), and unknown ids answer 404.
 */

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function firstProduct(baseURL: string) {
  const res = await fetch(`${baseURL}/api/shop/products`);
  const body = (await res.json()) as { items: Array<{ id: string; name: string }> };
  return body.items[0]!;
}

async function firstDrop(baseURL: string) {
  const res = await fetch(`${baseURL}/api/drops`);
  const body = (await res.json()) as { items?: Array<{ id: string }> };
  return body.items?.[0]?.id;
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('every public page shows its content', async ({ page, baseURL }) => {
    const product = await firstProduct(baseURL!);
    const drop = await firstDrop(baseURL!);
    const pages: Array<[string, RegExp]> = [
      ['/', /Open packs\./],
      ['/shop', new RegExp(product.name)],
      [`/shop/${product.id}`, /Odds/i],
      ['/cards', /Cards/],
      ['/top-pulls', /Top pulls/i],
      ['/fairness', /fair/i],
      ['/daily-drop-winners', /Daily drops/],
      ['/about', /About/i],
      ...(drop ? [[`/daily-drop/${drop}`, /drop/i] as [string, RegExp]] : []),
    ];
    for (const [path, text] of pages) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
      await expect(page.locator('main'), path).toContainText(text);
      // The page's data travels with it, for the browser to hydrate from.
      expect(await page.locator('#pv-ssr').count(), path).toBe(1);
    }
  });

  test('prices and odds are in the HTML, and links work', async ({ page, baseURL }) => {
    const product = await firstProduct(baseURL!);
    await page.goto('/shop');
    await expect(page.locator('main')).toContainText('$');
    await page.getByRole('link', { name: new RegExp(product.name) }).first().click();
    await expect(page).toHaveURL(new RegExp(`/shop/${product.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(product.name);
    await expect(page.locator('main')).toContainText('%');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cards' }).click();
    await expect(page).toHaveURL(/\/cards$/);
    await expect(page.locator('main li').first()).toBeVisible();
  });
});

test.describe('a user’s own pages, with JavaScript off', () => {
  test.use({ javaScriptEnabled: false, storageState: authFile('user') });

  test('the vault, open pack and home come drawn for them, and are kept by no cache', async ({ page }) => {
    const pages: Array<[string, RegExp]> = [
      ['/collect', /My vault/],
      ['/open-pack', /Open a pack|Your packs/i],
      ['/home', /Welcome/],
    ];
    for (const [path, text] of pages) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      expect(res?.headers()['cache-control'], path).toBe('private, no-store');
      await expect(page.locator('main'), path).toContainText(text);
      // Their header, not a visitor's: no sign-in link.
      await expect(page.getByRole('link', { name: /^Sign in$/ }), path).toHaveCount(0);
      expect(await page.locator('#pv-ssr').count(), path).toBe(1);
    }
  });
});

test('unknown and malformed ids answer the not-found page with 404', async ({ request }) => {
  for (const path of [`/shop/${UNKNOWN}`, '/shop/not-a-product', `/daily-drop/${UNKNOWN}`, '/invite/NO-SUCH-CODE-1', '/no-such-page']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(await res.text(), path).toContain('<h1');
  }
});

test('a signed-in visit gets the page drawn by the browser, not a visitor’s HTML', async ({ userPage }) => {
  const res = await userPage.goto('/shop');
  expect(res?.status()).toBe(200);
  expect(await (await res!.text()).includes('id="pv-ssr"')).toBe(false);
  await expect(userPage.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a user’s drawn page hydrates: the app takes over their vault without drawing it again', async ({ userPage }) => {
  for (const path of ['/open-pack', '/collect']) {
    await userPage.goto(path);
    const heading = userPage.getByRole('heading', { level: 1 });
    await expect(heading, path).toBeVisible();
    await heading.evaluate((el) => el.setAttribute('data-from-server', 'yes'));
    await userPage.waitForLoadState('networkidle');
    await expect(userPage.locator('h1[data-from-server="yes"]'), path).toHaveCount(1);
  }
  // Live: the header's links navigate in the app.
  await userPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Open pack' }).click();
  await expect(userPage).toHaveURL(/\/open-pack$/);
});

test('a drawn page hydrates: the app takes over without drawing it again', async ({ page }) => {
  await page.goto('/shop');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible();
  // The server's heading element is the one React kept (a client re-render would replace it).
  await heading.evaluate((el) => el.setAttribute('data-from-server', 'yes'));
  await page.waitForLoadState('networkidle');
  await expect(page.locator('h1[data-from-server="yes"]')).toHaveCount(1);
  // And it is live: a client-side navigation draws the next page without a document load.
  let documents = 0;
  page.on('request', (r) => {
    if (r.resourceType() === 'document') documents++;
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Top pulls' }).click();
  await expect(page).toHaveURL(/\/top-pulls$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Top pulls/i);
  expect(documents).toBe(0);
});

test('a drawn page starts its code only once its first screen is on the screen', async ({ page }) => {
  await page.goto('/cards');
  // The code has loaded and its first reads are done.
  await page.waitForLoadState('networkidle');
  const t = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    const entry = performance.getEntriesByType('resource').find((r) => /\/assets\/index-[^/]+\.js$/.test(r.name));
    const marked = document.querySelectorAll('img[elementtiming="first-screen"]').length;
    return { fcp, entryStart: entry?.startTime ?? Number.NaN, marked };
  });
  // The first row's images carry the mark the boot script waits for, and the entry script was
  // asked for after the browser presented the first contentful frame.
  expect(t.marked).toBeGreaterThan(0);
  expect(t.entryStart).toBeGreaterThanOrEqual(t.fcp);
  const painted = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        new PerformanceObserver((l) => resolve(l.getEntries().map((e) => (e as PerformanceEntry & { renderTime: number }).renderTime))).observe({
          type: 'element',
          buffered: true,
        });
        setTimeout(() => resolve([]), 2000);
      }),
  );
  expect(painted.length).toBeGreaterThan(0);
  for (const at of painted) expect(t.entryStart).toBeGreaterThanOrEqual(at);
});
