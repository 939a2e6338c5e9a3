import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS } from '@shared/contracts/referrals';
import { percentToBps } from '@shared/money';
import { ReferralSettingsForm, settingsResolver, settingsToForm, type SettingsFormValues } from './admin-settings';

/** The settings form: dollars and a percent in, the contract's cents and basis points out, messages on the right fields. */

const opts = { fields: {}, shouldUseNativeValidation: false } as never;
const form = (patch: Partial<SettingsFormValues> = {}) => ({ ...settingsToForm(DEFAULT_REFERRAL_SETTINGS), ...patch });
async function errorsOf(v: SettingsFormValues) {
  const r = await settingsResolver(v, undefined, opts);
  return Object.fromEntries(Object.entries(r.errors).map(([k, e]) => [k, (e as { message?: string }).message]));
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('referral settings form', () => {
  it('shows money in dollars and the share as a percent, and converts back', async () => {
    const v = form();
    expect(v).toMatchObject({ referrerRewardCents: '5.00', qualifyingDepositCents: '20.00', shareBps: '2', shareDays: '30', shareCapCents: '25.00' });
    const r = await settingsResolver({ ...v, shareBps: '2.5', refereeRewardCents: '$7.5' }, undefined, opts);
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({ ...DEFAULT_REFERRAL_SETTINGS, shareBps: 250, refereeRewardCents: 750 });
    expect(percentToBps('12.345')).toBeNull();
    expect(percentToBps('20%')).toBe(2000);
  });

  it('names the field of every bad value, with the contract’s limits', async () => {
    expect(await errorsOf(form({ referrerRewardCents: 'five', shareBps: '', shareDays: '1.5' }))).toEqual({
      referrerRewardCents: 'Enter an amount in dollars, like 5 or 5.00.',
      shareBps: 'Enter a percent with up to 2 decimals, like 2 or 2.5.',
      shareDays: 'Enter a whole number of days.',
    });
    expect(await errorsOf(form({ refereeRewardCents: '1000.01', qualifyingDepositCents: '0.50', shareBps: '25', shareDays: '400', shareCapCents: '10000.01' }))).toEqual({
      refereeRewardCents: 'At most $1,000.00.',
      qualifyingDepositCents: 'At least $1.00.',
      shareBps: 'At most 20%.',
      shareDays: 'At most a year.',
      shareCapCents: 'At most $10,000.00.',
    });
  });

  it('sends the contract and puts server field messages on the fields', async () => {
    const calls: Array<{ method: string; body: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        calls.push({ method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
        return new Response(JSON.stringify({ error: { code: 'validation_failed', message: 'Check the form.', fields: { shareCapCents: ['A cap is needed with a share.'] } } }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const qc = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    render(
      <QueryClientProvider client={qc}>
        <ReferralSettingsForm settings={DEFAULT_REFERRAL_SETTINGS} />
      </QueryClientProvider>,
    );
    fireEvent.input(screen.getByRole('textbox', { name: /Friend reward/ }), { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('A cap is needed with a share.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Share cap/ }).getAttribute('aria-invalid')).toBe('true'));
    expect(calls[0]).toEqual({ method: 'PUT', body: { ...DEFAULT_REFERRAL_SETTINGS, refereeRewardCents: 600 } });
  });
});
