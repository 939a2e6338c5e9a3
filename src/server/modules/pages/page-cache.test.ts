import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { isCachedPage, PageCache, type PageAnswer } from './page-cache.ts';

function setup(opts: { freshMs?: number; maxBytes?: number } = {}) {
  let now = 1_000_000;
  let stamp: unknown[] = [1, 'on'];
  let html = '<p>page 1</p>';
  let makes = 0;
  const cache = new PageCache({ freshMs: opts.freshMs ?? 1000, maxBytes: opts.maxBytes ?? 1 << 20, stamp: () => stamp, now: () => now });
  const make = async (): Promise<PageAnswer> => {
    makes++;
    return { status: 200, html, cacheable: true };
  };
  return {
    cache,
    make,
    get: (key = '/cards') => cache.get(key, make),
    makes: () => makes,
    advance: (ms: number) => (now += ms),
    setStamp: (s: unknown[]) => (stamp = s),
    setHtml: (h: string) => (html = h),
  };
}

describe('the page cache', () => {
  it('sends a page as made for freshMs; then still sends it while it is made again, once, in the background', async () => {
    const t = setup();
    const first = await t.get();
    expect(isCachedPage(first)).toBe(true);
    if (!isCachedPage(first)) return;
    expect(Buffer.from(first.body).toString()).toBe('<p>page 1</p>');
    expect(gunzipSync(first.gzip).toString()).toBe('<p>page 1</p>');
    expect(first.etag).toMatch(/^W\/"[\w-]+"$/);
    t.advance(999);
    expect(await t.get()).toBe(first);
    expect(t.makes()).toBe(1);
    t.advance(1);
    t.setHtml('<p>page 2</p>');
    // Past freshMs: the kept page goes out at once, and one request has it made again.
    expect(await t.get()).toBe(first);
    expect(await t.get()).toBe(first);
    expect(t.makes()).toBe(2);
    await vi.waitFor(async () => expect(await t.get()).not.toBe(first));
    const second = await t.get();
    expect(t.makes()).toBe(2);
    expect(isCachedPage(second) && Buffer.from(second.body).toString()).toBe('<p>page 2</p>');
    expect(isCachedPage(second) && second.etag).not.toBe(first.etag);
  });

  it('keeps the compressed bytes of a page made again the same', async () => {
    const t = setup();
    const first = await t.get();
    t.advance(5000);
    await t.get();
    await vi.waitFor(async () => expect(await t.get()).not.toBe(first));
    const again = await t.get();
    expect(t.makes()).toBe(2);
    expect(isCachedPage(again) && isCachedPage(first) && again.gzip === first.gzip).toBe(true);
  });

  it('stops sending a kept page that its remaking found not for others (the shop closed)', async () => {
    const t = setup();
    const first = await t.get();
    t.advance(1000);
    let closed = 0;
    const shell = async (): Promise<PageAnswer> => (closed++, { status: 200, html: 'shell', cacheable: false });
    expect(await t.cache.get('/cards', shell)).toBe(first);
    await vi.waitFor(() => expect(t.cache.size).toBe(0));
    expect(closed).toBe(1);
  });

  it('makes a page once for everyone asking while it is being made', async () => {
    const t = setup();
    const all = await Promise.all([t.get(), t.get(), t.get(), t.get('/shop'), t.get('/shop')]);
    expect(t.makes()).toBe(2);
    expect(all[0]).toBe(all[1]);
    expect(all[3]).toBe(all[4]);
  });

  it('makes it again when the process state it was made under changed', async () => {
    const t = setup();
    await t.get();
    t.setStamp([1, 'off']);
    await t.get();
    expect(t.makes()).toBe(2);
    await t.get();
    expect(t.makes()).toBe(2);
  });

  it('forgets every page on clear(), and keeps none made from reads that started before it', async () => {
    const t = setup();
    await t.get();
    t.cache.clear();
    await t.get();
    expect(t.makes()).toBe(2);
    // A write lands while the page is being read: that page is sent once, not kept.
    let release!: () => void;
    const slow = t.cache.get('/top-pulls', async () => {
      await new Promise<void>((r) => (release = r));
      return { status: 200, html: 'old', cacheable: true };
    });
    await Promise.resolve();
    t.cache.clear();
    release();
    expect(isCachedPage(await slow)).toBe(true);
    const after = await t.cache.get('/top-pulls', async () => ({ status: 200, html: 'new', cacheable: true }));
    expect(isCachedPage(after) && Buffer.from(after.body).toString()).toBe('new');
  });

  it('hands back, and never keeps, a page that is not for others', async () => {
    const t = setup();
    const shell = { status: 200, html: 'shell', cacheable: false };
    let makes = 0;
    const answer = async () => (makes++, shell);
    expect(await t.cache.get('/shop', answer)).toBe(shell);
    expect(await t.cache.get('/shop', answer)).toBe(shell);
    expect(makes).toBe(2);
    expect(t.cache.size).toBe(0);
  });

  it('keeps to its byte bound, least recently used out first', async () => {
    // Each page is 13 bytes plain and about 33 gzipped: two fit in 100 bytes.
    const t = setup({ maxBytes: 100 });
    await t.get('/a');
    await t.get('/b');
    await t.get('/a');
    await t.get('/c');
    expect(t.makes()).toBe(3);
    expect(t.cache.size).toBe(2);
    await t.get('/a');
    expect(t.makes()).toBe(3);
    await t.get('/b');
    expect(t.makes()).toBe(4);
    // A page bigger than the whole bound is sent, never kept.
    t.setHtml('x'.repeat(300) + Math.random());
    await t.get('/big');
    await t.get('/big');
    expect(t.makes()).toBe(6);
  });

  it('keeps nothing when freshMs is 0', async () => {
    const t = setup({ freshMs: 0 });
    expect(isCachedPage(await t.get())).toBe(false);
    await t.get();
    expect(t.makes()).toBe(2);
  });
});
