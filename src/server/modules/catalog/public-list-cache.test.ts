import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, publicCardListQuerySchema } from '../../../shared/contracts/catalog.ts';
import { cards } from '../../db/schema/catalog.ts';
import { ResponseCache, acceptsGzip, etagMatches } from './response-cache.ts';
import { listPublicCards, publicCardListKey } from './public.ts';
import { as, catalogTestContext, uploadImage } from './test-support.ts';

const json = (s: string) => JSON.parse(s) as unknown;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('ResponseCache', () => {
  const make = (over: Partial<ConstructorParameters<typeof ResponseCache>[0]> = {}) => {
    let now = 1_000;
    const cache = new ResponseCache({ ttlMs: 10_000, maxEntries: 3, maxBytes: 1_000, now: () => now, ...over });
    return { cache, tick: (ms: number) => (now += ms) };
  };

  it('loads once per key until the TTL runs out', async () => {
    const { cache, tick } = make();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(text((await cache.get('a', load)).body)).toBe('{"n":1}');
    tick(9_999);
    expect(text((await cache.get('a', load)).body)).toBe('{"n":1}');
    tick(1);
    expect(text((await cache.get('a', load)).body)).toBe('{"n":2}');
    expect(loads).toBe(2);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const { cache } = make();
    const loads: string[] = [];
    const get = (k: string) => cache.get(k, async () => (loads.push(k), { k }));
    for (const k of ['a', 'b', 'c']) await get(k);
    await get('a'); // a is now the most recent; b is the oldest
    await get('d');
    expect(cache.size).toBe(3);
    loads.length = 0;
    for (const k of ['a', 'c', 'd']) await get(k);
    expect(loads).toEqual([]);
    await get('b');
    expect(loads).toEqual(['b']);
  });

  it('keeps at most maxBytes, and never stores a body larger than that', async () => {
    const { cache } = make({ maxEntries: 100, maxBytes: 250 });
    const big = (k: string) => cache.get(k, async () => ({ k, pad: 'x'.repeat(80) }));
    for (let i = 0; i < 10; i++) await big(`k${i}`);
    expect(cache.bytes).toBeLessThanOrEqual(250);
    expect(cache.size).toBe(2);
    await cache.get('huge', async () => 'y'.repeat(300));
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBeLessThanOrEqual(250);
  });

  it('runs one load for concurrent misses on a key (single flight)', async () => {
    const { cache } = make();
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      loads++;
      await gate;
      return { ok: true };
    };
    const all = Promise.all(Array.from({ length: 20 }, () => cache.get('k', load)));
    release();
    const got = await all;
    expect(loads).toBe(1);
    expect(new Set(got.map((g) => g.etag)).size).toBe(1);
  });

  it('does not keep a load that started before clear(), nor let later requests join it', async () => {
    const { cache } = make();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stale = cache.get('k', async () => (await gate, { v: 'old' }));
    cache.clear();
    const fresh = cache.get('k', async () => ({ v: 'new' }));
    release();
    expect(text((await stale).body)).toBe('{"v":"old"}');
    expect(text((await fresh).body)).toBe('{"v":"new"}');
    expect(text((await cache.get('k', async () => ({ v: 'newer' }))).body)).toBe('{"v":"new"}');
  });

  it('does not cache failures', async () => {
    const { cache } = make();
    await expect(cache.get('k', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(text((await cache.get('k', async () => 1)).body)).toBe('1');
  });

  it('matches If-None-Match like RFC 9110 (weak comparison, lists, *)', () => {
    expect(etagMatches(undefined, '"a"')).toBe(false);
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"x", "a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches('"a"', 'W/"a"')).toBe(true);
  });

  it('reads Accept-Encoding, including q=0 refusals', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
  });
});

