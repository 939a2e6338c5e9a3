import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { NOTIFICATION_KINDS, type NotificationPreferences } from '@shared/contracts/notifications';
import { badgeText, bellLabel, BellButton } from './bell-button';
import { preferencesResolver, toFormValues, toInput, type PreferencesFormValues } from './preferences-form';

afterEach(cleanup);

describe('the bell', () => {
  it('is named "Notifications" with nothing unread, and shows no badge', () => {
    render(<BellButton unread={0} />);
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByTestId('notification-badge')).toBeNull();
  });

  it('carries the count in its name; the visible badge is hidden from assistive tech', () => {
    render(<BellButton unread={3} />);
    const button = screen.getByRole('button', { name: 'Notifications, 3 unread' });
    const badge = screen.getByTestId('notification-badge');
    expect(badge.textContent).toBe('3');
    expect(badge.getAttribute('aria-hidden')).toBe('true');
    expect(button.contains(badge)).toBe(true);
  });

  it('caps the badge at 99+ but names the exact count', () => {
    render(<BellButton unread={250} />);
    screen.getByRole('button', { name: 'Notifications, 250 unread' });
    expect(screen.getByTestId('notification-badge').textContent).toBe('99+');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(bellLabel(1)).toBe('Notifications, 1 unread');
  });

  it('passes clicks through', () => {
    const onClick = vi.fn();
    render(<BellButton unread={0} onClick={onClick} />);
    screen.getByRole('button', { name: 'Notifications' }).click();
    expect(onClick).toHaveBeenCalledOnce();
  });
});

const prefs: NotificationPreferences = {
  preferences: NOTIFICATION_KINDS.map((kind) => ({ kind, inApp: true, email: kind !== 'big_pull', emailLocked: kind === 'security' })),
  bigPullThresholdCents: 5_000,
  defaultBigPullThresholdCents: 5_000,
};

async function errorsOf(v: PreferencesFormValues) {
  const r = await preferencesResolver(v, undefined, { fields: {}, shouldUseNativeValidation: false });
  return Object.fromEntries(Object.entries(r.errors as Record<string, { message?: string }>).map(([k, e]) => [k, e?.message]));
}

describe('the preferences form', () => {
  it('starts from the saved settings, with the threshold in dollars', async () => {
    const v = toFormValues(prefs);
    expect(v.threshold).toBe('50');
    expect(v.channels.big_pull).toEqual({ inApp: true, email: false });
    expect(toFormValues({ ...prefs, bigPullThresholdCents: 1_250 }).threshold).toBe('12.50');
    expect(await errorsOf(v)).toEqual({});
  });

  it('checks the threshold against the shared limits', async () => {
    const v = toFormValues(prefs);
    expect(await errorsOf({ ...v, threshold: '' })).toEqual({ threshold: 'Enter an amount in dollars, like 50.' });
    expect(await errorsOf({ ...v, threshold: 'lots' })).toEqual({ threshold: 'Enter an amount in dollars, like 50 or 12.50.' });
    expect(await errorsOf({ ...v, threshold: '0.50' })).toEqual({ threshold: 'At least $1.00.' });
    expect(await errorsOf({ ...v, threshold: '100000.01' })).toEqual({ threshold: 'At most $100,000.00.' });
    expect(await errorsOf({ ...v, threshold: '$1,000.5' })).toEqual({});
  });

  it('sends every kind, cents, and security mail always on', () => {
    const v = toFormValues(prefs);
    v.channels.deposit_credited.email = false;
    v.channels.security.email = false;
    const input = toInput({ ...v, threshold: '$1,000.5' });
    expect(input.bigPullThresholdCents).toBe(100_050);
    expect(input.preferences).toHaveLength(NOTIFICATION_KINDS.length);
    expect(input.preferences?.find((p) => p.kind === 'deposit_credited')).toEqual({ kind: 'deposit_credited', inApp: true, email: false });
    expect(input.preferences?.find((p) => p.kind === 'security')?.email).toBe(true);
  });
});
