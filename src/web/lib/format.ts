/**
 * How the web shows times and counts. One rule for time zones:
 * - an instant (an ISO timestamp from the API: createdAt, paidAt…) is shown in the viewer's own
 *   time zone, as the browser knows it;
 * - a calendar day (yyyy-mm-dd from the API: report buckets, which the server counts per UTC day)
 *   is shown as that same day, never shifted by the viewer's offset.
 * Money has its own formatter, shared with the server: formatMoney in shared/money.ts.
 */

import { localizeInstants, plural } from '@shared/words';

// Built on first use, not when the module loads: the first Intl formatter of a page loads ICU's
// data (90–170 ms of main thread on a phone), and most pages show no date. Counts group their
// digits without Intl; their nouns agree through English plural rules (shared/words.ts).
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

// Counts and their nouns, articles: one home for both sides (shared/words.ts).
export { article, formatCount, plural, pluralNoun, verb, withArticle } from '@shared/words';

/** A card's chance in a pack, as people count it: "about 1 in 40 packs" reads better than 2.5 %. */
export function chanceText(expectedPerPack: number): string {
  if (expectedPerPack <= 0) return 'cannot be pulled right now';
  if (expectedPerPack >= 1) return `${expectedPerPack.toFixed(2)} per pack on average`;
  const n = 1 / expectedPerPack;
  return `about 1 in ${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')} packs`;
}

/**
 * A message from the API with each instant the server wrote in UTC ("… until 2026-03-01 14:05 UTC")
 * shown as the viewer's own date and time, in their zone.
 */
export const localizeMessage = (message: string) => localizeInstants(message, formatDateTime);

/** n units ago or ahead, as Intl.RelativeTimeFormat('en', { numeric: 'auto' }) words it. */
function relative(n: number, unit: 'minute' | 'hour' | 'day'): string {
  if (unit === 'day' && (n === 1 || n === -1)) return n < 0 ? 'yesterday' : 'tomorrow';
  const words = plural(Math.abs(n), unit);
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
