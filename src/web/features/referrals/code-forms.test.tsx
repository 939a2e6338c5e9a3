import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS, type MyReferrals } from '@shared/contracts/referrals';
import { ClaimForm, VanityForm } from './code-forms';
import { mockServer } from '@web/test/mock-server';


const me = (patch: Partial<MyReferrals> = {}): MyReferrals => ({
  code: 'K7M2QX9',
  path: '/invite/K7M2QX9',
  vanity: false,
  canPickVanity: true,
  offer: { ...DEFAULT_REFERRAL_SETTINGS, currency: 'USD' },
  referredBy: null,
  canClaim: true,
  invitees: [],
  rewards: [],
  totals: { earnedCents: 0, pending: 0, qualified: 0 },
  ...patch,
});

function renderIn(node: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(<QueryClientProvider client={qc}>{node}</QueryClientProvider>);
}

const err = (status: number, code: string, message: string, fields?: Record<string, string[]>) => ({ status, body: { error: { code, message, fields } } });

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('VanityForm', () => {
  it('checks the code in the browser before asking the server', async () => {
    const calls = mockServer(() => ({ body: me() }));
    renderIn(<VanityForm />);
    const field = screen.getByRole('textbox', { name: /Your own code/ });
    fireEvent.input(field, { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my code' }));
    expect(await screen.findByText('At least 4 characters.')).toBeTruthy();
    fireEvent.input(field, { target: { value: 'bad code!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my code' }));
    expect(await screen.findByText('Letters and digits only.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });

  it('sends the code upper-cased and says it is set', async () => {
    const calls = mockServer(() => ({ body: me({ code: 'LUCKY7', vanity: true, canPickVanity: false }) }));
    renderIn(<VanityForm />);
    fireEvent.input(screen.getByRole('textbox', { name: /Your own code/ }), { target: { value: ' lucky7 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my code' }));
    expect(await screen.findByText('Your code is set')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/referrals/me/code', body: { code: 'LUCKY7' } });
  });

  it.each([
    [err(409, 'code_taken', 'That code is taken. Try another.'), 'That code is taken. Try another.'],
    [err(409, 'vanity_already_set', 'You already picked your code.'), 'You already picked your code.'],
    [err(400, 'validation_failed', 'Check the code.', { code: ["That code isn't allowed."] }), "That code isn't allowed."],
  ])('puts the server refusal on the field (%#)', async (answer, message) => {
    mockServer(() => answer);
    renderIn(<VanityForm />);
    const field = screen.getByRole('textbox', { name: /Your own code/ });
    fireEvent.input(field, { target: { value: 'LUCKY7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my code' }));
    expect(await screen.findByText(message)).toBeTruthy();
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
  });
});

describe('ClaimForm', () => {
  it('asks for a code when empty', async () => {
    const calls = mockServer(() => ({ body: me() }));
    renderIn(<ClaimForm />);
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText('Enter a code.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('names the referrer once the code is added', async () => {
    const calls = mockServer(() => ({ body: me({ canClaim: false, referredBy: { username: 'alice', status: 'pending' } }) }));
    renderIn(<ClaimForm />);
    fireEvent.input(screen.getByRole('textbox', { name: /Friend's code/ }), { target: { value: 'abc2345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText(/alice is now your referrer/)).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/referrals/claim', body: { code: 'abc2345' } });
  });

  it.each([
    [err(404, 'not_found', 'Not found.'), 'No referral code like that. Check it with your friend.'],
    [err(409, 'referral_too_late', 'A code can only be added before your first deposit.'), 'A code can only be added before your first deposit.'],
    [err(409, 'self_referral', "You can't use your own code."), "You can't use your own code."],
    [err(409, 'already_referred', 'You already have a referrer.'), 'You already have a referrer.'],
  ])('puts the refusal on the field (%#)', async (answer, message) => {
    mockServer(() => answer);
    renderIn(<ClaimForm />);
    fireEvent.input(screen.getByRole('textbox', { name: /Friend's code/ }), { target: { value: 'ABC2345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('shows a rate limit as a form message, not on the field', async () => {
    mockServer(() => ({ status: 429, body: { error: { code: 'rate_limited', message: 'Slow down.', retryAfter: 30 } } }));
    renderIn(<ClaimForm />);
    fireEvent.input(screen.getByRole('textbox', { name: /Friend's code/ }), { target: { value: 'ABC2345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText('The code was not added')).toBeTruthy();
    expect(screen.getByText(/Try again in 30 seconds/)).toBeTruthy();
  });
});
