import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Slab } from '@shared/contracts/catalog';
import { apiError, mockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import type { AdminCard } from './api';
import { SlabsPanel } from './slab-admin';

const ID = '5f1c2a9e-0b3d-4c7e-8f61-2d9a7b4c3e10';
const card = {
  id: ID,
  name: 'Moth',
  setName: 'Night',
  number: 7,
  stock: 1,
  gradingCompany: 'PSA',
  grade: 9,
} as unknown as AdminCard;
const held: Slab = {
  id: 'slab-held',
  cardId: ID,
  grader: 'PSA',
  grade: 9,
  certNumber: null,
  certMissing: true,
  frontPhotoKey: null,
  backPhotoKey: null,
  state: 'held',
  ownedCardId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function renderPanel(write: (c: MockCall) => MockAnswer) {
  const calls = mockServer((c) => (c.method === 'GET' ? { body: { items: [held] } } : write(c)));
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <SlabsPanel card={card} />
    </QueryClientProvider>,
  );
  return calls;
}
const writes = (calls: MockCall[]) => calls.filter((c) => c.method !== 'GET');
const addForm = () => within(screen.getByRole('form', { name: 'Add a slab' }));

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('adding a slab', () => {
  it('checks the grade and the certificate as the API does, under the fields, and sends nothing', async () => {
    const calls = renderPanel(() => undefined);
    const form = addForm();
    fireEvent.change(form.getByRole('combobox', { name: 'Grade' }), { target: { value: '' } });
    fireEvent.input(form.getByRole('textbox', { name: /^Certificate number/ }), { target: { value: '12' } });
    fireEvent.click(form.getByRole('button', { name: 'Add slab' }));
    expect(await form.findByText('Enter the PSA grade.')).toBeTruthy();
    const cert = form.getByRole('textbox', { name: /^Certificate number/ });
    // The hint and the message say the same rule; the field is marked and described by both.
    await waitFor(() => expect(cert.getAttribute('aria-invalid')).toBe('true'));
    expect(cert.getAttribute('aria-describedby')).toBe(`${cert.id}-error ${cert.id}-hint`);
    expect(form.getByRole('combobox', { name: 'Grade' }).getAttribute('aria-invalid')).toBe('true');
    expect(writes(calls)).toHaveLength(0);
  });

  it('sends one slab with the card’s grading, and a taken certificate lands under its field', async () => {
    const calls = renderPanel(() =>
      apiError(409, 'cert_taken', 'This certificate is already on another slab of the same grading company.', {
        'slabs.0.certNumber': ['Another slab of this grading company already has this certificate number.'],
      }),
    );
    const form = addForm();
    fireEvent.input(form.getByRole('textbox', { name: /^Certificate number/ }), { target: { value: ' 12345678 ' } });
    fireEvent.click(form.getByRole('button', { name: 'Add slab' }));
    expect(await form.findByText('Another slab of this grading company already has this certificate number.')).toBeTruthy();
    expect(writes(calls)[0]).toMatchObject({ method: 'POST', url: `/api/admin/catalog/cards/${ID}/slabs` });
    expect(writes(calls)[0]!.body).toEqual({ slabs: [{ grader: 'PSA', grade: 9, certNumber: '12345678', frontPhotoKey: null, backPhotoKey: null }] });
    expect(form.queryByText('This certificate is already on another slab of the same grading company.')).toBeNull();
  });

  it('empties the certificate after adding, keeping the grader and grade for the next', async () => {
    const calls = renderPanel(() => ({ status: 201, body: { card: { ...card, stock: 2 }, slabs: [] } }));
    const form = addForm();
    fireEvent.change(form.getByRole('combobox', { name: 'Grading company' }), { target: { value: 'BGS' } });
    fireEvent.change(form.getByRole('combobox', { name: 'Grade' }), { target: { value: '9.5' } });
    const cert = form.getByRole('textbox', { name: /^Certificate number/ }) as HTMLInputElement;
    fireEvent.input(cert, { target: { value: '1234567' } });
    fireEvent.click(form.getByRole('button', { name: 'Add slab' }));
    await waitFor(() => expect(cert.value).toBe(''));
    expect(writes(calls)[0]!.body).toEqual({ slabs: [{ grader: 'BGS', grade: 9.5, certNumber: '1234567', frontPhotoKey: null, backPhotoKey: null }] });
    expect((form.getByRole('combobox', { name: 'Grade' }) as HTMLSelectElement).value).toBe('9.5');
  });
});

describe('filling in a held slab’s certificate', () => {
  it('checks the format, then sends it and puts a server refusal under the field', async () => {
    const calls = renderPanel(() =>
      apiError(409, 'cert_taken', 'This certificate is already on another slab of the same grading company.', {
        certNumber: ['Another slab of this grading company already has this certificate number.'],
      }),
    );
    const field = await screen.findByRole('textbox', { name: 'Certificate for this PSA slab' });
    fireEvent.input(field, { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save certificate' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(writes(calls)).toHaveLength(0);

    fireEvent.input(field, { target: { value: '87654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save certificate' }));
    expect(await screen.findByText('Another slab of this grading company already has this certificate number.')).toBeTruthy();
    expect(writes(calls)[0]).toMatchObject({ method: 'PATCH', url: `/api/admin/catalog/cards/${ID}/slabs/slab-held`, body: { certNumber: '87654321' } });
  });
});
