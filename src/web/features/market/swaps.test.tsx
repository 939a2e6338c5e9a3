import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BinderItem, MarketSwap } from '@shared/contracts/market';
import { apiError, mockServer } from '@web/test/mock-server';
import { parseMyMarketSearch } from './search';
import { CardTraders, SwapList, TradeBinderToggle } from './swaps';

vi.mock('@tanstack/react-router', async () => (await import('./test-fixtures')).routerMock());

const CARD = { id: '44444444-4444-4444-8444-444444444444', name: 'Kraken' };
const THEIRS: BinderItem = {
  ownedCardId: '55555555-5555-4555-8555-555555555555',
  cardId: CARD.id,
  name: 'Kraken',
  setName: 'Deep',
  imageKey: '',
  valueCents: 2_000,
  ownerId: 'them',
  ownerUsername: 'tidecaller',
  addedAt: '2026-01-01T00:00:00.000Z',
};
const MINE_ID = '66666666-6666-4666-8666-666666666666';
const copy = { id: MINE_ID, status: 'in_vault', card: { id: 'c2', name: 'Leviathan', setName: 'Deep' }, valueCents: 1_800 };
const page = <T,>(items: T[]) => ({ body: { items, total: items.length, page: 1, pageSize: 20 } });

const swap = (over: Partial<MarketSwap> = {}): MarketSwap => ({
  id: '77777777-7777-4777-8777-777777777777',
  proposerId: 'them',
  proposerUsername: 'tidecaller',
  recipientId: 'me',
  recipientUsername: 'me',
  cashCents: 500,
  heldCents: 500,
  feeCents: null,
  state: 'open',
  items: [
    { ownedCardId: 'a', cardId: 'c1', name: 'Kraken', setName: 'Deep', imageKey: '', valueCents: 2_000, from: 'proposer' },
    { ownedCardId: 'b', cardId: 'c2', name: 'Leviathan', setName: 'Deep', imageKey: '', valueCents: 1_800, from: 'recipient' },
  ],
  expiresAt: '2026-01-04T00:00:00.000Z',
  closedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

function renderWith(ui: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>);
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('swaps on /profile/market in the URL', () => {
  it('keeps the swap tabs', () => {
    expect(parseMyMarketSearch({ tab: 'swaps-received' })).toEqual({ tab: 'swaps-received' });
    expect(parseMyMarketSearch({ tab: 'swaps-made' })).toEqual({ tab: 'swaps-made' });
  });
});

describe('Propose a swap from a card', () => {
  it('lists who trades the card; a proposal needs a card of yours, and proposes once with the intent’s key and the cash signed', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/binders')) return page([THEIRS]);
      if (c.url.startsWith('/api/collection')) return page([copy]);
      if (c.method === 'POST' && c.url === '/api/market/swaps') return { status: 201, body: swap({ proposerId: 'me', recipientId: 'them' }) };
      return undefined;
    });
    renderWith(<CardTraders card={CARD} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Propose a swap to tidecaller for Kraken' }));
    const dialog = await screen.findByRole('dialog');
    const propose = within(dialog).getByRole('button', { name: 'Propose the swap' });
    fireEvent.click(propose, { detail: 1 });
    expect(await within(dialog).findByText('Pick at least one of your cards to give.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.click(await within(dialog).findByRole('checkbox', { name: /Leviathan/ }));
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Cash' }), { target: { value: 'ask' } });
    fireEvent.input(within(dialog).getByRole('textbox', { name: /Cash you ask for/ }), { target: { value: '5' } });
    fireEvent.click(propose, { detail: 1 });
    fireEvent.click(propose, { detail: 2 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ give: [MINE_ID], want: [THEIRS.ownedCardId], cashCents: -500, expiresInHours: 72 });
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says so when nobody trades the card', async () => {
    mockServer((c) => (c.url.startsWith('/api/market/binders') ? page([]) : undefined));
    renderWith(<CardTraders card={CARD} />);
    expect(await screen.findByText('No collector has Kraken open to trade right now.')).toBeTruthy();
  });
});

describe('Open to trade', () => {
  it('puts a vault card in the binder, and shows it is there', async () => {
    let inBinder = false;
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/binder') && c.method === 'GET') return page(inBinder ? [{ ...THEIRS, ownedCardId: MINE_ID, ownerId: 'me' }] : []);
      if (c.method === 'PUT') {
        inBinder = true;
        return { body: { ...THEIRS, ownedCardId: MINE_ID } };
      }
      return undefined;
    });
    renderWith(<TradeBinderToggle copy={{ id: MINE_ID, name: 'Leviathan' }} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open to trade' }));
    expect(await screen.findByRole('button', { name: 'In your trade binder' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.url).toBe(`/api/market/binder/${MINE_ID}`);
    // It asks about this copy alone, so a binder of any size answers right.
    expect(calls.find((c) => c.method === 'GET')!.url).toContain(`ownedCardId=${MINE_ID}`);
  });
});

describe('Swaps received', () => {
  it('reads what you get, give and receive; accepting sends the intent’s key; a moved card says so', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/swaps/received')) return page([swap()]);
      if (c.method === 'POST' && c.url.endsWith('/accept')) return apiError(409, 'swap_stale', 'A card in this swap has moved since it was proposed.');
      return undefined;
    });
    renderWith(<SwapList side="received" userId="me" />);
    const row = await screen.findByRole('list', { name: 'Swaps proposed to you' });
    expect(row.textContent).toMatch(/You get: Kraken · you give: Leviathan · you receive \$5\.00/);
    fireEvent.click(within(row).getByRole('button', { name: 'Accept the swap from tidecaller' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Swap' }), { detail: 1 });
    expect(await within(dialog).findByText('A card in this swap has moved')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/market/swaps/77777777-7777-4777-8777-777777777777/accept');
    expect(post.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('declines', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/swaps/received')) return page([swap()]);
      if (c.method === 'POST' && c.url.endsWith('/decline')) return { body: swap({ state: 'declined', heldCents: 0 }) };
      return undefined;
    });
    renderWith(<SwapList side="received" userId="me" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Decline the swap from tidecaller' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/decline'))).toBe(true));
  });
});
