import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MiddlewareHandler } from 'hono';
import sharp from 'sharp';
import { user } from '../../db/schema/auth.ts';
import type { Actor, AppEnv } from '../../http/types.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';

/**
 * Test actors for the catalog suites: requests carry `x-test-actor: admin|user|admin-nomfa`;
 * the users exist in the database so audit rows can reference them.
 */
export const ACTORS: Record<string, Actor> = {
  admin: { userId: 'test-admin', role: 'admin', emailVerified: true, mfaPassed: true, sessionId: 's-admin' },
  'admin-nomfa': { userId: 'test-admin', role: 'admin', emailVerified: true, mfaPassed: false, sessionId: 's-admin2' },
  // The same person as the owner: value changes and class buyback rates past the owner's bounds (ADR 0024).
  owner: { userId: 'test-admin', role: 'owner', emailVerified: true, mfaPassed: true, sessionId: 's-owner' },
  user: { userId: 'test-user', role: 'user', emailVerified: true, mfaPassed: true, sessionId: 's-user' },
};

const actorMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const who = c.req.header('x-test-actor');
  if (who && ACTORS[who]) c.set('actor', ACTORS[who]!);
  await next();
};

export async function catalogTestContext(): Promise<TestContext & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'packvault-catalog-'));
  const t = await createTestContext({ config: { dataDir }, appOptions: { actorMiddleware } });
  await t.deps.db.insert(user).values([
    { id: 'test-admin', name: 'Ada', email: 'ada@example.test', username: 'ada_admin', role: 'admin', emailVerified: true },
    { id: 'test-user', name: 'Uma', email: 'uma@example.test', username: 'uma_user', role: 'user', emailVerified: true },
  ]);
  return Object.assign(t, { dataDir });
}

type Init = RequestInit & { json?: unknown };
/** Request helpers bound to one actor. */
export function as(t: TestContext, who: keyof typeof ACTORS | null) {
  const withActor = (init: Init = {}): Init => {
    const headers = new Headers(init.headers);
    if (who) headers.set('x-test-actor', who);
    return { ...init, headers };
  };
  return {
    get: (p: string) => t.request(p, withActor()),
    post: (p: string, json?: unknown) => t.request(p, withActor({ method: 'POST', json: json ?? {} })),
    patch: (p: string, json: unknown) => t.request(p, withActor({ method: 'PATCH', json })),
    del: (p: string) => t.request(p, withActor({ method: 'DELETE' })),
    raw: (p: string, init: Init) => t.request(p, withActor(init)),
  };
}

export async function testImage(format: 'png' | 'jpeg' | 'webp' = 'png', colour = '#8b5cf6', size = 64): Promise<Buffer> {
  const img = sharp({ create: { width: size, height: Math.round(size * 1.4), channels: 4, background: colour } });
  return img[format]().toBuffer();
}

export function multipart(data: Uint8Array, filename = 'art.png', type = 'image/png'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), filename);
  return form;
}

/** Uploads an image as admin and returns its key. */
export async function uploadImage(t: TestContext, colour = '#8b5cf6'): Promise<string> {
  const res = await as(t, 'admin').raw('/api/admin/uploads', { method: 'POST', body: multipart(await testImage('png', colour)) });
  if (res.status !== 201) throw new Error(`upload failed ${res.status} ${await res.text()}`);
  return ((await res.json()) as { upload: { key: string } }).upload.key;
}
