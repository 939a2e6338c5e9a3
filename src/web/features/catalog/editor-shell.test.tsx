import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CardClass } from '@shared/contracts/catalog';
import { toastSnapshot } from '@web/components/ui/toast-store';
import { mockServer as sharedMockServer, type MockAnswer, type MockCall } from '@web/test/mock-server';
import type { CatalogOptions } from './api';
import { ClassDetailScreen } from './class-admin';
import { fieldPaths } from './use-entity-editor';

// The shell's links and its move to a new record's page need a router; a spy and anchors do here.
const navigate = vi.fn();
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to }: { children: ReactNode; to: string }) => <a href={to}>{children}</a>,
  useNavigate: () => navigate,
}));

const ID = '0b6c3f52-7d2e-4c59-9a4f-3f1e8f0f2a11';
const common: CardClass = {
  id: ID,
  name: 'Common',
  colour: '#a1a1aa',
  sortOrder: 10,
  defaultTextureId: null,
  buybackRateBp: 8750,
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  cardCount: 3,
};
const options: CatalogOptions = { classes: [common], architects: [], textures: [], sets: [], sampleImageKey: null };

/** Answers the app's fetches from `answer`; the catalog options always load. */
const mockServer = (answer: (call: MockCall) => MockAnswer) => sharedMockServer((call) => (call.url.endsWith('/options') ? { body: options } : answer(call)));

function renderScreen(id: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(qc, 'invalidateQueries');
  render(
    <QueryClientProvider client={qc}>
      <ClassDetailScreen id={id} />
    </QueryClientProvider>,
  );
  return { invalidate };
}

const nameBox = () => screen.getByRole('textbox', { name: /^Name/ });
const lastToast = () => toastSnapshot().at(-1)?.title;

beforeEach(() => {
  vi.unstubAllGlobals();
  navigate.mockReset();
});
afterEach(() => cleanup());

describe('catalog editor shell and useEntityEditor', () => {
  it('says when the record cannot be found, with the way back and a retry', async () => {
    const calls = mockServer((c) => (c.url.includes(`/classes/${ID}`) ? { status: 404, body: { error: { code: 'not_found', message: 'That class does not exist.' } } } : undefined));
    renderScreen(ID);
    expect(await screen.findByText('We could not load this class')).toBeTruthy();
    expect(screen.getByText(/That class does not exist\./)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Class' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /All classes/ }).getAttribute('href')).toBe('/admin/class');
    expect(screen.queryByRole('button', { name: 'Save class' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((c) => c.url.includes(`/classes/${ID}`))).toHaveLength(2));
  });

  it('"new" loads no record, checks the form in the browser and opens the created record', async () => {
    const calls = mockServer((c) => (c.method === 'POST' && c.url.endsWith('/classes') ? { status: 201, body: { class: { ...common, id: 'c-new', name: 'Mythic' } } } : undefined));
    const { invalidate } = renderScreen('new');
    expect(await screen.findByRole('heading', { level: 1, name: 'New class' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Create class' }));
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.input(nameBox(), { target: { value: 'Mythic' } });
    fireEvent.input(screen.getByRole('textbox', { name: /^Buyback rate/ }), { target: { value: '87.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create class' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: '/admin/class/$id', params: { id: 'c-new' } }));
    // The form's percentage goes out as basis points, the empty texture as none.
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Mythic', colour: '#a855f7', sortOrder: 10, defaultTextureId: null, buybackRateBp: 8750 });
    expect(lastToast()).toBe('Class created.');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['catalog'] });
  });

  it('puts the server’s field messages on their fields, renamed ones too, and its message above the form', async () => {
    mockServer((c) => {
      if (c.method === 'GET') return { body: { class: common } };
      return {
        status: 409,
        body: { error: { code: 'conflict', message: 'Fix the marked fields.', fields: { name: ['A class with that name exists.'], buybackRateBp: ['At most 100%.'] } } },
      };
    });
    const { invalidate } = renderScreen(ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Class: Common' })).toBeTruthy();
    expect((nameBox() as HTMLInputElement).value).toBe('Common');
    expect((screen.getByRole('textbox', { name: /^Buyback rate/ }) as HTMLInputElement).value).toBe('87.5');

    fireEvent.click(screen.getByRole('button', { name: 'Save class' }));
    expect(await screen.findByText('Fix the marked fields.')).toBeTruthy();
    expect(nameBox().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(nameBox().getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('A class with that name exists.');
    const buyback = screen.getByRole('textbox', { name: /^Buyback rate/ });
    expect(buyback.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('At most 100%.')).toBeTruthy();
    expect(document.activeElement).toBe(nameBox());
    expect(invalidate).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('saves an edit with a PATCH, says so, refreshes the catalog and stays on the page', async () => {
    const calls = mockServer((c) => {
      if (c.method === 'GET') return { body: { class: common } };
      if (c.method === 'PATCH') return { body: { class: { ...common, name: 'Uncommon' } } };
      return undefined;
    });
    const { invalidate } = renderScreen(ID);
    await screen.findByRole('heading', { level: 1, name: 'Class: Common' });
    fireEvent.input(nameBox(), { target: { value: 'Uncommon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save class' }));
    await waitFor(() => expect(lastToast()).toBe('Class saved.'));
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.url).toBe(`/api/admin/catalog/classes/${ID}`);
    expect(patch.body).toMatchObject({ name: 'Uncommon', buybackRateBp: 8750 });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['catalog'] });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows the archived notice and Restore for an archived record', async () => {
    mockServer((c) => (c.method === 'GET' ? { body: { class: { ...common, archivedAt: '2026-02-01T00:00:00.000Z' } } } : undefined));
    renderScreen(ID);
    expect(await screen.findByText(/This class is archived/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restore' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });
});

describe('fieldPaths', () => {
  it('lists nested paths the way the server names fields', () => {
    expect(fieldPaths({ name: '', layout: { art: { x: 1 } }, tags: ['a'] })).toEqual(['name', 'layout', 'layout.art', 'layout.art.x', 'tags']);
  });
});
