import { useCallback, useRef, useState } from 'react';
import { ApiClientError, newIdempotencyKey } from '@web/lib/api';

/** An answer after which the same request could still be the one that went through. */
function mayBeUnanswered(err: unknown): boolean {
  return err instanceof ApiClientError && (err.status === 0 || err.status >= 500);
}

/**
 * The second or third click of a double or triple click (the browser counts a click gesture's
 * clicks in `detail`; a key press is 0): the same gesture as the first click, never a new intent,
 * however fast the first one was answered.
 */
export function isRepeatClick(event: { detail: number } | undefined): boolean {
  return event !== undefined && event.detail > 1;
}

/**
 * After an answer, clicks are dropped for this long: the end of the same gesture (a phone's
 * double tap counts each tap as a first click, and the answer can come between them), never a
 * reaction to the answer, which takes a person longer.
 */
const GESTURE_TAIL_MS = 500;

export interface MoneyAction<I, R> {
  /**
   * Sends the intent. Resolves with the server's answer, or `undefined` when nothing was sent: a
   * request of this action is already on its way, or `event` is a repeat click of one gesture.
   * Rejects with the request's error.
   */
  run(input: I, event?: { detail: number }): Promise<R | undefined>;
  /** Whether a click now would send (the same checks as `run`). */
  ready(event?: { detail: number }): boolean;
  /**
   * For a form's submit button (`onClick`): a click that would not send does not submit the form
   * either, so the form's own checks and messages do not run for it.
   */
  guardClick(event: { detail: number; preventDefault(): void }): void;
  /** From the first click until the server has answered. */
  busy: boolean;
  /** What is being sent while busy (a panel with two buttons shows which one runs). */
  pending: I | null;
}

/**
 * One money button's action (issue 38): the Idempotency-Key belongs to the user's intent, not to
 * the click.
 *
 * - The key is minted when the panel or form mounts and goes with every send of that intent.
 * - A click while a request is on its way sends nothing. The guard is a ref, set in the click
 *   itself: a re-render that disables the button comes later (React renders after the event's
 *   handlers have run, and a query mutation reports "pending" on a later task), and a double-click's second click lands
 *   before it. The second and third clicks of a double or triple click send nothing either, even
 *   when the first was answered in between (a fast answer, 180 ms between the clicks), and no
 *   click does within half a second of an answer (the rest of the gesture, e.g. a double tap).
 * - The key is renewed only after the server has answered: a success or a definitive refusal
 *   (4xx). After a network failure or a 5xx the request may have gone through, so a retry of the
 *   same request keeps the key (the server answers the first result, never charges twice); a
 *   changed request (another quantity, other cards) is a new intent and gets a new key.
 *
 * Components in several features use it, so it lives here rather than in one feature.
 */
export function useMoneyAction<I, R>(send: (input: I, idempotencyKey: string) => Promise<R>): MoneyAction<I, R> {
  const [key] = useState(newIdempotencyKey);
  const current = useRef<{ key: string; sent: string | null }>({ key, sent: null });
  const inFlight = useRef(false);
  const sendRef = useRef(send);
  sendRef.current = send;
  const quietUntil = useRef(0);
  const [pending, setPending] = useState<{ input: I } | null>(null);

  const ready = useCallback(
    (event?: { detail: number }) => !inFlight.current && !isRepeatClick(event) && performance.now() >= quietUntil.current,
    [],
  );
  const guardClick = useCallback(
    (event: { detail: number; preventDefault(): void }) => {
      if (!ready(event)) event.preventDefault();
    },
    [ready],
  );

  const run = useCallback(async (input: I, event?: { detail: number }): Promise<R | undefined> => {
    if (!ready(event)) return undefined;
    inFlight.current = true;
    setPending({ input });
    const body = JSON.stringify(input ?? null);
    if (current.current.sent !== null && current.current.sent !== body) current.current = { key: newIdempotencyKey(), sent: null };
    current.current.sent = body;
    try {
      const result = await sendRef.current(input, current.current.key);
      current.current = { key: newIdempotencyKey(), sent: null };
      return result;
    } catch (err) {
      if (!mayBeUnanswered(err)) current.current = { key: newIdempotencyKey(), sent: null };
      throw err;
    } finally {
      inFlight.current = false;
      quietUntil.current = performance.now() + GESTURE_TAIL_MS;
      setPending(null);
    }
  }, [ready]);

  return { run, ready, guardClick, busy: pending !== null, pending: pending?.input ?? null };
}
