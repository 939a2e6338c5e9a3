import { ROUTES } from './routes.ts';

/** The header's main navigation, in the order the shop wants it; labels and paths from the route table. */
export const SITE_NAV = [ROUTES.shop, ROUTES.openPack, ROUTES.cards, ROUTES.market, ROUTES.topPulls, ROUTES.dailyDropWinners] as const;
