import { vi } from 'vitest';

/** One request a component made to the stubbed API. */
export interface MockCall {
  method: string;
  url: string;
  body: unknown;
  /** The Idempotency-Key header, when the request carried one (money actions). */
  key: string | undefined;
}

export type MockAnswer = { status?: number; body: unknown } | undefined;

/**
 * Stubs `fetch` for a component test: every request is recorded and answered by `answer` as JSON
 * (no answer: a 500, so an unexpected call shows as an error on the page). Returns the calls, in
 * order. Undo with `vi.unstubAllGlobals()`.
 */
export function mockServer(answer: (call: MockCall) => MockAnswer): MockCall[] {
  const calls: MockCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
      const request = input instanceof Request ? input : null;
      const url = request ? new URL(request.url).pathname + new URL(request.url).search : String(input);
      const headers = new Headers(request?.headers ?? init.headers);
      const raw = request ? await request.text() : init.body ? String(init.body) : '';
      const call: MockCall = {
        method: request?.method ?? init.method ?? 'GET',
        url,
        body: raw ? JSON.parse(raw) : undefined,
        key: headers.get('Idempotency-Key') ?? undefined,
      };
      calls.push(call);
      const r = answer(call) ?? { status: 500, body: { error: { code: 'internal', message: 'Unexpected call.' } } };
      return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** The API's error body. */
export const apiError = (status: number, code: string, message: string, fields?: Record<string, string[]>) => ({
  status,
  body: { error: { code, message, fields } },
});
