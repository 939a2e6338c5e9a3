import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';

/** Issue 39: names that pass for the shop are refused at sign-up and on every profile change. */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const RESERVED = ['Packvault', 'support', 'Staff', 'moderator', 'packvault_support', 'ADMIN', 'Support-Team'];

describe('reserved names', () => {
  it('sign-up refuses them as usernames and as names', async () => {
    for (const [i, username] of RESERVED.entries()) {
      const res = await t.request('/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'x-forwarded-for': `198.18.9.${i}` },
        json: { email: `r${i}@example.test`, password: 'a-long-pass-123', name: username, username, ageConfirmed: true, termsAccepted: true },
      });
      expect(res.status, username).toBe(400);
      expect(JSON.stringify(await res.json()), username).toMatch(/kept for the shop/);
    }
    const byName = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      json: { email: 'named@example.test', password: 'a-long-pass-123', name: 'Packvault Support', username: 'honest_name', ageConfirmed: true, termsAccepted: true },
    });
    expect(byName.status).toBe(400);
  });

  it('changing the username or the name refuses them too', async () => {
    const u = await signUpAndSignIn(t);
    for (const username of RESERVED) {
      const res = await t.request('/api/account/username', { method: 'PATCH', headers: u.headers, json: { username } });
      expect(res.status, username).toBe(400);
    }
    const available = await t.request('/api/account/username-available?username=support');
    expect(available.status).toBe(400);
    const rename = await t.request('/api/auth/update-user', { method: 'POST', headers: u.headers, json: { name: 'Staff' } });
    expect(rename.status).toBe(400);
    const fine = await t.request('/api/account/username', { method: 'PATCH', headers: u.headers, json: { username: 'card_fan_7' } });
    expect(fine.status).toBe(200);
  });
});
