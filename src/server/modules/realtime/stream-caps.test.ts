import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { sseReader } from '../../test/sse.ts';

/** Issue 39: concurrent streams are capped per client address (IPv6 by /64) and per user: 429. */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { trustProxy: true, sseMaxStreamsPerAddress: 3, sseMaxStreamsPerUser: 2 } });
});
afterAll(() => t.close());

async function open(headers: Record<string, string>) {
  const ctl = new AbortController();
  const res = await t.request('/api/events', { headers, signal: ctl.signal });
  if (res.status !== 200) return { status: res.status, res, close: async () => {} };
  const reader = sseReader(res);
  await reader.next('hello');
  return {
    status: 200,
    res,
    close: async () => {
      await reader.close();
      ctl.abort();
    },
  };
}

describe('stream caps', () => {
  it('per address, anonymous: the fourth from one /64 is 429; a closed one frees its place', async () => {
    const streams = [];
    for (let i = 1; i <= 3; i++) streams.push(await open({ 'x-forwarded-for': `2001:db8:5:6::${i}` }));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    const fourth = await open({ 'x-forwarded-for': '2001:db8:5:6::99' });
    expect(fourth.status).toBe(429);
    expect(fourth.res.headers.get('retry-after')).toBeTruthy();
    // Another address is not affected.
    const elsewhere = await open({ 'x-forwarded-for': '198.51.100.7' });
    expect(elsewhere.status).toBe(200);
    await streams[0]!.close();
    let again = { status: 0, close: async () => {} } as Awaited<ReturnType<typeof open>>;
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await open({ 'x-forwarded-for': '2001:db8:5:6::100' });
    }
    expect(again.status).toBe(200);
    for (const s of [...streams, again, elsewhere]) await s.close();
  });

  it('per user, from any address', async () => {
    const u = await signUpAndSignIn(t);
    const a = await open({ cookie: u.cookie, 'x-forwarded-for': '192.0.2.10' });
    const b = await open({ cookie: u.cookie, 'x-forwarded-for': '192.0.2.11' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await open({ cookie: u.cookie, 'x-forwarded-for': '192.0.2.12' })).status).toBe(429);
    await a.close();
    await b.close();
  });
});
