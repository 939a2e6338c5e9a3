/**
 * How the web shows times and counts. One rule for time zones:
 * - an instant (an ISO timestamp from the API: createdAt, paidAt…) is shown in the viewer's own
 *   time zone, as the browser knows it;
 * - a calendar day (yyyy-mm-dd from the API: report buckets, which the server counts per UTC day)
 *   is shown as that same day, never shifted by the viewer's offset.
 * Money has its own formatter, shared with the server: formatMoney in shared/money.ts.
 */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const count = new Intl.NumberFormat(undefined);

/** An instant, in the viewer's zone: "Nov 24, 2026, 3:14 AM". */
export const formatDateTime = (iso: string | Date) => dateTime.format(new Date(iso));

/** The date of an instant, in the viewer's zone: "Nov 24, 2026". */
export const formatDate = (iso: string | Date) => dateOnly.format(new Date(iso));

/** A calendar day (yyyy-mm-dd, a UTC day from the API) as that day: "Nov 24, 2026". */
export const formatDay = (day: string) => utcDay.format(new Date(`${day}T00:00:00Z`));

/** A whole number with the viewer's grouping: "12,345". */
export const formatCount = (n: number) => count.format(n);

/**
 * A count with its noun agreeing: plural(1, 'card') → "1 card", plural(3, 'card') → "3 cards",
 * plural(2, 'entry', 'entries'). Every "N things" the web shows goes through here (issue 19: "1 cards").
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** "3 minutes ago", "yesterday"…; the date itself after a month. */
export function timeAgo(iso: string, now = Date.now()): string {
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 30 * 86_400) return rtf.format(Math.round(s / 86_400), 'day');
  return formatDate(iso);
}

/** yyyy-mm-dd of a Date in the viewer's zone (the value of a date input). */
export function isoDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
