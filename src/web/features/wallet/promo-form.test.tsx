import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreatePromoInput, Promo } from '@shared/contracts/wallet';
import { apiError, mockServer } from '@web/test/mock-server';
import { walletApi } from './api';
import { PromoForm, type PromoInput } from './promo-form';

/** The admin promo form: dollars and text in, the contract's cents and numbers out, messages on the right fields. */

const promo: Promo = {
  id: '00000000-0000-4000-8000-000000000001',
  code: 'BONUS50',
  description: 'Spring',
  kind: 'deposit_bonus',
  amountCents: null,
  bonusPercent: 50,
  bonusCapCents: 2500,
  startsAt: null,
  endsAt: null,
  totalLimit: null,
  redeemedCount: 0,
  minAccountAgeDays: 7,
  active: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const created = { status: 201, body: { promo: { ...promo, code: 'E2EX', kind: 'credit', amountCents: 300, bonusPercent: null, bonusCapCents: null } } };
const textbox = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.input(textbox(name), { target: { value } });

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('the promo code form', () => {
  it('shows the contract’s messages under the fields and sends nothing', async () => {
    const onSubmit = vi.fn(async (_: PromoInput) => {});
    render(<PromoForm submitLabel="Create code" onSubmit={onSubmit} />);
    type('Code', 'x!');
    type('Total redemptions', 'ten');
    fireEvent.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByText('A code has at least 3 characters.')).toBeTruthy();
    expect(screen.getByText('Enter a whole number.')).toBeTruthy();
    expect(textbox('Code').getAttribute('aria-invalid')).toBe('true');
    // The contract's cross-field checks run once the fields themselves pass.
    type('Code', 'CREDIT1');
    type('Total redemptions', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByText('A credit code needs an amount.')).toBeTruthy();
    await waitFor(() => expect(textbox('Amount').getAttribute('aria-invalid')).toBe('true'));
    expect(textbox('Amount').getAttribute('aria-describedby')).toContain(`${textbox('Amount').id}-error`);

    fireEvent.change(screen.getByRole('combobox', { name: /Kind/ }), { target: { value: 'deposit_bonus' } });
    type('Code', 'SPRING');
    type('Bonus percent', '150');
    fireEvent.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByText('At most 100%.')).toBeTruthy();
    expect(screen.getByText('Enter the bonus cap.')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('creates a credit code: capitals, cents, numbers and nulls', async () => {
    const calls = mockServer(() => created);
    const onSubmit = vi.fn((input: PromoInput) => walletApi.createPromo(input as CreatePromoInput));
    render(<PromoForm submitLabel="Create code" onSubmit={onSubmit} />);
    type('Code', 'e2ex');
    type('Amount', '3');
    type('Total redemptions', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Create code' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/admin/promo' });
    expect(calls[0]!.body).toEqual({
      code: 'E2EX',
      kind: 'credit',
      amountCents: 300,
      description: null,
      startsAt: null,
      endsAt: null,
      totalLimit: 10,
      minAccountAgeDays: null,
      active: true,
    });
    // A new code's form empties for the next one.
    await waitFor(() => expect(textbox('Code').value).toBe(''));
  });

  it('edits a deposit bonus without its code or kind, and puts the server’s field messages on the fields', async () => {
    const calls = mockServer(() => apiError(400, 'validation_failed', 'Check the form.', { bonusCapCents: ['The cap is too high for this campaign.'] }));
    render(<PromoForm promo={promo} submitLabel="Save changes" onSubmit={(input) => walletApi.updatePromo(promo.id, input)} />);
    expect(textbox('Code').disabled).toBe(true);
    expect(textbox('Bonus cap').value).toBe('25.00');
    type('Bonus cap', '30');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The cap is too high for this campaign.')).toBeTruthy();
    await waitFor(() => expect(textbox('Bonus cap').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('Check the form.')).toBeNull();
    expect(calls[0]).toMatchObject({ method: 'PATCH', url: `/api/admin/promo/${promo.id}` });
    expect(calls[0]!.body).toEqual({
      description: 'Spring',
      startsAt: null,
      endsAt: null,
      totalLimit: null,
      minAccountAgeDays: 7,
      bonusPercent: 50,
      bonusCapCents: 3000,
      active: true,
    });
  });

  it('says what failed when no field explains it', async () => {
    mockServer(() => apiError(409, 'conflict', 'A code with this name exists.'));
    render(<PromoForm submitLabel="Create code" onSubmit={(input) => walletApi.createPromo(input as CreatePromoInput)} />);
    type('Code', 'TAKEN');
    type('Amount', '5');
    fireEvent.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByText('A code with this name exists.')).toBeTruthy();
  });
});
