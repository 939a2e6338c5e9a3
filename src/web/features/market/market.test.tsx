import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketListing, MarketPurchase, MarketQuote } from '@shared/contracts/market';
import { ApiClientError } from '@web/lib/api';
import { apiError, mockServer } from '@web/test/mock-server';
import { listingFixture } from './test-fixtures';
import { marketKeys, marketListingQuery } from './api';
import { BuyError, BuyNow } from './buy';
import { SellDialog } from './price-dialogs';
import { browseQueryOf, parseMarketSearch } from './search';

// Links need a router; an anchor with the target is enough here.
vi.mock('@tanstack/react-router', async () => (await import('./test-fixtures')).routerMock());

const LISTING: MarketListing = listingFixture();

const quoteFor = (priceCents: number): MarketQuote => {
  const feeCents = Math.max(50, Math.floor(priceCents * 0.05));
  return { priceCents, feeBp: 500, minFeeCents: 50, feeCents, sellerReceivesCents: priceCents - feeCents, minPriceCents: 100, maxPriceCents: 10_000_000 };
};

function renderWith(ui: ReactNode, qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  return { qc, ...render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>) };
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('the market search in the URL', () => {
  it('keeps what can be a filter, drops the rest and the defaults, and sends cents', () => {
    const s = parseMarketSearch({ q: ' kraken ', graded: 'graded', minGrade: 9, minPrice: 12.5, maxPrice: 'x', sort: 'newest', page: 1, junk: 1 });
    expect(s).toEqual({ q: 'kraken', graded: 'graded', minGrade: 9, minPrice: 12.5 });
    expect(browseQueryOf(s)).toEqual({ q: 'kraken', graded: 'graded', minGrade: 9, minPriceCents: 1250, sort: 'newest', page: 1, pageSize: 24 });
    // A raw card has no grade.
    expect(parseMarketSearch({ graded: 'raw', minGrade: 9 })).toEqual({ graded: 'raw' });
  });
});

describe('Sell on the market', () => {
  it('shows the live quote (fee, what the seller receives) and lists at the price confirmed', async () => {
    const calls = mockServer((c) => {
      if (c.url === '/api/market/quote') return { body: quoteFor((c.body as { priceCents: number }).priceCents) };
      if (c.method === 'POST' && c.url === '/api/market') return { status: 201, body: { ...LISTING, priceCents: 2_000 } };
      return undefined;
    });
    const onListed = vi.fn();
    renderWith(<SellDialog copy={{ id: LISTING.ownedCardId, name: 'Kraken' }} open onOpenChange={() => {}} onListed={onListed} />);
    const list = screen.getByRole('button', { name: 'List it' }) as HTMLButtonElement;
    expect(list.disabled).toBe(true);
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '20' } });
    await waitFor(() => expect(screen.getByLabelText('Quote').textContent).toMatch(/You receive\$19\.00/));
    expect(screen.getByLabelText('Quote').textContent).toMatch(/−\$1\.00/);
    expect(calls.filter((c) => c.url === '/api/market/quote').map((c) => c.body)).toEqual([{ priceCents: 2_000 }]);
    fireEvent.change(screen.getByRole('combobox', { name: /Listing ends/ }), { target: { value: '7' } });
    fireEvent.click(await screen.findByRole('button', { name: 'List for $20.00' }));
    await waitFor(() => expect(onListed).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/market')!.body).toEqual({ ownedCardId: LISTING.ownedCardId, priceCents: 2_000, expiresInDays: 7 });
  });

  it('says why a price outside the bounds cannot be used, and does not list', async () => {
    const calls = mockServer((c) =>
      c.url === '/api/market/quote' ? apiError(400, 'validation_failed', 'Invalid input.', { priceCents: ['The lowest price is $1.00.'] }) : undefined,
    );
    renderWith(<SellDialog copy={{ id: LISTING.ownedCardId, name: 'Kraken' }} open onOpenChange={() => {}} />);
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '0.50' } });
    expect(await screen.findByText('The lowest price is $1.00.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'List it' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.url === '/api/market' && c.method === 'POST')).toBe(false);
  });
});

