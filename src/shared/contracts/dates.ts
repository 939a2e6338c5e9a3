import { z } from 'zod';

/**
 * Date filters shared by every history and list query (wallet history, admin buybacks, the
 * audit log): one strict parse, so a malformed or impossible date ("2020-13-45", "2020-02-31")
 * is a 400 with a field message instead of reaching `new Date()` (which either throws a 500
 * or rolls over into the next month).
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a YYYY-MM-DD string naming a day that exists in the calendar. */
export function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** A calendar day in UTC, YYYY-MM-DD. */
export const daySchema = z.string().refine(isCalendarDay, 'Use a real date like 2025-01-31.');

/** A calendar day (midnight UTC) or an ISO 8601 date-time with a zone (zod checks the calendar too). */
export const instantSchema = z
  .string()
  .refine((s) => isCalendarDay(s) || z.iso.datetime({ offset: true }).safeParse(s).success, 'Use a real date like 2025-01-31 or a date-time like 2025-01-31T12:00:00Z.');

/** Milliseconds since the epoch of a value that passed daySchema or instantSchema. */
export function instantMs(s: string): number {
  return Date.parse(isCalendarDay(s) ? `${s}T00:00:00Z` : s);
}

/** The first instant after the day `s` (for an inclusive `to` day). */
export function dayEnd(s: string): Date {
  const end = new Date(`${s}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return end;
}

/** Object-level check for a `from`/`to` pair: the range may not end before it starts. */
export function fromNotAfterTo(v: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (!v.from || !v.to) return;
  const a = instantMs(v.from);
  const b = instantMs(v.to);
  if (Number.isFinite(a) && Number.isFinite(b) && a > b) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date is before the start date.' });
  }
}

/** `from`/`to` query fields as calendar days (`to` inclusive); add `.superRefine(fromNotAfterTo)` to the object. */
export const dayRangeFields = { from: daySchema.optional(), to: daySchema.optional() };

/** `from`/`to` query fields as days or date-times; add `.superRefine(fromNotAfterTo)` to the object. */
export const instantRangeFields = { from: instantSchema.optional(), to: instantSchema.optional() };
