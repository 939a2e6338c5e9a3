import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, mockServer } from '@web/test/mock-server';
import { PromoRedeem } from './promo-redeem';

function renderForm() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <PromoRedeem />
    </QueryClientProvider>,
  );
}

const redeemed = { status: 201, body: { kind: 'credit', code: 'WELCOME5', amountCents: 500, balanceCents: 500, message: '$5.00 added to your balance.' } };

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('redeeming a promo code', () => {
  it('checks the code before asking the server', async () => {
    const calls = mockServer(() => redeemed);
    renderForm();
    const field = screen.getByRole('textbox', { name: /Code/ });
    fireEvent.input(field, { target: { value: 'x!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('A code has at least 3 characters.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });

  it('sends the code in capitals with an Idempotency-Key, says what it gave and empties the field', async () => {
    const calls = mockServer(() => redeemed);
    renderForm();
    const field = screen.getByRole('textbox', { name: /Code/ }) as HTMLInputElement;
    fireEvent.input(field, { target: { value: ' welcome5 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('$5.00 added to your balance.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post).toMatchObject({ url: '/api/wallet/promo/redeem', body: { code: 'WELCOME5' } });
    expect(post.key).toMatch(/.{16,}/);
    await waitFor(() => expect(field.value).toBe(''));
  });

  it('puts a field refusal on the field and any other refusal in a notice', async () => {
    let answer = apiError(400, 'validation_failed', 'Check the form.', { code: ['No such code.'] });
    mockServer(() => answer);
    renderForm();
    const field = screen.getByRole('textbox', { name: /Code/ });
    fireEvent.input(field, { target: { value: 'NOPE123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('No such code.')).toBeTruthy();

    answer = apiError(409, 'already_redeemed', 'You have already used this code.');
    // A click within half a second of an answer is the rest of the same gesture (use-money-action).
    await new Promise((r) => setTimeout(r, 600));
    fireEvent.input(field, { target: { value: 'USED123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('You have already used this code.')).toBeTruthy();
  });
});
