import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS, SETTING_KEYS, type AdminSettings } from '@shared/contracts/settings';
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

function renderScreen(put: (body: unknown) => Response) {
  const calls: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      if ((init.method ?? 'GET') === 'GET') return json(listing);
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
  it('groups the forms, refuses a rate above 100% on its field without asking the server, and locks owner-only ones', async () => {
    const calls = renderScreen(() => json({}));
    const rate = await screen.findByRole('textbox', { name: /Default buyback rate/ });
    expect(screen.getByRole('heading', { level: 2, name: 'Shop' })).toBeTruthy();
    fireEvent.input(rate, { target: { value: '10001' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Default buyback rate' }));
    expect(await screen.findByText(/cannot be above 100%/)).toBeTruthy();
    await waitFor(() => expect(rate.getAttribute('aria-invalid')).toBe('true'));
    expect(calls).toEqual([]);
    expect(screen.getByText('Only the owner can change this setting.')).toBeTruthy();
  });

  it('sends { value } and puts the server’s field messages on the field', async () => {
    const calls = renderScreen(() =>
      json({ error: { code: 'validation_failed', message: 'Check the form.', fields: { 'value.maxCents': ['Too high for this shop.'] } } }, 400),
    );
    const max = await screen.findByRole('textbox', { name: /Maximum deposit/ });
    fireEvent.input(max, { target: { value: '90000' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Deposit limits' }));
    expect(await screen.findByText('Too high for this shop.')).toBeTruthy();
    await waitFor(() => expect(max.getAttribute('aria-invalid')).toBe('true'));
    expect(calls).toEqual([{ value: { minCents: 500, maxCents: 90_000 } }]);
  });
});
