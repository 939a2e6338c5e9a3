import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.ts';
import { signInAdminWithMfa, signUpAndSignIn, type TestUser } from '../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../test/harness.ts';
import { isCleanJsonValue, isCleanUrlPart, oddJsonFields } from './odd-bytes.ts';

/**
 * Issue 39: a NUL, malformed percent-encoding or bytes that are not UTF-8 anywhere in the address
 * or a JSON body are refused by one guard before any handler (Better Auth's too): 400 for the
 * API, 404 for a page, never 500 — and nothing reaches the error log.
 */

let t: TestContext;
let owner: TestUser;
let user: TestUser;
const logLines: string[] = [];
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestContext();
  // See every line a request writes: none of these may be an error.
  t.deps.log = createLogger('info', {}, (l) => logLines.push(l));
  owner = await signInAdminWithMfa(t, { role: 'owner' });
  user = await signUpAndSignIn(t);
});
afterAll(() => t.close());

async function expectRefused(res: Response, status: 400 | 404, what: string) {
  expect(res.status, what).toBe(status);
  if (status === 400) expect(((await res.json()) as { error: { code: string } }).error.code, what).toBe('invalid_encoding');
}

function rawBody(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return t.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

describe('isCleanUrlPart / isCleanJsonValue', () => {
  it.each([
    ['/cards', true],
    ['q=caf%C3%A9&page=2', true],
    ['q=%F0%9F%83%8F', true],
    ['', true],
    ['/pulls/%ZZ', false],
    ['q=%', false],
    ['q=%4', false],
    ['q=%00', false],
    ['q=a%00b', false],
    ['q=%FF', false],
    ['q=%C3%28', false],
    ['q=%ED%A0%80', false],
  ])('%s → %s', (raw, ok) => {
    expect(isCleanUrlPart(raw)).toBe(ok);
  });

  it('walks values and keys', () => {
    expect(isCleanJsonValue({ a: ['b', { c: 'd' }], e: 1, f: null })).toBe(true);
    expect(isCleanJsonValue({ a: ['b', { c: 'd\u0000' }] })).toBe(false);
    expect(isCleanJsonValue({ 'k\u0000': 1 })).toBe(false);
    expect(isCleanJsonValue({ a: '\ud800' })).toBe(false);
    expect(isCleanJsonValue({ a: '\udc00x' })).toBe(false);
    expect(isCleanJsonValue({ a: '\ud83c\udccf' })).toBe(true);
  });
});

describe('a NUL in a JSON body', () => {
  it('sign-in and password-reset email: 400 before Better Auth', async () => {
    await expectRefused(await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: `a\u0000${user.email}`, password: 'x' } }), 400, 'sign-in');
    await expectRefused(await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: user.email, password: 'pw\u0000' } }), 400, 'sign-in password');
    await expectRefused(await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email: `${user.email}\u0000`, redirectTo: '/update-password' } }), 400, 'reset');
    await expectRefused(await t.request('/api/auth/sign-up/email', { method: 'POST', json: { email: 'n\u0000@example.test', password: 'long-enough-1', name: 'n', username: 'nul_user' } }), 400, 'sign-up');
    // The same requests without the NUL still reach Better Auth.
    const ok = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: user.email, password: user.password } });
    expect(ok.status).toBe(200);
  });

  it('names, reasons and catalog fields: 400', async () => {
    await expectRefused(await t.request('/api/account/username', { method: 'PATCH', headers: user.headers, json: { username: 'nul\u0000name' } }), 400, 'username');
    await expectRefused(
      await t.request(`/api/admin/users/${user.userId}/ban`, { method: 'POST', headers: owner.headers, json: { reason: 'spam\u0000' } }),
      400,
      'ban reason',
    );
    await expectRefused(
      await t.request('/api/admin/catalog/classes', { method: 'POST', headers: owner.headers, json: { name: 'Rare\u0000', color: '#123456' } }),
      400,
      'catalog class name',
    );
    await expectRefused(
      await t.request('/api/admin/catalog/cards', { method: 'POST', headers: owner.headers, json: { name: 'Card', description: 'x\u0000y' } }),
      400,
      'card description',
    );
    await expectRefused(
      await t.request('/api/shipping/addresses', { method: 'POST', headers: user.headers, json: { name: 'Ann\u0000', line1: 'x' } }),
      400,
      'address name',
    );
    // A key with a NUL, deep in the body.
    await expectRefused(await t.request('/api/account/username', { method: 'PATCH', headers: user.headers, json: { deep: [{ ['k\u0000']: 1 }] } }), 400, 'key');
  });

  it('a raw NUL byte, bytes that are not UTF-8, and a lone surrogate: 400', async () => {
    await expectRefused(await rawBody('/api/auth/sign-in/email', '{"email":"a\u0000@b.test","password":"x"}'), 400, 'raw NUL');
    await expectRefused(await rawBody('/api/auth/sign-in/email', new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, 'invalid UTF-8');
    await expectRefused(await rawBody('/api/account/username', '{"username":"\\ud800abc"}', user.headers), 400, 'lone surrogate');
  });

  it('leaves ordinary text alone: accents, emoji, an escaped backslash before u0000', async () => {
    const res = await t.request('/api/account/username', { method: 'PATCH', headers: user.headers, json: { username: 'ok\\u0000' } });
    // The username rules refuse a backslash (400 validation_failed), but not as an encoding error.
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    const emoji = await t.request('/api/account/username', { method: 'PATCH', headers: user.headers, json: { username: '🃏' } });
    expect(((await emoji.json()) as { error: { code: string } }).error.code).not.toBe('invalid_encoding');
  });
});

