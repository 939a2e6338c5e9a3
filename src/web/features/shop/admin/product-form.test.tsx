import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProductSummary } from '@shared/contracts/shop';
import { fromLocalInput } from '@web/lib/datetime-local';
import { apiError, mockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import { ProductForm } from './product-form';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children }: { children: ReactNode }) => <a href="#link">{children}</a>,
  useNavigate: () => () => undefined,
}));

const product = {
  id: 'p1',
  packId: 'pk1',
  name: 'Starter Pack',
  description: 'Five cards.',
  imageKey: null,
  priceCents: 500,
  status: 'draft',
  releaseAt: null,
  purchaseLimitPerUser: null,
  featured: false,
  sortOrder: 3,
  cardsPerPack: 5,
  expectedValueCents: 400,
} as unknown as ProductSummary;

function renderForm(answer: (c: MockCall) => MockAnswer) {
  const calls = mockServer(answer);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <ProductForm product={product} />
    </QueryClientProvider>,
  );
  return calls;
}
const field = (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: RegExp, value: string) => fireEvent.input(field(name), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save product' }));

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('the product form', () => {
  it('shows each bad field’s message under it and saves nothing', async () => {
    const calls = renderForm(() => undefined);
    type(/^Name/, '  ');
    type(/^Price/, 'cheap');
    type(/^Purchase limit per user/, '1.5');
    type(/^Order/, '-1');
    save();
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    expect(screen.getByText('Enter a price such as 9.99.')).toBeTruthy();
    expect(screen.getByText('A whole number of packs (1 or more), or empty for no limit.')).toBeTruthy();
    expect(screen.getByText('A whole number, 0 or more.')).toBeTruthy();
    expect(field(/^Price/).getAttribute('aria-invalid')).toBe('true');
    expect(field(/^Price/).getAttribute('aria-describedby')).toContain(`${field(/^Price/).id}-error`);
    expect(calls).toHaveLength(0);
  });

  it('sends the whole listing in the contract’s units', async () => {
    const calls = renderForm((c) => ({ body: { product: { ...product, ...(c.body as object) } } }));
    type(/^Name/, ' Booster ');
    type(/^Price/, '$12.5');
    type(/^Purchase limit per user/, '4');
    fireEvent.change(screen.getByRole('combobox', { name: /^Status/ }), { target: { value: 'live' } });
    fireEvent.input(screen.getByLabelText(/^Release time/), { target: { value: '2031-05-01T10:30' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Featured/ }));
    save();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PATCH', url: '/api/admin/products/p1' });
    expect(calls[0]!.body).toEqual({
      name: 'Booster',
      description: 'Five cards.',
      imageKey: null,
      priceCents: 1250,
      status: 'live',
      releaseAt: fromLocalInput('2031-05-01T10:30'),
      purchaseLimitPerUser: 4,
      featured: true,
      sortOrder: 3,
    });
  });

  it('puts a server field refusal under its field, and any other in a notice', async () => {
    let answer = apiError(400, 'validation_failed', 'Check the form.', { priceCents: ['Price must be at most $100,000.'] });
    renderForm(() => answer);
    type(/^Price/, '100000.01');
    save();
    expect(await screen.findByText('Price must be at most $100,000.')).toBeTruthy();
    await waitFor(() => expect(field(/^Price/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('Check the form.')).toBeNull();

    answer = apiError(409, 'conflict', 'Another admin changed this product; reload it.');
    type(/^Price/, '9.99');
    save();
    expect(await screen.findByText('Another admin changed this product; reload it.')).toBeTruthy();
    expect(field(/^Price/).getAttribute('aria-invalid')).toBeNull();
  });
});
