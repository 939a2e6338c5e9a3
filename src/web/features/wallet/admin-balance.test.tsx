import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdjustLimitsView, AdminBalance as AdminBalanceData } from '@shared/contracts/wallet';
import { AdminBalance } from './admin-balance';
import { mockServer, type MockCall } from '@web/test/mock-server';

// The page's links need a router; plain anchors are enough here.
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children }: { children: ReactNode }) => <a href="#link">{children}</a>,
}));

const balance: AdminBalanceData = { userId: 'u_other', userLabel: 'other (other@example.test)', balanceCents: 1000, currency: 'USD', recent: [] };
const limits: AdjustLimitsView = { singleLimitCents: 500_00, dailyLimitCents: 2_000_00, hardMaxCents: 10_000_00, usedTodayCents: 300_00, callerIsOwner: false };

type Call = MockCall;

function renderBalance(userId: string, viewerId: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <AdminBalance userId={userId} viewerId={viewerId} />
    </QueryClientProvider>,
  );
}

const reads = (c: Call) => (c.url.includes('adjust-limits') ? { body: limits } : { body: balance });

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('AdminBalance', () => {
  it('offers no adjust form on one’s own account, and says whom to ask', async () => {
    mockServer(reads);
    renderBalance('u_me', 'u_me');
    expect(await screen.findByText('This is your own account')).toBeTruthy();
    expect(screen.getByText(/Ask another admin or the owner/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Review adjustment' })).toBeNull();
  });

  it('shows the limits left, and an owner_required refusal as what to do next', async () => {
    const calls = mockServer((c) =>
      c.method === 'POST'
        ? {
            status: 403,
            body: { error: { code: 'owner_required', message: 'Adjustments above $500.00 need the owner. Ask the owner to make this one.' } },
          }
        : reads(c),
    );
    renderBalance('u_other', 'u_me');
    expect(await screen.findByText(/\$1,700\.00 left/)).toBeTruthy();
    fireEvent.input(screen.getByRole('textbox', { name: 'Amount' }), { target: { value: '600' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'late shipment' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review adjustment' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Apply adjustment' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ amountCents: 600_00, reason: 'late shipment' });
    expect(await screen.findByText('This one needs the owner')).toBeTruthy();
    expect(screen.getByText(/Ask the owner to make this one/)).toBeTruthy();
  });

  it('takes its Idempotency-Key from the intent: kept for a retry after a server error, new after an answer', async () => {
    const answers = [{ status: 503, body: { error: { code: 'unavailable', message: 'Try again.' } } }, { body: { balanceCents: 1500 } }, { body: { balanceCents: 2000 } }];
    const calls = mockServer((c) => (c.method === 'POST' ? answers.shift()! : reads(c)));
    renderBalance('u_other', 'u_me');
    await screen.findByText(/\$1,700\.00 left/);
    const posts = () => calls.filter((c) => c.method === 'POST');
    const adjust = async (amount: string) => {
      fireEvent.input(screen.getByRole('textbox', { name: 'Amount' }), { target: { value: amount } });
      fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'late shipment' } });
      fireEvent.click(screen.getByRole('button', { name: 'Review adjustment' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Apply adjustment' }));
    };
    await adjust('5');
    await waitFor(() => expect(posts()).toHaveLength(1));
    // The dialog stays open after the failure: applying again is a retry of the same intent.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Apply adjustment' }) as HTMLButtonElement).disabled).toBe(false));
    await new Promise((r) => setTimeout(r, 600)); // past the click guard's gesture tail
    fireEvent.click(screen.getByRole('button', { name: 'Apply adjustment' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(posts()[1]!.key).toBe(posts()[0]!.key);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Apply adjustment' })).toBeNull());
    await new Promise((r) => setTimeout(r, 600));
    await adjust('5');
    await waitFor(() => expect(posts()).toHaveLength(3));
    expect(posts()[2]!.key).toBeTruthy();
    expect(posts()[2]!.key).not.toBe(posts()[0]!.key);
  });

  it('checks the amount and the reason before asking, under their fields', async () => {
    const calls = mockServer(reads);
    renderBalance('u_other', 'u_me');
    await screen.findByText(/\$1,700\.00 left/);
    fireEvent.change(screen.getByRole('combobox', { name: 'Direction' }), { target: { value: 'debit' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Amount' }), { target: { value: '20' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review adjustment' }));
    expect(await screen.findByText('A debit cannot take the balance below zero (it is $10.00).')).toBeTruthy();
    expect(screen.getByText('Give a reason (at least 3 characters).')).toBeTruthy();
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(amount.getAttribute('aria-describedby')).toBe(`${amount.id}-error`);
    fireEvent.input(amount, { target: { value: 'lots' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review adjustment' }));
    expect(await screen.findByText('Enter an amount like 5 or 12.50.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Apply adjustment' })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('sends a debit as negative cents, and puts a field refusal under its field', async () => {
    const calls = mockServer((c) =>
      c.method === 'POST'
        ? { status: 400, body: { error: { code: 'validation_failed', message: 'Check the form.', fields: { reason: ['Say what the debit corrects.'] } } } }
        : reads(c),
    );
    renderBalance('u_other', 'u_me');
    await screen.findByText(/\$1,700\.00 left/);
    fireEvent.change(screen.getByRole('combobox', { name: 'Direction' }), { target: { value: 'debit' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Amount' }), { target: { value: '2.50' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'oops' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review adjustment' }));
    expect(await screen.findByRole('dialog', { name: 'Debit $2.50?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Apply adjustment' }));
    expect(await screen.findByText('Say what the debit corrects.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ amountCents: -250, reason: 'oops' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Reason' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Check the form.')).toBeNull();
  });

  it('lets the owner set the limits: dollars in, cents out, messages on the fields', async () => {
    const ownerLimits = { ...limits, callerIsOwner: true };
    let put: { status?: number; body: unknown } = { status: 400, body: { error: { code: 'validation_failed', message: 'Check the form.', fields: { singleLimitCents: ['Too high for this shop.'] } } } };
    const calls = mockServer((c) => (c.method === 'PUT' ? put : c.url.includes('adjust-limits') ? { body: ownerLimits } : { body: balance }));
    renderBalance('u_other', 'u_me');
    const single = (await screen.findByRole('textbox', { name: 'Per adjustment' })) as HTMLInputElement;
    const daily = screen.getByRole('textbox', { name: 'Per admin per 24 hours' }) as HTMLInputElement;
    expect(single.value).toBe('500.00');
    fireEvent.input(single, { target: { value: '' } });
    fireEvent.input(daily, { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Enter an amount.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.input(single, { target: { value: '200' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('The daily limit cannot be below the single-adjustment limit.')).toBeTruthy();
    await waitFor(() => expect(daily.getAttribute('aria-invalid')).toBe('true'));
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.input(daily, { target: { value: '1,500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Too high for this shop.')).toBeTruthy();
    await waitFor(() => expect(single.getAttribute('aria-invalid')).toBe('true'));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ singleLimitCents: 200_00, dailyLimitCents: 1_500_00 });

    put = { body: { ...ownerLimits, singleLimitCents: 150_00, dailyLimitCents: 1_500_00 } };
    fireEvent.input(single, { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')[1]!.body).toEqual({ singleLimitCents: 150_00, dailyLimitCents: 1_500_00 });
    await waitFor(() => expect(single.getAttribute('aria-invalid')).toBeNull());
    expect(single.value).toBe('150.00');
  });

  it('shows limits another owner saved, except in a field being edited', async () => {
    let current = { ...limits, callerIsOwner: true };
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    mockServer((c) => (c.url.includes('adjust-limits') ? { body: current } : { body: balance }));
    render(
      <QueryClientProvider client={qc}>
        <AdminBalance userId="u_other" viewerId="u_me" />
      </QueryClientProvider>,
    );
    const single = (await screen.findByRole('textbox', { name: 'Per adjustment' })) as HTMLInputElement;
    const daily = screen.getByRole('textbox', { name: 'Per admin per 24 hours' }) as HTMLInputElement;
    fireEvent.input(daily, { target: { value: '1234' } });
    current = { ...current, singleLimitCents: 300_00, dailyLimitCents: 3_000_00 };
    await qc.invalidateQueries();
    await waitFor(() => expect(single.value).toBe('300.00'));
    expect(daily.value).toBe('1234');
  });
});
