import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminMaintenance } from '@shared/contracts/maintenance';
import { fromLocalInput, toLocalInput } from '@web/lib/datetime-local';
import { apiError, mockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import { MaintenanceAdmin } from './admin-maintenance';

const off: AdminMaintenance = { enabled: false, message: '', endsAt: null, changedAt: null, changedBy: null };

function renderSwitch(answerPut: (c: MockCall) => MockAnswer) {
  const calls = mockServer((c) => (c.method === 'PUT' ? answerPut(c) : { body: off }));
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MaintenanceAdmin isOwner />
    </QueryClientProvider>,
  );
  return calls;
}
const puts = (calls: MockCall[]) => calls.filter((c) => c.method === 'PUT');
const inTwoHours = () => toLocalInput(Date.now() + 2 * 3_600_000);

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('the maintenance switch', () => {
  it('checks the message and the end before asking for a confirmation', async () => {
    const calls = renderSwitch(() => undefined);
    const message = await screen.findByRole('textbox', { name: 'Message to visitors' });
    const end = screen.getByLabelText(/^Expected end/);
    fireEvent.input(message, { target: { value: '   ' } });
    fireEvent.input(end, { target: { value: toLocalInput(Date.now() - 3_600_000) } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn maintenance on…' }));
    expect(await screen.findByText('Write a message for visitors.')).toBeTruthy();
    expect(screen.getByText('The expected end must be in the future.')).toBeTruthy();
    expect(message.getAttribute('aria-invalid')).toBe('true');
    expect(end.getAttribute('aria-describedby')).toContain(`${end.id}-error`);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(puts(calls)).toHaveLength(0);
  });

  it('turns it on after the confirmation with the contract’s body', async () => {
    const calls = renderSwitch((c) => ({ body: { ...off, ...(c.body as object), changedAt: new Date().toISOString() } }));
    const local = inTwoHours();
    fireEvent.input(await screen.findByRole('textbox', { name: 'Message to visitors' }), { target: { value: '  Moving the vault.  ' } });
    fireEvent.input(screen.getByLabelText(/^Expected end/), { target: { value: local } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn maintenance on…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]).toMatchObject({ url: '/api/admin/maintenance', body: { enabled: true, message: 'Moving the vault.', endsAt: fromLocalInput(local) } });
    // The state now says it is on, and the off switch replaces the form.
    expect(await screen.findByRole('button', { name: 'Turn maintenance off' })).toBeTruthy();
  });

  it('puts a server field refusal under its field and closes the confirmation', async () => {
    const calls = renderSwitch(() => apiError(400, 'validation_failed', 'Check the form.', { endsAt: ['The expected end must be within 30 days.'] }));
    fireEvent.input(await screen.findByLabelText(/^Expected end/), { target: { value: inTwoHours() } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn maintenance on…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The expected end must be within 30 days.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByLabelText(/^Expected end/).getAttribute('aria-invalid')).toBe('true');
    expect(puts(calls)).toHaveLength(1);
  });
});
