import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdjustLimitsView, AdminBalance as AdminBalanceData } from '@shared/contracts/wallet';
import { AdminBalance } from './admin-balance';

// The page's links need a router; plain anchors are enough here.
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children }: { children: ReactNode }) => <a href="#link">{children}</a>,
}));

const balance: AdminBalanceData = { userId: 'u_other', userLabel: 'other (other@example.test)', balanceCents: 1000, currency: 'USD', recent: [] };
const limits: AdjustLimitsView = { singleLimitCents: 500_00, dailyLimitCents: 2_000_00, hardMaxCents: 10_000_00, usedTodayCents: 300_00, callerIsOwner: false };

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
});
