import { describe, expect, it } from 'vitest';

// The conversions read the viewer's zone; a fixed one with no daylight saving keeps the expectations exact.
process.env.TZ = 'Pacific/Honolulu';
const { fromLocalInput, toLocalInput } = await import('./datetime-local.ts');

describe('datetime-local values', () => {
  it('shows an instant as wall-clock time in the viewer’s zone (UTC−10 here)', () => {
    expect(toLocalInput('2026-11-24T05:07:00Z')).toBe('2026-11-23T19:07');
    expect(toLocalInput(Date.UTC(2026, 0, 2, 3, 4))).toBe('2026-01-01T17:04');
  });

  it('is empty for no date or one that does not parse', () => {
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput(undefined)).toBe('');
    expect(toLocalInput('')).toBe('');
    expect(toLocalInput('not a date')).toBe('');
  });

  it('turns a value back into the ISO instant, round trip included', () => {
    expect(fromLocalInput('2026-11-23T19:07')).toBe('2026-11-24T05:07:00.000Z');
    expect(fromLocalInput(toLocalInput('2026-03-08T12:30:00.000Z'))).toBe('2026-03-08T12:30:00.000Z');
  });

  it('leaves empty and unparsable text as it is, for the schema to name', () => {
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('soon')).toBe('soon');
  });
});
