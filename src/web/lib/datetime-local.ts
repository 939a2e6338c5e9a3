import { isoDay } from './format';

/**
 * `<input type="datetime-local">` holds a wall-clock time with no zone; these turn it to and from the
 * instant the API speaks, in the viewer's own zone (LOCAL_ZONE, which admin forms name in their hints).
 */

/** The viewer's zone, named in date fields' hints so nobody guesses which clock they set. */
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant (ISO text or epoch ms) → a datetime-local value; '' for none, so an unset date shows an empty input. */
export function toLocalInput(instant: string | number | null | undefined): string {
  if (instant === null || instant === undefined || instant === '') return '';
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${isoDay(d)}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A datetime-local value → the ISO instant the API takes; '' and unparsable text come back as they are, so the schema names the field. */
export function fromLocalInput(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
}
