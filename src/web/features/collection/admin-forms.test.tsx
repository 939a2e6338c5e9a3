import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BuybackRates } from '@shared/contracts/collection';
import { apiError, mockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import { AdminOwned } from './admin-owned';
import { AdminRates } from './admin-rates';

/** The back office's collection forms (issue 42 item 7): react-hook-form with the shared contracts. */

const CLASS_A = '11111111-1111-4111-8111-111111111111';
const CLASS_B = '22222222-2222-4222-8222-222222222222';
const CARD = '33333333-3333-4333-8333-333333333333';
const rates: BuybackRates = {
  defaultRateBp: 8500,
  classes: [
    { id: CLASS_A, name: 'Common', colour: '#999', archived: false, rateBp: null, effectiveRateBp: 8500 },
    { id: CLASS_B, name: 'Rare', colour: '#39f', archived: false, rateBp: 9000, effectiveRateBp: 9000 },
  ],
};
const emptyOwned = { items: [], total: 0, page: 1, pageSize: 25, refs: { classes: [], architects: [], textures: [] } };
const viewer = { id: 'admin-1', username: 'boss', email: 'boss@example.com' };

function renderWith(ui: ReactNode, answer: (c: MockCall) => MockAnswer) {
  const calls = mockServer(answer);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>);
  return calls;
}
const writes = (calls: MockCall[]) => calls.filter((c) => c.method !== 'GET');

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('buyback rates', () => {
  it('names each field that is not a percentage and sends nothing', async () => {
    const calls = renderWith(<AdminRates />, () => ({ body: rates }));
    const def = await screen.findByRole('textbox', { name: /Default rate/ });
    fireEvent.input(def, { target: { value: '120' } });
    fireEvent.input(screen.getByRole('textbox', { name: /Common/ }), { target: { value: 'lots' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save rates' }));
    expect(await screen.findByText('Enter a percentage from 0 to 100 (up to 2 decimals).')).toBeTruthy();
    expect(screen.getByText('Enter a percentage from 0 to 100, or leave it blank for the default.')).toBeTruthy();
    expect(def.getAttribute('aria-invalid')).toBe('true');
    expect(writes(calls)).toHaveLength(0);
  });

  it('sends the default and only the classes that changed, in basis points', async () => {
    const calls = renderWith(<AdminRates />, (c) => ({ body: c.method === 'PUT' ? rates : rates }));
    fireEvent.input(await screen.findByRole('textbox', { name: /Default rate/ }), { target: { value: '80' } });
    fireEvent.input(screen.getByRole('textbox', { name: /Common/ }), { target: { value: '92.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save rates' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toMatchObject({ method: 'PUT', url: '/api/admin/buyback/rates', body: { defaultRateBp: 8000, classes: [{ classId: CLASS_A, rateBp: 9250 }] } });
  });

  it('puts a server refusal of one class under that class', async () => {
    renderWith(<AdminRates />, (c) =>
      c.method === 'PUT' ? apiError(400, 'validation_failed', 'Check the form.', { 'classes.0.rateBp': ['That class is archived.'] }) : { body: rates },
    );
    fireEvent.input(await screen.findByRole('textbox', { name: /Rare/ }), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save rates' }));
    expect(await screen.findByText('That class is archived.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Rare/ }).getAttribute('aria-invalid')).toBe('true');
  });
});

describe('granting and revoking a card', () => {
  it('the grant form gives the contract’s messages, refuses a grant to yourself, and sends a valid one', async () => {
    const calls = renderWith(<AdminOwned viewer={viewer} />, (c) => {
      if (c.url.startsWith('/api/admin/catalog/cards')) return { body: { items: [{ id: CARD, name: 'Eclipse Sentinel', setName: 'Base', number: '7', stock: 4 }], total: 1, page: 1, pageSize: 20 } };
      if (c.url.startsWith('/api/admin/buyback/rates')) return { body: rates };
      if (c.method === 'POST') return { status: 201, body: { ownedCardId: '44444444-4444-4444-8444-444444444444', stock: 3 } };
      return { body: emptyOwned };
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Grant a card' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Grant card' }));
    expect(await screen.findByText('Search and pick a card.')).toBeTruthy();
    expect(screen.getByText('Enter the user’s username, email or id.')).toBeTruthy();
    expect(screen.getByText('Give a reason (at least 3 characters); it goes to the audit log.')).toBeTruthy();

    fireEvent.input(screen.getByRole('searchbox', { name: 'Find a card' }), { target: { value: 'eclipse' } });
    const card = await screen.findByRole('option', { name: /Eclipse Sentinel/ });
    fireEvent.change(screen.getByRole('combobox', { name: /Card/ }), { target: { value: (card as HTMLOptionElement).value } });
    fireEvent.input(screen.getByRole('textbox', { name: /User/ }), { target: { value: 'BOSS' } });
    fireEvent.input(screen.getByRole('textbox', { name: /Reason/ }), { target: { value: 'Prize for the stream' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grant card' }));
    expect(await screen.findByText('You can’t grant a card to yourself. Ask another admin or the owner.')).toBeTruthy();
    expect(writes(calls)).toHaveLength(0);

    fireEvent.input(screen.getByRole('textbox', { name: /User/ }), { target: { value: '  collector7 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grant card' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toMatchObject({ url: '/api/admin/owned/grant', body: { cardId: CARD, user: 'collector7', reason: 'Prize for the stream' } });
    await waitFor(() => expect(dialog.isConnected).toBe(false));
  });
});
