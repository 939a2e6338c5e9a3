import { createRoute } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/harness.ts';
import { AppError } from './errors.ts';
import { createRouter, errorResponses, jsonContent, z } from './openapi.ts';

/** A throwaway router that exercises the conventions every module inherits. */
function probeRoutes() {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'post',
      path: '/probe',
      request: {
        body: {
          content: {
            'application/json': {
              schema: z.object({ name: z.string().min(3, 'Name needs at least 3 characters'), qty: z.number().int().min(1) }),
            },
          },
        },
      },
      responses: { 200: jsonContent(z.object({ ok: z.boolean() }), 'ok'), ...errorResponses },
    }),
    (c) => c.json({ ok: true }, 200),
  );
  app.get('/probe/boom', () => {
    throw new Error('secret internal detail');
  });
  app.get('/probe/conflict', () => {
    throw new AppError(409, 'conflict', 'Already done.');
  });
  return app;
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ appOptions: { extraApiModules: [probeRoutes] } });
});
afterAll(() => t.close());

describe('API conventions', () => {
  it('answers validation failures with 400 and per-field messages', async () => {
    const res = await t.request('/api/probe', { method: 'POST', json: { name: 'ab', qty: 0 } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields.name).toEqual(['Name needs at least 3 characters']);
    expect(body.error.fields.qty).toHaveLength(1);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.request('/api/probe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": "abc", ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('malformed_json');
  });

  it('answers bodies over 1 MB with 413', async () => {
    const res = await t.request('/api/probe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), qty: 1 }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });

  it('never sends a stack trace or internal message to the client', async () => {
    const res = await t.request('/api/probe/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(JSON.parse(text).error.code).toBe('internal_error');
  });

  it('maps AppError to its status and code', async () => {
    const res = await t.request('/api/probe/conflict');
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: { code: 'conflict', message: 'Already done.' } });
  });

  it('sets HSTS only over HTTPS', async () => {
    const res = await t.app.request('https://packvault.example/api/health');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('documents module routes in OpenAPI', async () => {
    const doc = await (await t.request('/api/openapi.json')).json();
    expect(doc.paths['/api/probe'].post).toBeDefined();
  });
});
