import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../lib/paths.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../test/harness.ts';

/**
 * Issue 39: every per-address rate limit keys through the one helper sign-in uses
 * (`clientAddressKey`: the client address, IPv6 grouped by /64). Rotating through one /64 must
 * not open new buckets on any of them.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { trustProxy: true } });
});
afterAll(() => t.close());

let n = 0;
/** A fresh address of the same /64 each call. */
const rotating = () => `2001:db8:77:1:${(++n).toString(16)}:0:0:1`;

async function statusesFromOne64(count: number, call: (address: string) => Promise<Response>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await call(rotating())).status);
  return statuses;
}

describe('per-address limits group IPv6 by /64', () => {
  it('monitoring (30 a minute)', async () => {
    const envelope = [JSON.stringify({ event_id: 'abc', dsn: `${TEST_ORIGIN}/monitoring` }), JSON.stringify({ type: 'event' }), JSON.stringify({ level: 'error', message: 'x' })].join('\n');
    const statuses = await statusesFromOne64(40, (ip) =>
      t.request('/monitoring', { method: 'POST', body: envelope, headers: { 'content-type': 'application/x-sentry-envelope', 'x-forwarded-for': ip } }),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
  });

  it('referral invite lookups (60 a minute)', async () => {
    const statuses = await statusesFromOne64(70, (ip) => t.request('/api/referrals/invite/NOSUCHCODE', { headers: { 'x-forwarded-for': ip } }));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
  });

  it('unsubscribe links (30 a minute)', async () => {
    const statuses = await statusesFromOne64(35, (ip) => t.request('/api/notifications/unsubscribe?token=not-a-real-token', { headers: { 'x-forwarded-for': ip } }));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
  });
});

describe('the source', () => {
  it('builds no rate-limit key from a raw client address', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) {
          const text = readFileSync(p, 'utf8');
          // A key template holding clientIp(…) itself, or a limiter fed clientIp(…) directly.
          if (/`[^`]*\$\{clientIp\(/.test(text) || /(?:hitRateLimit|enforceRateLimit|limit)\(\s*clientIp\(/.test(text)) offenders.push(path.relative(projectRoot, p));
        }
      }
    };
    walk(path.join(projectRoot, 'src/server'));
    expect(offenders).toEqual([]);
  });
});
