import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CardClass } from '@shared/contracts/catalog';
import type { ValueProposal, ValueProposalList } from '@shared/contracts/value-proposals';
import { mockServer as sharedMockServer } from '@web/test/mock-server';
import type { AdminCard, CatalogOptions } from './api';
import { CardDetailScreen } from './card-admin';

// The editor's links need a router; anchors and a spy do here.
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to }: { children: ReactNode; to: string }) => <a href={to}>{children}</a>,
  useNavigate: () => vi.fn(),
}));

const ID = '5f1c2a9e-0b3d-4c7e-8f61-2d9a7b4c3e10';
const CLASS = '0b6c3f52-7d2e-4c59-9a4f-3f1e8f0f2a11';
const ARCH = '7a1e9c44-2b5d-4f08-9c3a-6e2d1f0b8a77';
const cls: CardClass = {
  id: CLASS,
  name: 'Common',
  colour: '#a1a1aa',
  sortOrder: 10,
  defaultTextureId: null,
  buybackRateBp: 8500,
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  cardCount: 1,
};
const options = { classes: [cls], architects: [{ id: ARCH, name: 'Plain frame' }], textures: [], sets: [], sampleImageKey: null } as unknown as CatalogOptions;
const card: AdminCard = {
  id: ID,
  name: 'Moth',
  setName: 'Night',
  number: 7,
  classId: CLASS,
  architectId: ARCH,
  textureId: null,
  effectiveTextureId: null,
  imageKey: 'a'.repeat(64),
  valueCents: 1_000,
  description: '',
  active: true,
  stock: 3,
  gradingCompany: null,
  grade: null,
  frontPhotoKey: null,
  backPhotoKey: null,
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const queue = (items: Array<Partial<ValueProposal>>): ValueProposalList => ({ items: items as ValueProposal[], pendingCount: items.length, callerIsOwner: false });

function mockServer(pending: ValueProposalList, patch: (body: unknown) => unknown) {
  return sharedMockServer((call) => ({
    body: call.url.endsWith('/options')
      ? options
      : call.url.includes('/value-proposals')
        ? pending
        : call.method === 'PATCH'
          ? patch(call.body)
          : { card, refs: { classes: [], architects: [], textures: [] }, adjustments: { items: [], total: 0, page: 1, pageSize: 25 } },
  }));
}

function renderEditor() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <CardDetailScreen id={ID} />
    </QueryClientProvider>,
  );
}

const valueBox = () => screen.getByRole('textbox', { name: /^Market value/ }) as HTMLInputElement;

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('card editor: a value change held for the owner (ADR 0024)', () => {
  it('says the change waits for the owner, and shows the value in effect again', async () => {
    const message = 'The value change to $5,000.00 is more than admins may make alone in a day, so it waits for the owner. The card keeps $10.00 until then.';
    const calls = mockServer(queue([]), () => ({ card, valueProposal: { id: 'p1', toCents: 500_000, message } }));
    renderEditor();
    await waitFor(() => expect(valueBox().value).toBe('10.00'));
    expect(screen.queryByText('Waiting for the owner')).toBeNull();
    fireEvent.input(valueBox(), { target: { value: '5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ valueCents: 500_000 });
    expect(await screen.findByText('Waiting for the owner')).toBeTruthy();
    expect(screen.getAllByText(new RegExp(message.slice(0, 40).replace(/[$.]/g, '\\$&'))).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'See value reviews' }).getAttribute('href')).toBe('/admin/value-reviews');
    expect(valueBox().value).toBe('10.00');
  });

  it('shows a change already waiting in the owner’s queue when the card opens', async () => {
    mockServer(queue([{ id: 'p1', cardId: ID, toCents: 250_000, status: 'pending' }]), () => ({ card }));
    renderEditor();
    expect(await screen.findByText('Waiting for the owner')).toBeTruthy();
    expect(screen.getByText(/\$2,500\.00/)).toBeTruthy();
  });
});
