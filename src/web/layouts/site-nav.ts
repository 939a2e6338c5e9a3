import { ROUTES } from '@shared/routes';

/** The header's main navigation, in the order the shop wants it; labels and paths from the route table. */
export const SITE_NAV = [ROUTES.shop, ROUTES.openPack, ROUTES.cards, ROUTES.topPulls, ROUTES.dailyDropWinners] as const;

export const FOOTER_NAV = [
  { def: ROUTES.about, label: 'About' },
  { def: ROUTES.termsOfService, label: 'Terms' },
  { def: ROUTES.privacyPolicy, label: 'Privacy' },
  { def: ROUTES.raffleTerms, label: 'Raffle terms' },
  { def: ROUTES.fairness, label: 'Provably fair' },
] as const;
