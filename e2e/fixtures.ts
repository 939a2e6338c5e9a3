import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { authFile } from './accounts.ts';

interface ConsoleWatch {
  errors: string[];
  allowed: Array<string | RegExp>;
}
const watches = new WeakMap<Page, ConsoleWatch>();

/** Collects console errors and page errors; the fixtures fail the test on any not allowed. */
function watchConsole(page: Page): ConsoleWatch {
  const watch: ConsoleWatch = { errors: [], allowed: [] };
  const isAllowed = (text: string) =>
    watch.allowed.some((a) => (typeof a === 'string' ? text.includes(a) : a.test(text)));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !isAllowed(msg.text())) watch.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => {
    if (!isAllowed(err.message)) watch.errors.push(`pageerror: ${err.message}`);
  });
  watches.set(page, watch);
  return watch;
}

/** Declares a console error this test expects (substring or regex). */
export function allowConsoleError(page: Page, pattern: string | RegExp) {
  watches.get(page)?.allowed.push(pattern);
}

/** A fresh browser context signed in as the demo user or admin (or anonymous with null). */
export async function newPageAs(browser: Browser, who: 'user' | 'admin' | null) {
  const context = await browser.newContext(who ? { storageState: authFile(who) } : {});
  const page = await context.newPage();
  return { context, page, watch: watchConsole(page) };
}

type Fixtures = { userPage: Page; adminPage: Page };

export const test = base.extend<Fixtures>({
  page: async ({ page }, use) => {
    const watch = watchConsole(page);
    await use(page);
    expect(watch.errors, 'console errors').toEqual([]);
  },
  userPage: async ({ browser }, use) => {
    const { context, page, watch } = await newPageAs(browser, 'user');
    await use(page);
    await context.close();
    expect(watch.errors, 'console errors (user)').toEqual([]);
  },
  adminPage: async ({ browser }, use) => {
    const { context, page, watch } = await newPageAs(browser, 'admin');
    await use(page);
    await context.close();
    expect(watch.errors, 'console errors (admin)').toEqual([]);
  },
});

export { expect };