describe('odd bytes in the address', () => {
  it('?q= with a NUL on cards, collection, users and shipping: 400', async () => {
    for (const [path, headers] of [
      ['/api/cards', {}],
      ['/api/collection', user.headers],
      ['/api/admin/users', owner.headers],
      ['/api/admin/shipping/shipments', owner.headers],
      ['/api/admin/catalog/cards', owner.headers],
    ] as const) {
      for (const q of ['%00', 'a%00b', '%ZZ', '%FF', '%C3%28', '%']) {
        await expectRefused(await t.request(`${path}?q=${q}`, { headers }), 400, `${path}?q=${q}`);
      }
    }
    // Clean encodings still answer.
    expect((await t.request('/api/cards?q=caf%C3%A9')).status).toBe(200);
    expect((await t.request('/api/cards?q=a+b')).status).toBe(200);
  });

  it('%ZZ in a path: 404 for a page, 400 for the API and Better Auth', async () => {
    for (const page of ['/pulls/%ZZ', '/pulls/%FF', '/pulls/%00', '/cards/%E2%82', '/cards?q=%00']) {
      const res = await t.request(page);
      expect(res.status, page).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('home page');
    }
    for (const api of ['/api/auth/reset-password/%ZZ', '/api/auth/reset-password/%FF?callbackURL=%2F', '/api/shop/products/%ZZ', `/api/pulls/${UNKNOWN_UUID}%00`, '/api/%']) {
      await expectRefused(await t.request(api), 400, api);
    }
  });

  it('no request above wrote an error line, nor a query string', () => {
    const errors = logLines.filter((l) => (JSON.parse(l) as { level: string }).level === 'error');
    expect(errors).toEqual([]);
    expect(logLines.join('\n')).not.toContain(user.email);
  });
});

describe('oddJsonFields', () => {
  it('names the fields that hold odd text, as validation names them', () => {
    expect(oddJsonFields({ name: 'Ada', city: 'San\u0000Francisco' })).toEqual(['city']);
    expect(oddJsonFields({ items: [{ name: 'ok' }, { name: '\uD800x' }] })).toEqual(['items.1.name']);
    expect(oddJsonFields({ ['bad\u0000key']: 1 })).toEqual(['body']);
    expect(oddJsonFields('\u0000')).toEqual(['body']);
    expect(oddJsonFields({ fine: ['a', 'b'], n: 1 })).toEqual([]);
  });
});
