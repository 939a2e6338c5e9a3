import type { Page, Response } from '@playwright/test';
import { USER } from './accounts.ts';
import { expect, newPageAs, test } from './fixtures.ts';

/**
 * Issue 19: signing out used to leave the signed-in page's queries mounted, which refetched as a
 * visitor (three 401s and console errors). Signs in through the API with a session of its own (so
 * the shared demo session stays valid), signs out from the account menu and watches the network.
 */

async function signIn(page: Page) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post('/api/auth/sign-in/email', { headers: { Origin: origin }, data: { email: USER.email, password: USER.password } });
  expect(res.ok(), await res.text()).toBe(true);
}

for (const path of ['/home', '/profile/billing', '/collect']) {
  test(`signing out on ${path} sends no request that fails with 401 and logs no console error`, async ({ browser }) => {
    const { context, page, watch } = await newPageAs(browser, null);
    const unauthorised: string[] = [];
    const onResponse = (r: Response) => {
      if (r.status() === 401) unauthorised.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    };
    try {
      await page.goto('/about');
      await signIn(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      page.on('response', onResponse);

      await page.getByRole('button', { name: /^Account menu for / }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await expect(page.getByText('You are signed out.', { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      // Whatever was about to refetch has had its chance.
      await page.waitForTimeout(1_000);

      expect(unauthorised, '401 responses after sign-out').toEqual([]);
      expect(watch.errors, 'console errors').toEqual([]);
    } finally {
      await context.close();
    }
  });
}
