import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, newPageAs } from './fixtures.ts';

/** Helpers the specs share: unique names, the dev mailbox, fresh verified users, axe. */

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The newest link matching `pattern` in mail to `to` (the dev mailbox; mail is sent after commit). */
export async function latestMailLink(request: APIRequestContext, to: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const res = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(to)}`);
    const { items } = (await res.json()) as { items: Array<{ links: string[] }> };
    const link = items.flatMap((m) => m.links).find((l) => pattern.test(l));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail with ${pattern} for ${to}`);
}

/**
 * A client address of its own (198.18.0.0/15, the range set aside for tests): sign-up is limited
 * per address per hour, and the suite makes more users than one address may.
 */
function testClientAddress(): string {
  const n = Math.floor(Math.random() * 2 ** 17);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * A user of the test's own, signed up and verified through the mailed link (and so signed in):
 * other specs move the demo user's balance and cards at any moment.
 */
export async function newVerifiedUser(
  browser: Browser,
  prefix: string,
  names: { username?: string; email?: string; password?: string } = {},
) {
  const { context, page, watch } = await newPageAs(browser, null);
  await page.goto('/about');
  const id = unique();
  const email = names.email ?? `${prefix}-${id}@packvault.test`;
  const password = names.password ?? `${prefix}-pass-${id}`;
  const username = names.username ?? `${prefix.slice(0, 1)}_${id}`.slice(0, 20);
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    headers: { Origin: new URL(page.url()).origin, 'X-Forwarded-For': testClientAddress() },
    data: { email, password, name: username, username, ageConfirmed: true, termsAccepted: true },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  await page.goto(await latestMailLink(page.request, email, /verify/));
  await expect(page).toHaveURL(/\/home/);
  return { context, page, watch, email, password, username };
}

/** Axe with every rule set we hold pages to; `where` names the state in the failure. */
export async function expectAccessible(page: Page, where: string) {
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'])
    .analyze();
  const bad = axe.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(bad, `axe violations: ${where}`).toEqual([]);
}

/** Credits the signed-in user through the test-mode (sandbox) checkout, as a user would. */
export async function sandboxDeposit(page: Page, amountCents: number) {
  const headers = { Origin: new URL(page.url()).origin };
  const start = await page.request.post('/api/wallet/deposits', {
    data: { amountCents },
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(start.status(), await start.text()).toBe(201);
  const { deposit } = (await start.json()) as { deposit: { id: string } };
  const pay = await page.request.post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(pay.status(), await pay.text()).toBe(200);
}

/** A seeded product of the shop by name. */
export async function shopProduct(page: Page, name: string): Promise<{ id: string; name: string; priceCents: number; soldOut: boolean }> {
  const res = await page.request.get('/api/shop/products');
  expect(res.ok()).toBe(true);
  const { items } = (await res.json()) as { items: Array<{ id: string; name: string; priceCents: number; soldOut: boolean }> };
  const found = items.find((p) => p.name === name);
  expect(found, `seeded product "${name}"`).toBeTruthy();
  return found!;
}
