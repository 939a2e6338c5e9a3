import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Seeds } from '@shared/contracts/shop';
import { apiError, mockServer } from '@web/test/mock-server';
import { SeedsPanel } from './seeds-panel';

const seeds = (clientSeed: string): Seeds => ({
  active: { id: 's1', serverSeedHash: 'a'.repeat(64), clientSeed, nextNonce: 3, createdAt: '2026-11-01T10:00:00.000Z' },
  revealed: [],
});

function renderPanel() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <SeedsPanel />
    </QueryClientProvider>,
  );
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('the client seed form', () => {
  it('checks the seed in the browser, then saves it and follows the seed in use', async () => {
    const calls = mockServer((c) => (c.method === 'PUT' ? { body: seeds((c.body as { clientSeed: string }).clientSeed) } : { body: seeds('old-seed') }));
    renderPanel();
    const field = await screen.findByRole('textbox', { name: /Client seed/ });
    expect((field as HTMLInputElement).value).toBe('old-seed');
    const save = screen.getByRole('button', { name: 'Save client seed' });
    expect((save as HTMLButtonElement).disabled).toBe(true);

    fireEvent.input(field, { target: { value: 'not a seed!' } });
    fireEvent.click(save);
    expect(await screen.findByText('Use 1–64 letters, digits, ".", "_" or "-".')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.input(field, { target: { value: '  my-lucky.seed ' } });
    fireEvent.click(save);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/fairness/seeds/client', body: { clientSeed: 'my-lucky.seed' } });
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('my-lucky.seed'));
    expect(screen.queryByText(/Use 1–64 letters/)).toBeNull();
  });

  it('puts the server refusal on the field', async () => {
    mockServer((c) => (c.method === 'PUT' ? apiError(400, 'validation_failed', 'Check the form.', { clientSeed: ['That seed is not allowed.'] }) : { body: seeds('old-seed') }));
    renderPanel();
    const field = await screen.findByRole('textbox', { name: /Client seed/ });
    fireEvent.click(screen.getByRole('button', { name: /Randomise/ }));
    expect((field as HTMLInputElement).value).not.toBe('old-seed');
    fireEvent.click(screen.getByRole('button', { name: 'Save client seed' }));
    expect(await screen.findByText('That seed is not allowed.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });
});
