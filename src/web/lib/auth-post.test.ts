import { afterEach, describe, expect, it, vi } from 'vitest';
import { authPost, authRequestsSettled } from './auth-post';

afterEach(() => vi.unstubAllGlobals());

describe('authRequestsSettled', () => {
  it('waits for every Better Auth request on its way, failed ones included', async () => {
    const answers: Array<(r: Response) => void> = [];
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => answers.push(resolve))));
    let settled = false;
    await authRequestsSettled();
    const a = authPost('/two-factor/verify-totp', { code: '123456' });
    const b = authPost('/change-password', {}).catch(() => 'refused');
    void authRequestsSettled().then(() => (settled = true));
    await Promise.resolve();
    answers[0]!(new Response('{"token":"t"}', { status: 200 }));
    await a;
    expect(settled).toBe(false);
    answers[1]!(new Response('{"code":"INVALID_PASSWORD","message":"Invalid password"}', { status: 400 }));
    expect(await b).toBe('refused');
    await vi.waitFor(() => expect(settled).toBe(true));
  });
});
