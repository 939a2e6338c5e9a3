import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit.ts';
import { signInAdminWithMfa, signInAdminWithoutMfa, signUpAndSignIn, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { multipart, testImage } from './test-support.ts';

/** The catalog through real sessions (cookies, roles, second factor), not a test actor. */
let t: TestContext;
let admin: TestUser;
let adminNoMfa: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await createTestContext({ config: { dataDir: mkdtempSync(path.join(os.tmpdir(), 'packvault-catalog-real-')) } });
  admin = await signInAdminWithMfa(t);
  adminNoMfa = await signInAdminWithoutMfa(t);
  user = await signUpAndSignIn(t);
});
afterAll(() => t.close());

it('an admin with two-factor uploads and creates; others are refused; the audit log names the admin', async () => {
  const png = await testImage('png', '#445566');
  const post = (who: TestUser | null) =>
    t.request('/api/admin/uploads', { method: 'POST', body: multipart(png), headers: who ? who.headers : {} });
  expect((await post(null)).status).toBe(401);
  expect((await post(user)).status).toBe(403);
  expect((await post(adminNoMfa)).status).toBe(403);
  const up = await post(admin);
  expect(up.status).toBe(201);

  const res = await t.request('/api/admin/catalog/classes', {
    method: 'POST',
    headers: admin.headers,
    json: { name: 'Session class', colour: '#123456', sortOrder: 5 },
  });
  expect(res.status).toBe(201);
  const { class: created } = await res.json();
  const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.targetId, created.id));
  expect(entry).toMatchObject({ action: 'catalog.class.create', actorId: admin.userId, targetType: 'card_class' });

  const asUser = await t.request('/api/admin/catalog/classes', { headers: user.headers });
  expect(asUser.status).toBe(403);
  expect((await t.request('/api/catalog/classes')).status).toBe(200);
});
