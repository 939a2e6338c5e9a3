import { describe, expect, it } from 'vitest';

// The formatters resolve the viewer's time zone when the module loads, so the zone is set first.
process.env.TZ = 'Pacific/Honolulu';
const { formatDate, formatDateTime, formatDay, isoDay, localizeMessage } = await import('./format.ts');

describe('one time-zone rule', () => {
  it("shows an instant in the viewer's zone (UTC−10 here)", () => {
    expect(formatDate('2026-11-24T05:00:00Z')).toMatch(/23/);
    expect(formatDateTime('2026-11-24T05:00:00Z')).toMatch(/23.*7:00/);
  });
  it('shows a calendar day from the API as that day, whatever the zone', () => {
    expect(formatDay('2026-11-24')).toMatch(/24/);
    expect(formatDay('2026-01-01')).toMatch(/2026/);
  });
  it("shows an instant the server wrote in UTC in the viewer's zone", () => {
    expect(localizeMessage('You have excluded yourself until 2026-11-24 05:00 UTC, so depositing is blocked until then.')).toMatch(
      /until Nov 23, 2026, 7:00\sPM, so depositing/,
    );
  });
  it('gives a date input the local day', () => {
    expect(isoDay(new Date('2026-11-24T05:00:00Z'))).toBe('2026-11-23');
  });
});

describe('counts and relative times', () => {
  it('groups counts as the English text around them', async () => {
    const { formatCount, plural } = await import('./format.ts');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1234)).toBe('-1,234');
    expect(formatCount(12.5)).toBe('12.5');
    expect(plural(1, 'card')).toBe('1 card');
    expect(plural(1000, 'entry', 'entries')).toBe('1,000 entries');
  });

  it('words a time as Intl.RelativeTimeFormat does', async () => {
    const { timeAgo } = await import('./format.ts');
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    const now = Date.parse('2026-11-24T12:00:00Z');
    const at = (s: number) => new Date(now + s * 1000).toISOString();
    expect(timeAgo(at(-10), now)).toBe('just now');
    expect(timeAgo(at(20), now)).toBe('just now');
    for (const [s, unit, n] of [
      [-50, 'minute', -1],
      [-60, 'minute', -1],
      [-150, 'minute', -2],
      [-3599, 'minute', -60],
      [240, 'minute', 4],
      [-3600, 'hour', -1],
      [-7200 * 5, 'hour', -10],
      [7200, 'hour', 2],
      [-86_400, 'day', -1],
      [86_400, 'day', 1],
      [-86_400 * 12, 'day', -12],
      [86_400 * 3, 'day', 3],
    ] as const) {
      expect(timeAgo(at(s), now)).toBe(rtf.format(n, unit));
    }
    expect(timeAgo(at(-86_400 * 40), now)).toMatch(/2026/);
  });
});
