import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Limits } from '@shared/contracts/wallet';
import { ResponsiblePlaySection } from './responsible-play';

const none = { limitCents: null, pending: null, usedCents: 0 };
const base: Limits = { limits: { day: { ...none }, week: { ...none }, month: { ...none } }, selfExclusion: null };

interface Call {
  method: string;
  url: string;
  body: unknown;
}

function mockServer(answer: (call: Call) => { status?: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const r = answer(call);
      return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function renderSection() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <ResponsiblePlaySection />
    </QueryClientProvider>,
  );
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('ResponsiblePlaySection', () => {
  it('saves a lower limit and explains when a raise waits 24 hours', async () => {
    const calls = mockServer((c) => {
      if (c.method === 'PUT') {
        return {
          body: {
            ...base,
            limits: {
              ...base.limits,
              day: { limitCents: 2000, pending: { limitCents: 5000, effectiveAt: '2030-01-02T00:00:00Z' }, usedCents: 0 },
            },
          },
        };
      }
      return { body: base };
    });
    renderSection();
    const daily = await screen.findByRole('textbox', { name: 'Daily limit' });
    fireEvent.input(daily, { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ day: 5000 });
    expect(await screen.findByText(/raising or removing a limit takes effect after 24 hours/)).toBeTruthy();
  });

  it('refuses a malformed limit before calling the server', async () => {
    const calls = mockServer(() => ({ body: base }));
    renderSection();
    fireEvent.input(await screen.findByRole('textbox', { name: 'Weekly limit' }), { target: { value: 'lots' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText(/Enter an amount of at least 1.00/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('needs the confirmation box and a second confirmation to start a break', async () => {
    const calls = mockServer((c) =>
      c.method === 'POST' ? { body: { ...base, selfExclusion: { endsAt: '2030-01-08T00:00:00Z', duration: '7d' } } } : { body: base },
    );
    renderSection();
    fireEvent.change(await screen.findByRole('combobox', { name: 'Length' }), { target: { value: '7d' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start my break' }));
    expect(await screen.findByText('Tick the box to confirm you understand.')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Start my break' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, start the break' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ duration: '7d', confirm: true });
    expect(await screen.findByText('You are taking a break')).toBeTruthy();
  });

  it('tells the user what to do when the limits cannot load', async () => {
    mockServer(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side.' } } }));
    renderSection();
    expect(await screen.findByText('Your limits could not load')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
