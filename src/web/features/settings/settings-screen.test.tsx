import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS, SETTING_KEYS, type AdminSettings } from '@shared/contracts/settings';
import { DEFAULT_SHIPPING_SETTINGS } from '@shared/contracts/shipping';
import { SettingsScreen } from './settings-screen';

/** The settings screen: a form per registry entry, the registry's bounds in the browser, the server's field messages on the field. */

const listing: AdminSettings = {
  settings: SETTING_KEYS.map((key) => {
    const d = SETTINGS[key];
    return {
      key,
      value: d.default,
      default: d.default,
      label: d.label,
      help: d.help,
      group: d.group,
      ownerOnly: 'ownerOnly' in d && d.ownerOnly === true,
      ownerReason: ('ownerReason' in d ? d.ownerReason : null) ?? null,
      public: 'public' in d && d.public === true,
      updatedAt: null,
    };
  }),
  history: [],
  callerIsOwner: false,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

function renderScreen(put: (body: unknown) => Response, callerIsOwner = true, extra: Partial<AdminSettings> = {}) {
  const calls: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      if ((init.method ?? 'GET') === 'GET') return json({ ...listing, callerIsOwner, ...extra });
      const body = JSON.parse(String(init.body)) as unknown;
      calls.push(body);
      return put(body);
    }),
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SettingsScreen />
    </QueryClientProvider>,
  );
  return calls;
}

describe('settings screen', () => {
  it('groups the forms and refuses a rate above 100% on its field without asking the server', async () => {
    const calls = renderScreen(() => json({}));
    const rate = await screen.findByRole('textbox', { name: /Default buyback rate/ });
    expect(screen.getByRole('heading', { level: 2, name: 'Shop' })).toBeTruthy();
    fireEvent.input(rate, { target: { value: '101' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Default buyback rate' }));
    expect(await screen.findByText(/cannot be above 100%/)).toBeTruthy();
    await waitFor(() => expect(rate.getAttribute('aria-invalid')).toBe('true'));
    expect(calls).toEqual([]);
  });

  it('shows an admin the money and identity settings locked, with the reason, and leaves them the big-pull thresholds', async () => {
    renderScreen(() => json({}), false);
    const rate = await screen.findByRole('textbox', { name: /Default buyback rate/ });
    expect(rate.closest('fieldset')?.disabled).toBe(true);
    expect(screen.getAllByText(/Only the owner can change this setting\. It creates or moves money/).length).toBeGreaterThan(0);
    expect(screen.getByText(/a changed address could take their replies/)).toBeTruthy();
    const pulls = screen.getByRole('textbox', { name: /Top-pull threshold/ });
    expect(pulls.closest('fieldset')?.disabled).toBe(false);
  });

  it('sends { value } and puts the server’s field messages on the field', async () => {
    const calls = renderScreen(() =>
      json({ error: { code: 'validation_failed', message: 'Check the form.', fields: { 'value.maxCents': ['Too high for this shop.'] } } }, 400),
    );
    const max = await screen.findByRole('textbox', { name: /Maximum deposit/ });
    fireEvent.input(max, { target: { value: '900' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Deposit limits' }));
    expect(await screen.findByText('Too high for this shop.')).toBeTruthy();
    await waitFor(() => expect(max.getAttribute('aria-invalid')).toBe('true'));
    expect(calls).toEqual([{ value: { minCents: 500, maxCents: 90_000 } }]);
  });

  it('shows money in dollars and rates in percent, with the unit beside each field, and sends cents and basis points', async () => {
    const calls = renderScreen((body) => json({ ...listing.settings.find((e) => e.key === 'shipping.settings'), value: (body as { value: unknown }).value }));
    const base = await screen.findByRole('textbox', { name: /^Base fee\s*\(in dollars\)/ });
    const insurance = screen.getByRole('textbox', { name: /^Insurance rate\s*\(in percent\)/ });
    expect((base as HTMLInputElement).value).toBe((DEFAULT_SHIPPING_SETTINGS.baseFeeCents / 100).toFixed(2));
    expect((insurance as HTMLInputElement).value).toBe(String(DEFAULT_SHIPPING_SETTINGS.insuranceRateBp / 100));
    expect(base.parentElement?.textContent).toContain('$');
    expect(insurance.parentElement?.textContent).toContain('%');
    fireEvent.input(base, { target: { value: '5' } });
    fireEvent.input(insurance, { target: { value: '2.25' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Shipping fees and countries' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({ value: { ...DEFAULT_SHIPPING_SETTINGS, baseFeeCents: 500, insuranceRateBp: 225 } });
    // Shown back in dollars once saved.
    await waitFor(() => expect((base as HTMLInputElement).value).toBe('5.00'));
  });

  it('names a value that is not an amount or a percent on its field, and shows the history in dollars', async () => {
    const calls = renderScreen(() => json({}), true, {
      history: [
        {
          id: '1',
          action: 'settings.update',
          targetType: 'app_setting',
          targetId: 'payments.depositLimits',
          actorId: null,
          actorUsername: 'owner',
          actorEmail: null,
          before: { value: { minCents: 500, maxCents: 100_000 } },
          after: { value: { minCents: 1_000, maxCents: 100_000 } },
          ip: null,
          createdAt: '2026-01-02T03:04:05.000Z',
        },
      ],
    });
    const min = await screen.findByRole('textbox', { name: /^Minimum deposit\s*\(in dollars\)/ });
    fireEvent.input(min, { target: { value: 'five' } });
    const rate = screen.getByRole('textbox', { name: /^Default buyback rate\s*\(in percent\)/ });
    fireEvent.input(rate, { target: { value: '85.555' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Deposit limits' }));
    fireEvent.submit(screen.getByRole('form', { name: 'Default buyback rate' }));
    expect(await screen.findByText('Enter an amount in dollars, like 5 or 5.25.')).toBeTruthy();
    expect(await screen.findByText('Enter a percent with up to 2 decimals, like 85 or 1.5.')).toBeTruthy();
    expect(calls).toEqual([]);
    const history = screen.getByRole('list', { name: 'Setting changes' });
    expect(history.textContent).toContain('Minimum deposit: $5.00');
    expect(history.textContent).toContain('Minimum deposit: $10.00');
  });
});
