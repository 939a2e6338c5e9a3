import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Limits } from '@shared/contracts/wallet';
import { ResponsiblePlaySection } from './responsible-play';
import { mockServer } from '@web/test/mock-server';

const none = { limitCents: null, pending: null, usedCents: 0 };
const base: Limits = { limits: { day: { ...none }, week: { ...none }, month: { ...none } }, selfExclusion: null };


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
    const weekly = screen.getByRole('textbox', { name: 'Weekly limit' });
    expect(weekly.getAttribute('aria-invalid')).toBe('true');
    expect(weekly.getAttribute('aria-describedby')).toContain(`${weekly.id}-error`);
    fireEvent.input(weekly, { target: { value: '2000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('That limit is too high.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('says when nothing changed, and puts a server field message under its limit', async () => {
    const calls = mockServer((c) =>
      c.method === 'PUT'
        ? { status: 400, body: { error: { code: 'validation_failed', message: 'Check the form.', fields: { month: ['Below what you deposited this month.'] } } } }
        : { body: { ...base, limits: { ...base.limits, day: { ...none, limitCents: 2500 } } } },
    );
    renderSection();
    const daily = (await screen.findByRole('textbox', { name: 'Daily limit' })) as HTMLInputElement;
    expect(daily.value).toBe('25');
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Nothing changed.')).toBeTruthy();
    fireEvent.input(daily, { target: { value: '' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Monthly limit' }), { target: { value: '$1,000.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Below what you deposited this month.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ day: null, month: 100050 });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Monthly limit' }).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('Check the form.')).toBeNull();
  });

  it('needs the confirmation box and a second confirmation to start a break', async () => {
    const calls = mockServer((c) =>
      c.method === 'POST' ? { body: { ...base, selfExclusion: { endsAt: '2030-01-08T00:00:00Z', duration: '7d' } } } : { body: base },
    );
    renderSection();
    fireEvent.change(await screen.findByRole('combobox', { name: 'Length' }), { target: { value: '7d' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start my break' }));
    expect(await screen.findByText('Tick the box to confirm you understand.')).toBeTruthy();
    expect(screen.getByRole('checkbox').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Start my break' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, start the break' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ duration: '7d', confirm: true });
    expect(await screen.findByText('You are taking a break')).toBeTruthy();
  });

  it('puts a server field refusal of a break under its field', async () => {
    mockServer((c) =>
      c.method === 'POST'
        ? { status: 400, body: { error: { code: 'validation_failed', message: 'Check the form.', fields: { duration: ['Choose a longer break than the one running.'] } } } }
        : { body: base },
    );
    renderSection();
    await screen.findByRole('combobox', { name: 'Length' });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Start my break' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, start the break' }));
    expect(await screen.findByText('Choose a longer break than the one running.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('combobox', { name: 'Length' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('tells the user what to do when the limits cannot load', async () => {
    mockServer(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side.' } } }));
    renderSection();
    expect(await screen.findByText('Your limits could not load')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
