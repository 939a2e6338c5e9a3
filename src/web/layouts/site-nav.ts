import { ROUTES } from '@shared/routes';

export { SITE_NAV } from '@shared/site-nav';

export const FOOTER_NAV = [
  { def: ROUTES.about, label: 'About' },
  { def: ROUTES.termsOfService, label: 'Terms' },
  { def: ROUTES.privacyPolicy, label: 'Privacy' },
  { def: ROUTES.raffleTerms, label: 'Raffle terms' },
  { def: ROUTES.fairness, label: 'Provably fair' },
] as const;
