import { describe, expect, it } from 'vitest';

// The formatters resolve the viewer's time zone when the module loads, so the zone is set first.
process.env.TZ = 'Pacific/Honolulu';
const { formatDate, formatDateTime, formatDay, isoDay } = await import('./format.ts');

describe('one time-zone rule', () => {
  it("shows an instant in the viewer's zone (UTC−10 here)", () => {
    expect(formatDate('2026-11-24T05:00:00Z')).toMatch(/23/);
    expect(formatDateTime('2026-11-24T05:00:00Z')).toMatch(/23.*7:00/);
  });
  it('shows a calendar day from the API as that day, whatever the zone', () => {
    expect(formatDay('2026-11-24')).toMatch(/24/);
    expect(formatDay('2026-01-01')).toMatch(/2026/);
  });
  it('gives a date input the local day', () => {
    expect(isoDay(new Date('2026-11-24T05:00:00Z'))).toBe('2026-11-23');
  });
});
