import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { authFile } from './accounts.ts';

interface ConsoleWatch {
  errors: string[];
  allowed: Array<string | RegExp>;
}
const watches = new WeakMap<Page, ConsoleWatch>();

/** Collects console errors and page errors; the fixtures fail the test on any not allowed. */
function watchConsole(page: Page, appRuns = true): ConsoleWatch {
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
  if (appRuns) waitForApp(page);
  return watch;
}

/**
 * A server-drawn page starts its code after its first paint, possibly after `load`
 * (server/http/boot-script.ts): a navigation of the suite's pages also waits until the app has its
 * root (web/main.tsx), so a test never clicks a page the app has not taken over yet. Not for a
 * navigation that asks for less than `load`, nor for an answer that is not the app (#root absent);
 * a page that moves on by itself meanwhile is the test's to follow.
 */
function waitForApp(page: Page) {
  const wait = async <T>(nav: Promise<T>, waitUntil: string | undefined): Promise<T> => {
    const res = await nav;
    if (waitUntil === 'commit' || waitUntil === 'domcontentloaded') return res;
    await page
      .waitForFunction(() => !document.getElementById('root') || document.documentElement.dataset.app === 'started', undefined, { timeout: 15_000 })
      .catch(() => {});
    return res;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = (url, options) => wait(goto(url, options), options?.waitUntil);
  page.reload = (options) => wait(reload(options), options?.waitUntil);
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
  page: async ({ page, javaScriptEnabled }, use) => {
    // With JavaScript off the app never starts: nothing to wait for.
    const watch = watchConsole(page, javaScriptEnabled !== false);
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