describe('a price far from the card’s comparables', () => {
  it('says why and lists only when the seller confirms that same price; another price asks again', async () => {
    const far = 'That price is well above what this card goes for: its value is $15.00. Check the price, or confirm to list it anyway.';
    const calls = mockServer((c) => {
      if (c.url === '/api/market/quote') return { body: quoteFor((c.body as { priceCents: number }).priceCents) };
      if (c.method === 'POST' && c.url === '/api/market') {
        return (c.body as { confirmFarPrice?: boolean }).confirmFarPrice ? { status: 201, body: { ...LISTING, priceCents: 90_000 } } : apiError(409, 'price_far_from_comps', far, { priceCents: [far] });
      }
      return undefined;
    });
    const onListed = vi.fn();
    renderWith(<SellDialog copy={{ id: LISTING.ownedCardId, name: 'Kraken' }} open onOpenChange={() => {}} onListed={onListed} />);
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '900' } });
    fireEvent.click(await screen.findByRole('button', { name: 'List for $900.00' }));
    expect(await screen.findByText(far)).toBeTruthy();
    expect(onListed).not.toHaveBeenCalled();
    // Another price: the question goes; back to the same price, it is asked again by the server.
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '800' } });
    expect(await screen.findByRole('button', { name: 'List for $800.00' })).toBeTruthy();
    expect(screen.queryByText(far)).toBeNull();
    fireEvent.input(screen.getByRole('textbox', { name: /Price/ }), { target: { value: '900' } });
    fireEvent.click(await screen.findByRole('button', { name: 'List anyway for $900.00' }));
    await waitFor(() => expect(onListed).toHaveBeenCalled());
    const posts = calls.filter((c) => c.method === 'POST' && c.url === '/api/market').map((c) => c.body);
    expect(posts).toEqual([
      { ownedCardId: LISTING.ownedCardId, priceCents: 90_000 },
      { ownedCardId: LISTING.ownedCardId, priceCents: 90_000, confirmFarPrice: true },
    ]);
  });
});

