import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketListing, MarketOffer, MarketQuote } from '@shared/contracts/market';
import { apiError, mockServer } from '@web/test/mock-server';
import { listingFixture } from './test-fixtures';
import { MakeCardOffer, MakeOffer } from './offers';
import { OfferList } from './my-offers';
import { parseMyMarketSearch } from './search';

// Links need a router; an anchor with the target is enough here.
vi.mock('@tanstack/react-router', async () => (await import('./test-fixtures')).routerMock());

const LISTING: MarketListing = listingFixture();

const offer = (over: Partial<MarketOffer> = {}): MarketOffer => ({
  id: '33333333-3333-4333-8333-333333333333',
  listingId: LISTING.id,
  cardId: 'c1',
  name: 'Kraken',
  setName: 'Deep',
  imageKey: '',
  buyerId: 'buyer',
  buyerUsername: 'bidder',
  sellerId: 'seller',
  sellerUsername: 'tidecaller',
  madeBy: 'buyer',
  amountCents: 1_500,
  heldCents: 1_500,
  listingPriceCents: 2_000,
  state: 'open',
  counterOf: null,
  ownedCardId: null,
  feeCents: null,
  expiresAt: '2026-01-04T00:00:00.000Z',
  closedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const page = (items: MarketOffer[]) => ({ body: { items, total: items.length, page: 1, pageSize: 20 } });
const quote = (priceCents: number): MarketQuote => ({
  priceCents,
  feeBp: 500,
  minFeeCents: 50,
  feeCents: 75,
  sellerReceivesCents: priceCents - 75,
  minPriceCents: 100,
  maxPriceCents: 10_000_000,
});

function renderWith(ui: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>);
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('the tab of /profile/market in the URL', () => {
  it('keeps a known tab other than the default, drops the rest', () => {
    expect(parseMyMarketSearch({ tab: 'offers-received' })).toEqual({ tab: 'offers-received' });
    expect(parseMyMarketSearch({ tab: 'listings' })).toEqual({});
    expect(parseMyMarketSearch({ tab: 'nope', x: 1 })).toEqual({});
  });
});

describe('Make an offer', () => {
  it('shows the free balance, refuses more than the price, and holds once with the intent’s key', async () => {
    const calls = mockServer((c) => {
      if (c.url === '/api/wallet/balance') return { body: { balanceCents: 5_000, heldCents: 700, currency: 'USD' } };
      if (c.method === 'POST' && c.url === `/api/market/${LISTING.id}/offers`) return { status: 201, body: offer() };
      return undefined;
    });
    renderWith(<MakeOffer listing={LISTING} />);
    fireEvent.click(screen.getByRole('button', { name: 'Make an offer' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.textContent).toMatch(/Free to offer now: \$50\.00 \(\$7\.00 is held for your other offers\)/));
    const amount = within(dialog).getByRole('textbox', { name: /Your offer/ });
    fireEvent.input(amount, { target: { value: '25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send offer' }), { detail: 1 });
    expect(await within(dialog).findByText(/at most the price/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.input(amount, { target: { value: '15' } });
    const send = within(dialog).getByRole('button', { name: 'Send offer' });
    fireEvent.click(send, { detail: 1 });
    fireEvent.click(send, { detail: 2 });
    expect(await screen.findByRole('status')).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ amountCents: 1_500, expiresInHours: 72 });
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says what to do when the free balance is too low, and keeps the dialog open', async () => {
    mockServer((c) => {
      if (c.url === '/api/wallet/balance') return { body: { balanceCents: 100, heldCents: 0, currency: 'USD' } };
      if (c.method === 'POST') return apiError(409, 'insufficient_funds', 'Your free balance is $1.00. Nothing was held.');
      return undefined;
    });
    renderWith(<MakeOffer listing={LISTING} />);
    fireEvent.click(screen.getByRole('button', { name: 'Make an offer' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.input(within(dialog).getByRole('textbox', { name: /Your offer/ }), { target: { value: '10' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send offer' }), { detail: 1 });
    expect(await within(dialog).findByText('Not enough free credit')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Add funds in billing' }).getAttribute('href')).toBe('/profile/billing');
  });
});

describe('Make an offer on a card', () => {
  it('posts the card, not a listing; no price caps it; the words say any holder may accept', async () => {
    const calls = mockServer((c) => {
      if (c.url === '/api/wallet/balance') return { body: { balanceCents: 50_000, heldCents: 0, currency: 'USD' } };
      if (c.method === 'POST' && c.url === '/api/market/offers') return { status: 201, body: offer({ listingId: null, amountCents: 30_000 }) };
      return undefined;
    });
    renderWith(<MakeCardOffer card={{ id: '44444444-4444-4444-8444-444444444444', name: 'Kraken' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Make an offer on this card' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/Every collector holding this card/);
    fireEvent.input(within(dialog).getByRole('textbox', { name: /Your offer/ }), { target: { value: '300' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: /Offer open for/ }), { target: { value: '168' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send offer' }), { detail: 1 });
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/open to every holder of this card/);
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/market/offers');
    expect(post.body).toEqual({ cardId: '44444444-4444-4444-8444-444444444444', amountCents: 30_000, expiresInHours: 168 });
  });
});

describe('offers made to you', () => {
  it('a bid on your listing: accept shows the fee and what you receive, and sells once with the intent’s key', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/offers/received')) return page([offer()]);
      if (c.url === '/api/market/quote') return { body: quote((c.body as { priceCents: number }).priceCents) };
      if (c.url.endsWith('/accept')) return { status: 201, body: { offer: offer({ state: 'accepted' }), ownedCardId: LISTING.ownedCardId, ledgerEntryId: 'e1' } };
      return undefined;
    });
    renderWith(<OfferList side="received" userId="seller" />);
    const list = await screen.findByRole('list', { name: 'Offers made to you' });
    expect(list.textContent).toMatch(/from bidder to you/);
    expect(within(list).getByRole('button', { name: 'Counter the offer of Kraken' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Decline the offer of Kraken' })).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Accept the offer of Kraken' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.textContent).toMatch(/You receive\$14\.25/));
    const sell = within(dialog).getByRole('button', { name: 'Sell for $15.00' });
    fireEvent.click(sell, { detail: 1 });
    fireEvent.click(sell, { detail: 2 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const accepts = calls.filter((c) => c.url.endsWith('/accept'));
    expect(accepts).toHaveLength(1);
    expect(accepts[0]!.body).toEqual({});
    expect(accepts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an offer on a card: accept names which of your copies goes, and a card offer cannot be countered or declined', async () => {
    const copy = (id: string, cardId: string) => ({ id, card: { id: cardId }, acquiredAt: '2026-01-02T00:00:00.000Z' });
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/offers/received')) return page([offer({ listingId: null, sellerId: null, sellerUsername: null, listingPriceCents: null })]);
      if (c.url === '/api/market/quote') return { body: quote(1_500) };
      if (c.url.startsWith('/api/collection')) {
        return { body: { items: [copy('44444444-4444-4444-8444-444444444444', 'c1'), copy('55555555-5555-4555-8555-555555555555', 'other')], total: 2, page: 1, pageSize: 200 } };
      }
      if (c.url.endsWith('/accept')) return { status: 201, body: { offer: offer({ state: 'accepted' }), ownedCardId: 'x', ledgerEntryId: 'e1' } };
      return undefined;
    });
    renderWith(<OfferList side="received" userId="holder" />);
    const list = await screen.findByRole('list', { name: 'Offers made to you' });
    expect(within(list).queryByRole('button', { name: /Counter/ })).toBeNull();
    expect(within(list).queryByRole('button', { name: /Decline/ })).toBeNull();
    fireEvent.click(within(list).getByRole('button', { name: 'Accept the offer of Kraken' }));
    const dialog = await screen.findByRole('dialog');
    const pick = await within(dialog).findByRole('combobox', { name: /Which of your copies/ });
    // Only the copies of this card, found by name then matched by id.
    expect(within(pick).getAllByRole('option')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sell for $15.00' }), { detail: 1 });
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/accept'))).toHaveLength(1));
    expect(calls.find((c) => c.url.endsWith('/accept'))!.body).toEqual({ ownedCardId: '44444444-4444-4444-8444-444444444444' });
  });

  it('a counter must be above the bid and at most the price before it is sent', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/offers/received')) return page([offer()]);
      if (c.url.endsWith('/counter')) return { status: 201, body: offer({ madeBy: 'seller', amountCents: 1_800 }) };
      return undefined;
    });
    renderWith(<OfferList side="received" userId="seller" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Counter the offer of Kraken' }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByRole('textbox', { name: /Your counter/ });
    fireEvent.input(amount, { target: { value: '14' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send counter' }));
    expect(await within(dialog).findByText(/above the buyer’s offer/)).toBeTruthy();
    fireEvent.input(amount, { target: { value: '21' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send counter' }));
    expect(await within(dialog).findByText(/at most your listing’s price/)).toBeTruthy();
    expect(calls.filter((c) => c.url.endsWith('/counter'))).toHaveLength(0);
    fireEvent.input(amount, { target: { value: '18' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send counter' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/counter'))).toHaveLength(1));
    expect(calls.find((c) => c.url.endsWith('/counter'))!.body).toEqual({ amountCents: 1_800 });
  });
});

describe('offers you made', () => {
  it('an open one can be withdrawn (the hold is released); a closed one has no action', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/market/offers/mine')) return page([offer(), offer({ id: '66666666-6666-4666-8666-666666666666', state: 'rejected', heldCents: 0, closedAt: '2026-01-02T00:00:00.000Z' })]);
      if (c.url.endsWith('/cancel')) return { body: offer({ state: 'cancelled', heldCents: 0 }) };
      return undefined;
    });
    renderWith(<OfferList side="made" userId="buyer" />);
    const list = await screen.findByRole('list', { name: 'Offers you made' });
    expect(list.textContent).toMatch(/\$15\.00 held from your balance/);
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    fireEvent.click(within(list).getByRole('button', { name: 'Withdraw the offer of Kraken' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/goes back to your balance/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/cancel'))).toHaveLength(1));
  });
});
