import sharp from 'sharp';
import { allowConsoleError, expect, newPageAs, test } from './fixtures.ts';
import { expectAccessible, newVerifiedUser, sandboxDeposit } from './support.ts';

/**
 * Share a pull (issue 19 item 2): open a pack, share a card from the results (no share sheet
 * here, so the link is copied), then open that link signed out: the pull's public page, its
 * link-preview tags and its 1200×630 preview image.
 */
test('share a pull from the reveal and open its public page signed out', async ({ browser }) => {
  // Sign-up, a purchase, the reveal, a second browser and axe: well past a minute on a busy CI.
  test.setTimeout(240_000);
  const me = await newVerifiedUser(browser, 'share');
  const { page } = me;
  try {
    // Desktop Chromium may or may not have a share sheet: take it away, and catch what is copied.
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: async (text: string) => void ((window as unknown as { __copied: string }).__copied = text) },
        configurable: true,
      });
    });
    await sandboxDeposit(page, 5_000);
    const products = (await (await page.request.get('/api/shop/products')).json()) as { items: Array<{ id: string; name: string }> };
    const starter = products.items.find((p) => p.name === 'Starter Pack')!;
    await page.goto(`/shop/${starter.id}`);
    const opened = page.waitForResponse((r) => r.url().endsWith('/api/shop/open') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Buy and open' }).click();
    const res = await opened;
    expect(res.status()).toBe(201);
    const { openings } = (await res.json()) as {
      openings: Array<{ id: string; productName: string; cards: Array<{ ownedCardId: string; name: string; valueCents: number }> }>;
    };
    const card = openings[0]!.cards[0]!;
    await page.getByRole('button', { name: 'Skip to results' }).click();
    const results = page.getByRole('region', { name: /Your pack: \d+ cards?/ });
    await expect(results).toBeVisible();

    await results.getByRole('button', { name: `Share ${card.name}` }).first().click();
    await expect(results.getByRole('button', { name: 'Link copied' })).toBeVisible();
    await expect(results.getByRole('status').filter({ hasText: 'Link copied to the clipboard.' })).toBeAttached();
    const link = await page.evaluate(() => (window as unknown as { __copied?: string }).__copied);
    // The link carries the sharer's referral code (issue 41): a friend who signs up from it is theirs.
    const { referralCode } = ((await (await page.request.get('/api/me')).json()) as { user: { referralCode: string } }).user;
    expect(referralCode).toBeTruthy();
    expect(link).toBe(new URL(`/pulls/${card.ownedCardId}?ref=${referralCode}`, page.url()).toString());

    // Signed out, anyone can open it.
    const visitor = await newPageAs(browser, null);
    try {
      const v = visitor.page;
      await v.goto(link!);
      await expect(v.getByRole('heading', { level: 1, name: `${me.username} pulled ${card.name}` })).toBeVisible({ timeout: 30_000 });
      const article = v.getByTestId('shared-pull');
      await expect(article.getByText(openings[0]!.productName).first()).toBeVisible();
      await expect(article.getByRole('img', { name: new RegExp(`^${card.name},`) }).first()).toBeVisible();
      await expect(v.getByRole('link', { name: 'Verify this opening' })).toHaveAttribute('href', `/fairness?opening=${openings[0]!.id}`);
      await expect(v.getByRole('button', { name: 'Share' })).toBeVisible();
      await expect(v.getByText(me.email)).toHaveCount(0);
      await expectAccessible(v, 'a shared pull, signed out');

      // What a link preview reads: the tags in the HTML itself, and the image they point at.
      const html = await (await v.request.get(link!)).text();
      const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
      expect(image).toMatch(new RegExp(`/api/pulls/${card.ownedCardId}/og\\.png$`));
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
      expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(html).toMatch(/<meta property="og:description" content="[^"]+"/);
      const og = await v.request.get(`/api/pulls/${card.ownedCardId}/og.png`);
      expect(og.status()).toBe(200);
      expect(og.headers()['content-type']).toBe('image/png');
      const meta = await sharp(await og.body()).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);

      // An unknown pull is a 404 page (the document and the API call both answer 404).
      allowConsoleError(v, /Failed to load resource: the server responded with a status of 404/);
      const missing = await v.goto('/pulls/00000000-0000-4000-8000-000000000000');
      expect(missing?.status()).toBe(404);
      await expect(v.getByRole('heading', { level: 1, name: 'This pull is not in the vault' })).toBeVisible();
      expect(visitor.watch.errors, 'console errors (visitor)').toEqual([]);
    } finally {
      await visitor.context.close();
    }
    expect(me.watch.errors, 'console errors').toEqual([]);
  } finally {
    await me.context.close();
  }
});