describe('Buy now', () => {
  const balance = (cents: number) => ({ body: { balanceCents: cents, currency: 'USD' } });
  const purchase: MarketPurchase = { listing: { ...LISTING, state: 'sold' }, ownedCardId: LISTING.ownedCardId, ledgerEntryId: 'e1', balanceCents: 3_000 };

  async function openConfirm() {
    fireEvent.click(screen.getByRole('button', { name: 'Buy now for $20.00' }));
    return screen.findByRole('dialog');
  }

  it('states the price and the balance after, and buys once with the intent’s key at the price seen', async () => {
    const calls = mockServer((c) => {
      if (c.url === '/api/wallet/balance') return balance(5_000);
      if (c.url === `/api/market/${LISTING.id}/buy`) return { status: 201, body: purchase };
      return undefined;
    });
    const onBought = vi.fn();
    renderWith(<BuyNow listing={LISTING} onBought={onBought} />);
    const dialog = await openConfirm();
    await waitFor(() => expect(dialog.textContent).toMatch(/Balance after\$30\.00/));
    const pay = screen.getByRole('button', { name: 'Pay $20.00' });
    fireEvent.click(pay, { detail: 1 });
    fireEvent.click(pay, { detail: 2 });
    await waitFor(() => expect(onBought).toHaveBeenCalledWith(purchase));
    const buys = calls.filter((c) => c.url.endsWith('/buy'));
    expect(buys).toHaveLength(1);
    expect(buys[0]!.body).toEqual({ expectedPriceCents: 2_000, expectedVersion: 1 });
    expect(buys[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('after price_changed shows the new price, reads the listing again and buys at the new price and version', async () => {
    let version = 1;
    const calls = mockServer((c) => {
      if (c.url === '/api/wallet/balance') return balance(5_000);
      if (c.url === `/api/market/${LISTING.id}`) return { body: { ...LISTING, priceCents: 2_500, version } };
      if (c.url.endsWith('/buy')) {
        const b = c.body as { expectedPriceCents: number; expectedVersion: number };
        if (b.expectedPriceCents !== 2_500 || b.expectedVersion !== 2) {
          version = 2;
          return apiError(409, 'price_changed', 'The seller changed the price to $25.00. Nothing was charged; check the new price and buy again.', { priceCents: ['2500'] });
        }
        return { status: 201, body: purchase };
      }
      return undefined;
    });
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    qc.setQueryData(marketKeys.listing(LISTING.id), LISTING);
    // The page's listing comes from the cache, as on /market/{id}.
    function Page() {
      const l = useQuery({ ...marketListingQuery(LISTING.id), staleTime: Infinity }).data!;
      return <BuyNow listing={l} onBought={onBought} />;
    }
    const onBought = vi.fn();
    renderWith(<Page />, qc);
    await openConfirm();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $20.00' }));
    expect(await screen.findByText('The price changed')).toBeTruthy();
    expect(screen.getByText(/The seller changed the price to/).textContent).toMatch(/\$25\.00/);
    await waitFor(() => expect(calls.some((c) => c.method === 'GET' && c.url === `/api/market/${LISTING.id}`)).toBe(true));
    await waitFor(() => expect(qc.getQueryData<MarketListing>(marketKeys.listing(LISTING.id))?.version).toBe(2));
    await new Promise((r) => setTimeout(r, 600)); // past the click guard's gesture tail
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $25.00' }));
    await waitFor(() => expect(onBought).toHaveBeenCalled());
    const buys = calls.filter((c) => c.url.endsWith('/buy'));
    expect(buys.map((c) => c.body)).toEqual([
      { expectedPriceCents: 2_000, expectedVersion: 1 },
      { expectedPriceCents: 2_500, expectedVersion: 2 },
    ]);
    // A refusal is an answer: the new intent has a new key.
    expect(buys[0]!.key).not.toBe(buys[1]!.key);
  });

  it('with too little credit says how much more, links to billing and does not offer to pay', async () => {
    mockServer((c) => (c.url === '/api/wallet/balance' ? balance(500) : undefined));
    renderWith(<BuyNow listing={LISTING} onBought={() => {}} />);
    await openConfirm();
    expect(await screen.findByText(/You need/)).toBeTruthy();
    expect(screen.getByText(/You need/).textContent).toMatch(/\$15\.00 more/);
    expect(screen.getByRole('link', { name: 'Add funds in billing' }).getAttribute('href')).toBe('/profile/billing');
    expect((screen.getByRole('button', { name: 'Pay $20.00' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('each refusal of a purchase says what to do next', () => {
  const show = (err: ApiClientError) => renderWith(<BuyError error={err} listingId={LISTING.id} />);

  it('listing_sold: no longer for sale, find another', () => {
    show(new ApiClientError(409, 'listing_sold', 'Someone else bought this card first. Nothing was charged.'));
    expect(screen.getByText('This card is no longer for sale')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Find another listing' }).getAttribute('href')).toBe('/market');
  });

  it('insufficient_funds: add funds', () => {
    show(new ApiClientError(409, 'insufficient_funds', 'Your balance is too low.'));
    expect(screen.getByText('Not enough credit')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add funds in billing' }).getAttribute('href')).toBe('/profile/billing');
  });

  it('self_dealing: your own listing, see your market page', () => {
    show(new ApiClientError(403, 'self_dealing', 'This is your own listing: you cannot buy it. Delist it to keep the card.'));
    expect(screen.getByText('You cannot buy this listing')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'your market page' }).getAttribute('href')).toBe('/profile/market');
  });

  it('self_excluded: spending is paused, review the limits', () => {
    show(new ApiClientError(403, 'self_excluded', 'You have excluded yourself until June 1.'));
    expect(screen.getByText('Spending is paused on your account')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'privacy and security' }).getAttribute('href')).toBe('/profile/privacy-and-security');
  });

  it('no answer: says a retry never charges twice', () => {
    show(new ApiClientError(0, 'network_error', 'We could not reach the server.'));
    expect(document.body.textContent).toMatch(/buying again never charges twice/);
  });
});