describe('GET /api/cards from the cache', () => {
  let t: Awaited<ReturnType<typeof catalogTestContext>>;
  let admin: ReturnType<typeof as>;
  let imageKey: string;
  let classId: string;
  let architectId: string;
  let number = 1;

  beforeAll(async () => {
    t = await catalogTestContext();
    admin = as(t, 'admin');
    imageKey = await uploadImage(t, '#33aa55');
    const frameKey = await uploadImage(t, '#111111');
    classId = (await (await admin.post('/api/admin/catalog/classes', { name: 'Cached', colour: '#A855F7', sortOrder: 1 })).json()).class.id;
    architectId = (
      await (await admin.post('/api/admin/catalog/architects', { name: 'Cached frame', frameImageKey: frameKey, layout: DEFAULT_LAYOUT })).json()
    ).architect.id;
    for (const [name, valueCents] of [['One', 100], ['Two', 200], ['Three', 300]] as const) await makeCard({ name, valueCents });
  });
  afterAll(() => t.close());

  async function makeCard(extra: Record<string, unknown> = {}) {
    const res = await admin.post('/api/admin/catalog/cards', {
      name: `Card ${number}`,
      setName: 'Cacheset',
      number: number++,
      classId,
      architectId,
      imageKey,
      valueCents: 1000,
      stock: 2,
      ...extra,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()).card as { id: string };
  }

  const LIST = '/api/cards?set=Cacheset&sort=value_desc';
  const page = async (qs = LIST) => {
    const res = await t.request(qs);
    expect(res.status).toBe(200);
    return { res, body: (await res.json()) as { total: number; items: Array<{ id: string; name: string }>; refs: { classes: Array<{ name: string }> } } };
  };
  const names = async (qs = LIST) => (await page(qs)).body.items.map((i) => i.name);
  /** Behind the API's back: only a cached answer keeps showing the old name. */
  const renameDirectly = (id: string, name: string) => t.deps.db.update(cards).set({ name }).where(eq(cards.id, id));

  it('answers the same bytes as a fresh read, with caching headers', async () => {
    const first = await t.request(LIST);
    const firstText = await first.text();
    const second = await t.request(LIST);
    expect(await second.text()).toBe(firstText);
    const fresh = await listPublicCards(t.deps.db, publicCardListQuerySchema.parse({ set: 'Cacheset', sort: 'value_desc' }));
    expect(json(firstText)).toEqual(json(JSON.stringify(fresh)));
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=15');
    expect(Number(second.headers.get('age'))).toBeGreaterThanOrEqual(0);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('sends the same bytes gzipped to clients that accept it', async () => {
    const plain = await (await t.request(LIST)).text();
    const res = await t.request(LIST, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(plain);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { res } = await page();
    const etag = res.headers.get('etag')!;
    const again = await t.request(LIST, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    expect((await t.request(LIST, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it('serves a repeated query from memory', async () => {
    const [top] = (await page()).body.items;
    await renameDirectly(top!.id, 'Renamed behind the back');
    expect((await names())[0]).toBe('Three');
    await renameDirectly(top!.id, 'Three');
  });

  it('does not share entries between different queries', async () => {
    const variants = [
      LIST,
      '/api/cards?set=Cacheset&sort=value_asc',
      '/api/cards?set=Cacheset&sort=value_desc&pageSize=1',
      '/api/cards?set=Cacheset&sort=value_desc&pageSize=1&page=2',
      `/api/cards?set=Cacheset&classId=${classId}&sort=name`,
      '/api/cards?set=Cacheset&q=tw',
      '/api/cards?set=Nope',
    ];
    const bodies = await Promise.all(variants.map(async (v) => (await t.request(v)).text()));
    expect(new Set(bodies).size).toBe(variants.length);
    expect(await names('/api/cards?set=Cacheset&sort=value_desc&pageSize=1&page=2')).toEqual(['Two']);
    expect(await names('/api/cards?set=Cacheset&q=tw')).toEqual(['Two']);
    // Equivalent spellings (defaults, surrounding spaces) are one entry.
    const key = (qs: Record<string, string>) => publicCardListKey(publicCardListQuerySchema.parse(qs));
    expect(key({ set: 'Cacheset' })).toBe(key({ set: ' Cacheset ', sort: 'value_desc', page: '1' }));
    expect(key({ set: 'a', q: 'b' })).not.toBe(key({ set: 'b', q: 'a' }));
  });

  it('shows card create, edit, archive, restore and delete on the very next request', async () => {
    expect(await names()).toEqual(['Three', 'Two', 'One']);
    const card = await makeCard({ name: 'Four', valueCents: 400, stock: 0 });
    expect(await names()).toEqual(['Four', 'Three', 'Two', 'One']);
    expect((await page()).body.total).toBe(4);

    expect((await admin.patch(`/api/admin/catalog/cards/${card.id}`, { name: 'Four edited' })).status).toBe(200);
    expect(await names()).toEqual(['Four edited', 'Three', 'Two', 'One']);

    expect((await admin.post(`/api/admin/catalog/cards/${card.id}/archive`)).status).toBe(200);
    expect(await names()).toEqual(['Three', 'Two', 'One']);

    expect((await admin.post(`/api/admin/catalog/cards/${card.id}/restore`)).status).toBe(200);
    expect((await admin.patch(`/api/admin/catalog/cards/${card.id}`, { active: true })).status).toBe(200);
    expect(await names()).toEqual(['Four edited', 'Three', 'Two', 'One']);

    expect((await admin.del(`/api/admin/catalog/cards/${card.id}`)).status).toBe(200);
    expect(await names()).toEqual(['Three', 'Two', 'One']);
  });

  it('shows class, architect and texture edits on the very next request', async () => {
    expect((await page()).body.refs.classes[0]!.name).toBe('Cached');
    expect((await admin.patch(`/api/admin/catalog/classes/${classId}`, { name: 'Cached, renamed' })).status).toBe(200);
    expect((await page()).body.refs.classes[0]!.name).toBe('Cached, renamed');

    const frameKey = await uploadImage(t, '#999999');
    expect((await admin.patch(`/api/admin/catalog/architects/${architectId}`, { frameImageKey: frameKey })).status).toBe(200);
    const refs = async () => (await page()).body.refs as unknown as { architects: Array<{ frameImageKey: string }>; textures: Array<{ opacity: number }> };
    expect((await refs()).architects[0]!.frameImageKey).toBe(frameKey);

    const texture = (await (await admin.post('/api/admin/catalog/textures', { name: 'Cached foil', imageKey, blendMode: 'screen', opacity: 40 })).json()).texture;
    expect((await admin.patch(`/api/admin/catalog/classes/${classId}`, { defaultTextureId: texture.id })).status).toBe(200);
    expect((await refs()).textures).toEqual([expect.objectContaining({ id: texture.id, opacity: 40 })]);
    expect((await admin.patch(`/api/admin/catalog/textures/${texture.id}`, { opacity: 70 })).status).toBe(200);
    expect((await refs()).textures[0]!.opacity).toBe(70);
  });

  it('shows a CSV import on the very next request', async () => {
    expect(await names()).toEqual(['Three', 'Two', 'One']);
    const csv = [
      'name,set,number,class,architect,texture,image,value,description,active,stock',
      `Imported,Cacheset,500,"Cached, renamed",Cached frame,,${imageKey},9.00,,true,1`,
    ].join('\n');
    const res = await admin.post('/api/admin/catalog/cards/import', { csv });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await names()).toEqual(['Imported', 'Three', 'Two', 'One']);
  });

  it('answers the same page after a write that failed', async () => {
    const before = await (await t.request(LIST)).text();
    expect((await admin.post('/api/admin/catalog/classes', { name: 'Taken', colour: '#A855F7', sortOrder: 2 })).status).toBe(201);
    expect((await admin.patch(`/api/admin/catalog/classes/${classId}`, { name: 'Taken' })).status).toBe(409);
    expect(await (await t.request(LIST)).text()).toBe(before);
  });

  it('is refilled from the database after an edit, not from a read that was already running', async () => {
    // A burst of readers racing an edit: every request after the edit returns sees the edit.
    const [top] = (await page()).body.items;
    const readers = Promise.all(Array.from({ length: 10 }, () => t.request(LIST).then((r) => r.status)));
    expect((await admin.patch(`/api/admin/catalog/cards/${top!.id}`, { name: 'Imported, edited' })).status).toBe(200);
    expect((await readers).every((s) => s === 200)).toBe(true);
    expect((await names())[0]).toBe('Imported, edited');
  });
});
