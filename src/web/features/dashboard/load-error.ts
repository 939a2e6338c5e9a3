import { ApiClientError } from '@web/lib/api';

/** What to do about a failed load, by what failed. */
export function loadErrorText(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.status === 0) return 'The server could not be reached. Check your connection; the page tries again every minute.';
    if (err.status === 401) return 'Your session has ended. Sign in again to see the dashboard.';
    if (err.status === 403) return 'This needs an admin account with two-factor confirmed in this session. Sign in again with your code.';
    if (err.status === 429) return 'Too many requests just now. Wait a minute and try again.';
    if (err.status >= 500) return 'The server failed to put the figures together. Try again; if it keeps failing, check the server logs.';
    return err.message;
  }
  return 'Something went wrong while loading the figures. Try again.';
}
