import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiClientError } from './api';
import { plural } from './format';

/** "Try again in 14 minutes" from a retryAfter in seconds. */
export function retryText(seconds: number | undefined): string {
  if (!seconds || seconds <= 0) return 'Wait a moment and try again.';
  if (seconds < 60) return `Try again in ${plural(seconds, 'second')}.`;
  return `Try again in ${plural(Math.ceil(seconds / 60), 'minute')}.`;
}

/**
 * Puts the server's per-field messages on the form's fields (the first field gets focus). `rename`
 * maps server field names to form field names when they differ. Returns true when any applied.
 */
export function applyServerFields<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  known: ReadonlyArray<Path<T>>,
  rename: Record<string, Path<T>> = {},
): boolean {
  if (!(err instanceof ApiClientError) || !err.fields) return false;
  let applied = false;
  for (const [serverName, messages] of Object.entries(err.fields)) {
    const name = rename[serverName] ?? (serverName as Path<T>);
    if (!known.includes(name) || !messages[0]) continue;
    setError(name, { type: 'server', message: messages[0] }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/** A message for a failure that no field explains: what happened and what to do next. */
export function errorText(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.status === 429) return `Too many attempts. ${retryText(err.retryAfter)}`;
    if (err.status === 401 && err.code === 'unauthorized') return 'Your session has ended. Sign in again, then retry.';
    return err.message;
  }
  return 'Something went wrong. Try again in a moment.';
}
