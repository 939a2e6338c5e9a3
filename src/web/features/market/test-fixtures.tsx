import type { ReactNode } from 'react';
import type { MarketListing } from '@shared/contracts/market';

/** A listing for the market's component tests; `over` changes what a test is about. */
export const listingFixture = (over: Partial<MarketListing> = {}): MarketListing => ({
  id: '11111111-1111-4111-8111-111111111111',
  ownedCardId: '22222222-2222-4222-8222-222222222222',
  cardId: 'c1',
  name: 'Kraken',
  setName: 'Deep',
  number: 7,
  classId: 'k1',
  className: 'Rare',
  classColour: '#7c3aed',
  imageKey: '',
  gradingCompany: null,
  grade: null,
  valueCents: 1_500,
  sellerId: 'seller',
  sellerUsername: 'tidecaller',
  priceCents: 2_000,
  feeCents: 100,
  sellerReceivesCents: 1_900,
  state: 'active',
  version: 1,
  soldPriceCents: null,
  expiresAt: null,
  soldAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** The router's Link as a plain anchor: the components under test need no router (used through vi.mock). */
export const routerMock = () => ({
  Link: ({ children, to }: { children: ReactNode; to: string }) => <a href={to}>{children}</a>,
});
