import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClientError } from '@web/lib/api';
import { useMoneyAction } from './use-money-action';

/** A send whose answers the test gives, one per call, recording the keys it was given. */
function controlledSend() {
  const keys: string[] = [];
  const answers: Array<{ resolve(v: string): void; reject(e: unknown): void }> = [];
  const send = vi.fn((_input: unknown, key: string) => {
    keys.push(key);
    return new Promise<string>((resolve, reject) => answers.push({ resolve, reject }));
  });
  return { send, keys, answers };
}

let now = 0;
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
function clock() {
  now = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
}
/** Past the half second after an answer in which clicks are the same gesture's. */
const later = () => (now += 1_000);

describe('useMoneyAction: the Idempotency-Key is the intent’s, not the click’s', () => {
  it('sends once while a request is on its way, and drops a double or triple click’s later clicks', async () => {
    clock();
    const s = controlledSend();
    const { result } = renderHook(() => useMoneyAction(s.send));
    let first!: Promise<string | undefined>;
    await act(async () => {
      first = result.current.run({ q: 1 }, { detail: 1 });
      expect(await result.current.run({ q: 1 }, { detail: 1 })).toBeUndefined();
    });
    expect(result.current.busy).toBe(true);
    expect(result.current.pending).toEqual({ q: 1 });
    expect(s.send).toHaveBeenCalledTimes(1);
    await act(async () => {
      s.answers[0]!.resolve('ok');
      expect(await first).toBe('ok');
    });
    expect(result.current.busy).toBe(false);
    // The answer came before the second click of a double-click: still the same gesture.
    later();
    await act(async () => {
      expect(await result.current.run({ q: 1 }, { detail: 2 })).toBeUndefined();
      expect(await result.current.run({ q: 1 }, { detail: 3 })).toBeUndefined();
    });
    expect(s.send).toHaveBeenCalledTimes(1);
  });

  it('drops a click within half a second of the answer (a double tap), then takes the next intent with a new key', async () => {
    clock();
    const s = controlledSend();
    const { result } = renderHook(() => useMoneyAction(s.send));
    await act(async () => {
      const p = result.current.run('buy', { detail: 1 });
      s.answers[0]!.resolve('ok');
      await p;
    });
    now += 200;
    await act(async () => {
      expect(await result.current.run('buy', { detail: 1 })).toBeUndefined();
    });
    expect(result.current.ready({ detail: 1 })).toBe(false);
    later();
    expect(result.current.ready({ detail: 1 })).toBe(true);
    await act(async () => {
      const p = result.current.run('buy', { detail: 1 });
      s.answers[1]!.resolve('again');
      expect(await p).toBe('again');
    });
    expect(s.keys).toHaveLength(2);
    expect(s.keys[1]).not.toBe(s.keys[0]);
  });

  it('keeps the key for a retry after a network failure or a 5xx, renews it after a refusal or for another request', async () => {
    clock();
    const s = controlledSend();
    const { result } = renderHook(() => useMoneyAction(s.send));
    const attempt = async (input: unknown, answer: (i: number) => void) => {
      later();
      await act(async () => {
        const p = result.current.run(input);
        answer(s.answers.length - 1);
        await p.catch(() => undefined);
      });
    };
    await attempt('two packs', (i) => s.answers[i]!.reject(new ApiClientError(0, 'network_error', 'offline')));
    await attempt('two packs', (i) => s.answers[i]!.reject(new ApiClientError(503, 'service_unavailable', 'later')));
    expect(s.keys[1]).toBe(s.keys[0]);
    // The user changed the quantity: another intent, another key.
    await attempt('three packs', (i) => s.answers[i]!.reject(new ApiClientError(409, 'insufficient_funds', 'short')));
    expect(s.keys[2]).not.toBe(s.keys[1]);
    // A definitive refusal was an answer: the next send is a new intent.
    await attempt('three packs', (i) => s.answers[i]!.resolve('ok'));
    expect(s.keys[3]).not.toBe(s.keys[2]);
    expect(new Set(s.keys).size).toBe(3);
  });

  it('a submit button’s guard stops a form submit while busy and for a repeat click', async () => {
    clock();
    const s = controlledSend();
    const { result } = renderHook(() => useMoneyAction(s.send));
    const click = (detail: number) => {
      const e = { detail, defaultPrevented: false, preventDefault() {
        this.defaultPrevented = true;
      } };
      result.current.guardClick(e);
      return e.defaultPrevented;
    };
    expect(click(1)).toBe(false);
    expect(click(2)).toBe(true);
    await act(async () => {
      void result.current.run('code');
    });
    expect(click(1)).toBe(true);
  });
});
