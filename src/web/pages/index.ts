import type { QueryClient } from '@tanstack/react-query';
import type { RouteId } from '@shared/routes';
import NotFoundPage from './not-found';

/**
 * A page module: its component, and optionally `prefetch`, which starts the page's first
 * queries while the router is still loading it (called with the URL's search and path params).
 * On the server (entry-server.tsx) it is awaited before the page is drawn, so a server-rendered
 * page's prefetch asks for everything its first render shows. When the
 * page's largest content needs that data (the /cards grid), `firstPaintWithData` lets the first
 * visit wait briefly for it, so the first paint is the grid rather than a skeleton.
 */
export interface PageExports {
  default: React.ComponentType;
  prefetch?: (queryClient: QueryClient, search: Record<string, unknown>, params: Record<string, string>) => Promise<unknown> | void;
  firstPaintWithData?: boolean;
}
type PageModule = Promise<PageExports>;

/**
 * The page component of every route in the route table, loaded on demand (one chunk each).
 */
export const PAGES: Record<RouteId, () => PageModule> = {
  root: () => import('./shop/landing'),
  about: () => import('./static/about'),
  privacyPolicy: () => import('./static/privacy-policy'),
  raffleTerms: () => import('./static/raffle-terms'),
  termsOfService: () => import('./static/terms-of-service'),
  cards: () => import('./catalog/cards'),
  collect: () => import('./collection/collect'),
  dailyDropWinners: () => import('./drops/daily-drop-winners'),
  dailyDrop: () => import('./drops/daily-drop'),
  home: () => import('./shop/home'),
  maintenance: () => import('./static/maintenance'),
  openPack: () => import('./shop/open-pack'),
  shop: () => import('./shop/shop'),
  shopProduct: () => import('./shop/product'),
  topPulls: () => import('./shop/top-pulls'),
  pull: () => import('./pulls/pull'),
  invite: () => import('./referrals/invite'),
  unsubscribe: () => import('./account/unsubscribe'),
  adminReferrals: () => import('./referrals/admin-referrals'),
  adminSettings: () => import('./settings/admin-settings'),
  adminReferral: () => import('./referrals/admin-referral'),
  fairness: () => import('./shop/fairness'),
  fairnessReturns: () => import('./shop/fairness-returns'),
  fairnessProduct: () => import('./shop/fairness-product'),
  checkout: () => import('./wallet/checkout'),
  market: () => import('./market/market'),
  marketListing: () => import('./market/listing'),

  profileAccount: () => import('./account/account'),
  profileBilling: () => import('./wallet/billing'),
  profileHistory: () => import('./wallet/history'),
  profileNotifications: () => import('./account/notifications'),
  profilePrivacy: () => import('./account/privacy-and-security'),
  profileReferral: () => import('./referrals/profile-referral'),
  profileShipping: () => import('./shipping/profile-shipping'),
  profileMarket: () => import('./market/profile-market'),

  signIn: () => import('./auth/sign-in'),
  signUp: () => import('./auth/sign-up'),
  authError: () => import('./auth/auth-error'),
  confirmRequest: () => import('./auth/confirm-request'),
  loginMfa: () => import('./auth/login-mfa'),
  registerMfa: () => import('./auth/register-mfa'),
  resetPassword: () => import('./auth/reset-password'),
  updatePassword: () => import('./auth/update-password'),

  admin: () => import('./admin-dashboard'),
  adminAdmins: () => import('./admin-users/admins'),
  adminMaintenance: () => import('./maintenance/admin-maintenance'),
  adminArchitects: () => import('./catalog/admin-architects'),
  adminArchitect: () => import('./catalog/admin-architect'),
  adminBuyback: () => import('./collection/admin-buyback'),
  adminCards: () => import('./catalog/admin-cards'),
  adminValueReviews: () => import('./catalog/admin-value-reviews'),
  adminCard: () => import('./catalog/admin-card'),
  adminClass: () => import('./catalog/admin-classes'),
  adminClassDetail: () => import('./catalog/admin-class'),
  adminDaily: () => import('./drops/admin-daily'),
  adminDailyDetail: () => import('./drops/admin-daily-detail'),
  adminHistory: () => import('./admin-users/history'),
  adminOwned: () => import('./collection/admin-owned'),
  adminMarket: () => import('./market/admin-market'),
  adminPack: () => import('./shop/admin-pack'),
  adminProducts: () => import('./shop/admin-products'),
  adminProduct: () => import('./shop/admin-product'),
  adminPromo: () => import('./wallet/admin-promo'),
  adminPromoDetail: () => import('./wallet/admin-promo-detail'),
  adminResetPassword: () => import('./admin-users/reset-password'),
  adminShipping: () => import('./shipping/admin-shipping'),
  adminShippingCards: () => import('./shipping/admin-shipping-cards'),
  adminShippingFrom: () => import('./shipping/admin-shipping-from'),
  adminShippingFromDetail: () => import('./shipping/admin-shipping-from-detail'),
  adminShipment: () => import('./shipping/admin-shipment'),
  adminTextures: () => import('./catalog/admin-textures'),
  adminTexture: () => import('./catalog/admin-texture'),
  adminUsers: () => import('./admin-users/users'),
  adminUser: () => import('./admin-users/user'),
  adminUserBalance: () => import('./wallet/admin-user-balance'),
  adminUserHistory: () => import('./wallet/admin-user-history'),
  adminUserShipping: () => import('./shipping/admin-user-shipping'),

  adminNotFound: () => import('./admin-not-found'),
  // Also the router's notFoundComponent, so it is in the main chunk already.
  notFound: () => Promise.resolve({ default: NotFoundPage }),
};
