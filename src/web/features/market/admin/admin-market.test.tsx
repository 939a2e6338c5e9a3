import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminMarketListing } from '@shared/contracts/market-admin';
import { apiError, mockServer } from '@web/test/mock-server';
import { listingFixture } from '../test-fixtures';
import { AdminMarket } from './admin-market';

// Links need a router; an anchor with the target is enough here.
vi.mock('@tanstack/react-router', async () => (await import('../test-fixtures')).routerMock());

const listing = (over: Partial<AdminMarketListing> = {}): AdminMarketListing => ({
  ...listingFixture(),
  sellerEmail: 'tide@example.test',
  buyerId: null,
  buyerUsername: null,
  openOffers: 2,
  removedBy: null,
  removedReason: null,
  closedAt: null,
  ...over,
});

const summary = { from: '2026-01-01', to: '2026-01-30', activeListings: 3, activeListingsCents: 6_000, openOffers: 2, heldCents: 3_000, sales: 4, volumeCents: 12_345, feesCents: 617 };

function renderWith(ui: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>);
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => cleanup());

describe('/admin/market', () => {
  it('shows the figures, and removes a listing only with a reason, which it sends', async () => {
    const calls = mockServer((c) => {
      if (c.url.startsWith('/api/admin/market/summary')) return { body: summary };
      if (c.url.startsWith('/api/admin/market/listings?')) return { body: { items: [listing(), listing({ id: 'mine', sellerId: 'me', name: 'Own card' })], total: 2, page: 1, pageSize: 25 } };
      if (c.url.endsWith('/remove')) return { body: listing({ state: 'delisted', removedReason: 'fake' }) };
      return undefined;
    });
    renderWith(<AdminMarket viewerId="me" />);
    const figures = await screen.findByRole('region', { name: 'The market' });
    await waitFor(() => expect(figures.textContent).toMatch(/Volume\$123\.454 sales/));
    expect(figures.textContent).toMatch(/Fee revenue\$6\.17/);
    // The last 30 days by default.
    expect(calls.find((c) => c.url.startsWith('/api/admin/market/summary'))!.url).toMatch(/from=\d{4}-\d{2}-\d{2}/);

    const table = await screen.findByRole('table', { name: /Listings/ });
    // The admin's own listing has no remove button.
    expect(within(table).getByText('Your listing: another admin can remove it')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Remove the listing of Kraken by tidecaller' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/2 open offers close and their money is released/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove the listing' }));
    expect(await within(dialog).findByText(/Give a reason/)).toBeTruthy();
    expect(calls.filter((c) => c.url.endsWith('/remove'))).toHaveLength(0);
    fireEvent.input(within(dialog).getByRole('textbox', { name: /Reason/ }), { target: { value: 'Counterfeit reported' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove the listing' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/remove'))).toHaveLength(1));
    expect(calls.find((c) => c.url.endsWith('/remove'))!.body).toEqual({ reason: 'Counterfeit reported' });
  });

  it('says why a removal was refused and keeps the dialog', async () => {
    mockServer((c) => {
      if (c.url.startsWith('/api/admin/market/summary')) return { body: summary };
      if (c.url.startsWith('/api/admin/market/listings?')) return { body: { items: [listing()], total: 1, page: 1, pageSize: 25 } };
      if (c.url.endsWith('/remove')) return apiError(403, 'self_dealing', 'You are selling this card on the market yourself.');
      return undefined;
    });
    renderWith(<AdminMarket viewerId="me" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove the listing of Kraken by tidecaller' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.input(within(dialog).getByRole('textbox', { name: /Reason/ }), { target: { value: 'Undercutting me' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove the listing' }));
    expect(await within(dialog).findByText('The listing was not removed')).toBeTruthy();
    expect(dialog.textContent).toMatch(/selling this card on the market yourself/);
  });
});
