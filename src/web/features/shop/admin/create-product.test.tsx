import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, mockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import { CreateProduct } from './create-product';

const navigate = vi.fn();
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => navigate }));

function renderDialog(answer: (c: MockCall) => MockAnswer) {
  const calls = mockServer(answer);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <CreateProduct />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'New product' }));
  return calls;
}
const posts = (calls: MockCall[]) => calls.filter((c) => c.method === 'POST');

beforeEach(() => {
  vi.unstubAllGlobals();
  navigate.mockReset();
});
afterEach(() => cleanup());

describe('New product', () => {
  it('says what is wrong with each field and sends nothing', async () => {
    const calls = renderDialog(() => undefined);
    fireEvent.input(await screen.findByRole('textbox', { name: /Price/ }), { target: { value: 'nine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    expect(screen.getByText('Enter a price such as 9.99.')).toBeTruthy();
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Price must be at least 1 cent.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('creates a draft in cents and opens its editor; a server refusal lands under its field', async () => {
    let refuse = true;
    const calls = renderDialog((c) =>
      c.method !== 'POST' ? undefined : refuse ? apiError(400, 'validation_failed', 'Check the form.', { name: ['A product with this name exists.'] }) : { status: 201, body: { product: { id: 'p9' } } },
    );
    fireEvent.input(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: ' Neon Pack ' } });
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '9.99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('A product with this name exists.')).toBeTruthy();
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: '/admin/products/$id', params: { id: 'p9' } }));
    expect(posts(calls).at(-1)).toMatchObject({ url: '/api/admin/products', body: { name: 'Neon Pack', priceCents: 999, status: 'draft' } });
  });
});
