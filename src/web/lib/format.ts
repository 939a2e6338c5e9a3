/**
 * How the web shows times and counts. One rule for time zones:
 * - an instant (an ISO timestamp from the API: createdAt, paidAt…) is shown in the viewer's own
 *   time zone, as the browser knows it;
 * - a calendar day (yyyy-mm-dd from the API: report buckets, which the server counts per UTC day)
 *   is shown as that same day, never shifted by the viewer's offset.
 * Money has its own formatter, shared with the server: formatMoney in shared/money.ts.
 */

import { groupThousands } from '@shared/money';

// Built on first use, not when the module loads: the first Intl formatter of a page loads ICU's
// data (90–170 ms of main thread on a phone), and most pages show no date. Counts and relative
// times, which nearly every page shows, are written without Intl (below).
let dateTime: Intl.DateTimeFormat | undefined;
let dateOnly: Intl.DateTimeFormat | undefined;
let utcDay: Intl.DateTimeFormat | undefined;

/** An instant, in the viewer's zone: "Nov 24, 2026, 3:14 AM". */
export const formatDateTime = (iso: string | Date) =>
  (dateTime ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })).format(new Date(iso));

/** The date of an instant, in the viewer's zone: "Nov 24, 2026". */
export const formatDate = (iso: string | Date) => (dateOnly ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })).format(new Date(iso));

/** A calendar day (yyyy-mm-dd, a UTC day from the API) as that day: "Nov 24, 2026". */
export const formatDay = (day: string) =>
  (utcDay ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })).format(new Date(`${day}T00:00:00Z`));

/**
 * A whole number grouped as the site's English text is (and as its prices are, shared/money.ts):
 * "12,345". Anything but a whole number goes through Intl.
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n)) return n < 0 ? `-${groupThousands(-n)}` : groupThousands(n);
  return new Intl.NumberFormat('en-US').format(n);
}

/**
 * A count with its noun agreeing: plural(1, 'card') → "1 card", plural(3, 'card') → "3 cards",
 * plural(2, 'entry', 'entries'). Every "N things" the web shows goes through here (issue 19: "1 cards").
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** n units ago or ahead, as Intl.RelativeTimeFormat('en', { numeric: 'auto' }) words it. */
function relative(n: number, unit: 'minute' | 'hour' | 'day'): string {
  if (unit === 'day' && (n === 1 || n === -1)) return n < 0 ? 'yesterday' : 'tomorrow';
  const words = `${formatCount(Math.abs(n))} ${Math.abs(n) === 1 ? unit : `${unit}s`}`;
  return n < 0 ? `${words} ago` : `in ${words}`;
}

/** "just now", "3 minutes ago", "yesterday"…; the date itself after a month. */
export function timeAgo(iso: string, now = Date.now()): string {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative(Math.round(s / 60), 'minute');
  if (abs < 86_400) return relative(Math.round(s / 3600), 'hour');
  if (abs < 30 * 86_400) return relative(Math.round(s / 86_400), 'day');
  return formatDate(iso);
}

/** yyyy-mm-dd of a Date in the viewer's zone (the value of a date input). */
export function isoDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
