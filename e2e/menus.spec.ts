import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * Issue 19: a menu item never leads to a placeholder. Collects every in-app link of the header,
 * footer, mobile menu, account menu, profile and admin navigation, as a visitor, a user and an
 * admin, and visits each: it must render a real page — a heading, not the not-found page, and no
 * "coming soon" text. A screen that is not built yet stays out of the menus until it is.
 */
const PLACEHOLDER = /coming soon|under construction|not (built|available|ready) yet|placeholder|lorem ipsum|todo\b/i;
const NOT_FOUND = /This page is not in the vault|Admin page not found/;

async function hrefs(page: Page, selector: string): Promise<string[]> {
  const all = await page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
  return all.filter((h) => h.startsWith('/') && !h.startsWith('/api/'));
}

async function expectRealPage(page: Page, path: string) {
  await page.goto(path);
  const h1 = page.getByRole('heading', { level: 1 }).first();
  await expect(h1, `${path} has a heading`).toBeVisible();
  await expect(h1, `${path} is not the not-found page`).not.toHaveText(NOT_FOUND);
  // A placeholder is static copy, there with the heading: no need to wait for data.
  const text = await page.locator('main').innerText();
  expect(text, `${path} is not a placeholder`).not.toMatch(PLACEHOLDER);
}

async function visitAll(page: Page, targets: Iterable<string>) {
  for (const path of new Set(targets)) await expectRealPage(page, path);
}

test('visitor: header, footer and mobile menu links lead to real pages', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('nav[aria-label="Footer"] a').first()).toBeAttached();
  const targets = [...(await hrefs(page, 'nav[aria-label="Main"] a')), ...(await hrefs(page, 'nav[aria-label="Footer"] a'))];
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  targets.push(...(await hrefs(page, '[role="dialog"] a')));
  expect(targets.length).toBeGreaterThan(5);
  await visitAll(page, targets);
});

test('user: account menu, mobile menu and profile navigation lead to real pages', async ({ userPage: page }) => {
  test.setTimeout(300_000);
  await page.goto('/profile/account');
  await expect(page.locator('nav[aria-label="Profile"] a').first()).toBeVisible();
  const targets = await hrefs(page, 'nav[aria-label="Profile"] a');
  // The account menu navigates on select (no hrefs): follow each item but sign-out.
  // The menu's code loads on this first press: wait for it to draw before reading its items.
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  const items = (await page.getByRole('menuitem').allInnerTexts()).map((t) => t.trim()).filter((t) => t && t !== 'Sign out');
  await page.keyboard.press('Escape');
  expect(items.length).toBeGreaterThan(2);
  for (const name of items) {
    await page.goto('/about');
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name }).click();
    await expect(page).not.toHaveURL(/\/about$/);
    targets.push(new URL(page.url()).pathname);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/home');
  await page.getByRole('button', { name: 'Open menu' }).click();
  targets.push(...(await hrefs(page, '[role="dialog"] a')));
  await visitAll(page, targets);
});

test('admin: every admin navigation link leads to a real page', async ({ adminPage: page }) => {
  test.setTimeout(300_000);
  await page.goto('/admin');
  await expect(page.locator('nav[aria-label="Admin"] a').first()).toBeAttached();
  const targets = await hrefs(page, 'nav[aria-label="Admin"] a');
  expect(targets.length).toBeGreaterThan(10);
  await visitAll(page, targets);
});

test('user: the account menu loads when first wanted, and opens by keyboard and by pointer', async ({ userPage: page }) => {
  const menuCode: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/account-menu-[\w-]{8}\.js$/.test(r.url())) menuCode.push(r.url());
  });
  await page.goto('/collect');
  const button = page.getByRole('button', { name: /^Account menu for / });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(menuCode, 'the page drew without the menu code').toEqual([]);

  // Enter on the stand-in button: the menu opens with its first item focused, Escape returns to the button.
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Home' })).toBeFocused();
  expect(menuCode).toHaveLength(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Now the Radix trigger itself: ArrowDown opens it too, and a pointer press outside closes it.
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Home' })).toBeFocused();
  await page.keyboard.press('Escape');
  await button.click();
  await expect(page.getByRole('menuitem', { name: 'My vault' })).toBeVisible();
  await page.mouse.click(5, 400);
  await expect(page.getByRole('menu')).toBeHidden();

  // A fresh page, opened by pointer on the first press.
  await page.goto('/home');
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'My vault' }).click();
  await expect(page).toHaveURL(/\/collect$/);
});
