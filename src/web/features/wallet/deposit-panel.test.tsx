import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, mockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import { DepositPanel } from './deposit-panel';

const navigate = vi.fn(async (_: unknown) => {});
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => navigate }));

const options = {
  provider: 'sandbox',
  testMode: true,
  currency: 'USD',
  minCents: 500,
  maxCents: 100_000,
  presetsCents: [1000, 2500, 5000],
  pendingBonus: null,
};
const started = {
  status: 201,
  body: { deposit: { id: '00000000-0000-4000-8000-00000000000d' }, checkoutUrl: '/checkout/00000000-0000-4000-8000-00000000000d' },
};

function renderPanel(answer: (c: MockCall) => MockAnswer, returnPath?: string) {
  const calls = mockServer((c) => (c.method === 'GET' && c.url.startsWith('/api/wallet/deposit-options') ? { body: options } : answer(c)));
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <DepositPanel returnPath={returnPath} />
    </QueryClientProvider>,
  );
  return calls;
}
const posts = (calls: MockCall[]) => calls.filter((c) => c.method === 'POST');
// A click within half a second of an answer is the rest of the same gesture (use-money-action).
const pastGesture = () => new Promise((r) => setTimeout(r, 600));

beforeEach(() => {
  vi.unstubAllGlobals();
  navigate.mockClear();
});
afterEach(() => cleanup());

describe('the deposit panel', () => {
  it('checks the amount before starting a deposit, under the amount field', async () => {
    const calls = renderPanel(() => started);
    fireEvent.click(await screen.findByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('Choose an amount or type one.')).toBeTruthy();
    const field = screen.getByRole('textbox', { name: 'Or another amount' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-error`);

    fireEvent.input(field, { target: { value: '2' } });
    expect(screen.queryByText('Choose an amount or type one.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Deposit $2.00' }));
    expect(await screen.findByText('Deposit between $5.00 and $1,000.00.')).toBeTruthy();
    fireEvent.input(field, { target: { value: 'twenty' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('Enter an amount like 20 or 20.50.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('starts a deposit of the chosen preset with an Idempotency-Key, and goes to the checkout', async () => {
    const calls = renderPanel(() => started, '/shop/p1?buy=2');
    fireEvent.click(await screen.findByRole('button', { name: '$25.00' }));
    expect(screen.getByRole('button', { name: '$25.00' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Deposit $25.00' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: '/checkout/$id', params: { id: started.body.deposit.id } }));
    const [post] = posts(calls);
    expect(post).toMatchObject({ url: '/api/wallet/deposits', body: { amountCents: 2500, returnPath: '/shop/p1?buy=2' } });
    expect(post!.key).toMatch(/.{16,}/);
  });

  it('a typed amount wins over the preset; a field refusal lands under it; a retry after a 5xx keeps the key', async () => {
    const answers: MockAnswer[] = [
      apiError(400, 'validation_failed', 'Check the form.', { amountCents: ['Deposits above $500.00 need a verified email.'] }),
      apiError(503, 'unavailable', 'The payment provider is not answering. Try again.'),
      started,
    ];
    const calls = renderPanel(() => answers.shift());
    fireEvent.click(await screen.findByRole('button', { name: '$10.00' }));
    const field = screen.getByRole('textbox', { name: 'Or another amount' });
    fireEvent.input(field, { target: { value: '600' } });
    expect(screen.getByRole('button', { name: '$10.00' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Deposit $600.00' }));
    expect(await screen.findByText('Deposits above $500.00 need a verified email.')).toBeTruthy();
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('Check the form.')).toBeNull();
    expect(posts(calls)[0]!.body).toEqual({ amountCents: 60000 });

    await pastGesture();
    fireEvent.input(field, { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deposit $40.00' }));
    expect(await screen.findByText('The payment provider is not answering. Try again.')).toBeTruthy();
    await pastGesture();
    fireEvent.click(screen.getByRole('button', { name: 'Deposit $40.00' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    const [refused, failed, retried] = posts(calls);
    expect(retried!.body).toEqual({ amountCents: 4000 });
    expect(retried!.key).toBe(failed!.key);
    expect(failed!.key).not.toBe(refused!.key);
  });
});
