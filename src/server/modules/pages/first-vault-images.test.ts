import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUrl, lookFromRefs } from '../../../shared/contracts/catalog-look.ts';
import type { CollectionPage } from '../../../shared/contracts/collection.ts';
import type { AppEnv } from '../../http/types.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { spaRoutes } from './spa.ts';

let t: MoneyTestContext;
let dist: string;
beforeAll(async () => {
  t = await moneyTestContext();
  dist = mkdtempSync(path.join(tmpdir(), 'pv-spa-vault-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Packvault</title></head><body><div id="root"></div></body></html>');
});
afterAll(async () => {
  rmSync(dist, { recursive: true, force: true });
  await t.close();
});

/** The page server as it runs behind the actor middleware, for this user (or a visitor). */
const page = async (userId: string | null, p = '/collect') => {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    if (userId) c.set('actor', { userId, role: 'user', emailVerified: true, mfaPassed: false, sessionId: 's1', username: 'dana' });
    await next();
  });
  app.route('/', spaRoutes(t.deps, dist));
  const res = await app.request(p);
  expect(res.status).toBe(200);
  return res.text();
};
const imagePreloads = (html: string) => [...html.matchAll(/<link rel="preload" as="image" fetchpriority="high" href="([^"]+)">/g)].map((m) => m[1]);

describe('/collect names the first vault cards’ images in the HTML', () => {
  it('preloads the art and frame of the first cards the vault will draw: this user’s, in the vault, newest first', async () => {
    const me = await t.makeUser();
    const other = await t.makeUser();
    const cls = await makeClass(t);
    const [oldest, sold, newest, next] = await Promise.all([1, 2, 3, 4].map((v) => makeCard(t, { classId: cls.id, valueCents: v * 100 })));
    const [o1] = await giveCards(t, me, oldest!.id);
    const [s1] = await giveCards(t, me, sold!.id);
    await giveCards(t, me, next!.id);
    await giveCards(t, me, newest!.id);
    await giveCards(t, other, oldest!.id);
    await t.deps.dbh.query(sql`update owned_cards set acquired_at = now() - interval '1 day' where id = ${o1}`);
    await t.deps.dbh.query(sql`update owned_cards set status = 'sold_back', acquired_at = now() + interval '1 day' where id = ${s1}`);

    // Exactly what the vault's first request returns, drawn the way the grid draws it.
    const res = await t.as(me).get('/api/collection?status=in_vault&sort=acquired_desc&page=1&pageSize=24');
    const vault = (await res.json()) as CollectionPage;
    const expected = new Set<string>();
    for (const item of vault.items.slice(0, 2)) {
      const look = lookFromRefs(item.card, vault.refs);
      expected.add(imageUrl(look.frameImageKey!, 'thumb'));
      expected.add(imageUrl(look.imageKey!, 'thumb'));
    }
    expect(vault.items.map((i) => i.card.id).slice(0, 2)).toEqual([newest!.id, next!.id]);
    const links = imagePreloads(await page(me));
    expect(links).toEqual([...expected]);
    expect(links.length).toBeGreaterThan(0);
  });

  it('names none for an empty vault, another tab, a visitor or another page', async () => {
    const empty = await t.makeUser();
    expect(imagePreloads(await page(empty))).toEqual([]);
    const owner = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 500 });
    await giveCards(t, owner, card.id);
    expect(imagePreloads(await page(owner))).toHaveLength(1);
    expect(imagePreloads(await page(owner, '/collect?tab=sets'))).toEqual([]);
    expect(imagePreloads(await page(null))).toEqual([]);
    expect(imagePreloads(await page(owner, '/open-pack'))).toEqual([]);
  });
});
