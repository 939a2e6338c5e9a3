import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ROUTE_LIST, fillPath } from '../src/shared/routes.ts';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';

/**
 * Visits every route of the route table as a visitor, a user and an admin, and fails on a console
 * error, a page error, a 5xx, a page without a heading, or a serious/critical axe violation.
 */
const ROLES = [null, 'user', 'admin'] as const;
const PARAMS = { id: '00000000-0000-0000-0000-000000000000', referralCode: 'DEMO' };
const CATCH_ALL_SAMPLES: Record<string, string> = { '/$': '/no-such-page', '/admin/$': '/admin/no-such-page' };

async function checkPage(page: Page, path: string) {
  const serverErrors: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 500) serverErrors.push(`${res.status()} ${res.url()}`);
  });
  // A detail page for an id that does not exist is allowed its 404 API answer.
  allowConsoleError(page, /Failed to load resource: the server responded with a status of 4\d\d/);
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(bad, `axe violations on ${path}`).toEqual([]);
  expect(serverErrors, `5xx on ${path}`).toEqual([]);
}

for (const role of ROLES) {
  test.describe(`crawl as ${role ?? 'visitor'}`, () => {
    test.describe.configure({ mode: 'parallel' });
    for (const route of ROUTE_LIST) {
      const path = route.notFound ? CATCH_ALL_SAMPLES[route.path]! : fillPath(route.path, PARAMS);
      test(`${path}`, async ({ browser }) => {
        const { context, page, watch } = await newPageAs(browser, role);
        try {
          await checkPage(page, path);
          expect(watch.errors, `console errors on ${path}`).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  });
}
