import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import { as, catalogTestContext, uploadImage } from '../catalog/test-support.ts';
import { spaRoutes } from './spa.ts';

let t: Awaited<ReturnType<typeof catalogTestContext>>;
let dist: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  t = await catalogTestContext();
  const admin = as(t, 'admin');
  for (const [name, colour] of [['frame', '#222233'], ['top', '#ff00aa'], ['second', '#00ffaa'], ['third', '#aa00ff']] as const) {
    keys[name] = await uploadImage(t, colour);
  }
  const cls = (await (await admin.post('/api/admin/catalog/classes', { name: 'Rare', colour: '#A855F7', sortOrder: 1 })).json()).class as { id: string };
  const arch = (await (await admin.post('/api/admin/catalog/architects', { name: 'Frame', frameImageKey: keys.frame, layout: DEFAULT_LAYOUT })).json())
    .architect as { id: string };
  // Sorted by value, high to low (the list's default): top, second, third.
  for (const [n, [name, value]] of ([['top', 9000], ['second', 5000], ['third', 1000]] as const).entries()) {
    const res = await admin.post('/api/admin/catalog/cards', {
      name: `Card ${name}`, setName: 'Alpha', number: n + 1, classId: cls.id, architectId: arch.id, imageKey: keys[name], valueCents: value, stock: 3,
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  dist = mkdtempSync(path.join(tmpdir(), 'pv-spa-cards-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Packvault</title></head><body><div id="root"></div></body></html>');
});
afterAll(async () => {
  rmSync(dist, { recursive: true, force: true });
  await t.close();
});

const imagePreloads = (html: string) => [...html.matchAll(/<link rel="preload" as="image" fetchpriority="high" href="([^"]+)">/g)].map((m) => m[1]);

describe('/cards names its first cards’ images in the HTML', () => {
  it('preloads the frame and the art of the first row of the list the app will ask for', async () => {
    const html = await (await spaRoutes(t.deps, dist).request('/cards')).text();
    expect(imagePreloads(html)).toEqual([
      `/api/uploads/${keys.frame}-thumb.webp`,
      `/api/uploads/${keys.top}-thumb.webp`,
      `/api/uploads/${keys.second}-thumb.webp`,
    ]);
  });

  it('follows the filters in the address, and names nothing for a list that is empty or invalid', async () => {
    const cheapest = await (await spaRoutes(t.deps, dist).request('/cards?sort=value_asc')).text();
    expect(imagePreloads(cheapest).slice(1)).toEqual([`/api/uploads/${keys.third}-thumb.webp`, `/api/uploads/${keys.second}-thumb.webp`]);
    expect(imagePreloads(await (await spaRoutes(t.deps, dist).request('/cards?q=nothing-like-this')).text())).toEqual([]);
    const bad = await spaRoutes(t.deps, dist).request('/cards?classId=not-an-id');
    expect(bad.status).toBe(200);
    expect(imagePreloads(await bad.text())).toEqual([]);
    // Other pages read nothing for it.
    expect(imagePreloads(await (await spaRoutes(t.deps, dist).request('/shop')).text())).toEqual([]);
  });
});
