/**
 * The route table: every page of the product, its access and its title. The web router builds
 * its tree from it, the server decides 200/404 from it, and the tests crawl it.
 *
 * Paths use TanStack Router syntax ($param); `specPath` shows them as original-spec.md writes them.
 */

export type Access = 'public' | 'user' | 'admin' | 'owner';
export type Area = 'site' | 'auth' | 'profile' | 'admin';

export interface RouteDef {
  readonly path: string;
  readonly title: string;
  readonly access: Access;
  readonly area: Area;
  /** True for the routes listed in original-spec.md. */
  readonly spec: boolean;
  /** Admin side navigation group. */
  readonly group?: string;
  /** Label in a navigation menu, when it appears in one. */
  readonly nav?: string;
  /** Catch-all routes answer 404. */
  readonly notFound?: boolean;
}

const r = <const P extends string>(
  path: P,
  title: string,
  access: Access,
  area: Area,
  extra: Partial<Omit<RouteDef, 'path' | 'title' | 'access' | 'area'>> = {},
) => ({ path, title, access, area, spec: true, ...extra }) as const satisfies RouteDef;

export const ROUTES = {
  // Public site
  root: r('/', 'Open packs, own real cards', 'public', 'site'),
  about: r('/about', 'About', 'public', 'site'),
  privacyPolicy: r('/privacy-policy', 'Privacy policy', 'public', 'site'),
  raffleTerms: r('/raffle-terms', 'Raffle terms', 'public', 'site'),
  termsOfService: r('/terms-of-service', 'Terms of service', 'public', 'site'),
  cards: r('/cards', 'Cards', 'public', 'site', { nav: 'Cards' }),
  collect: r('/collect', 'My vault', 'user', 'site'),
  dailyDropWinners: r('/daily-drop-winners', 'Daily drops', 'public', 'site', { nav: 'Daily drops' }),
  dailyDrop: r('/daily-drop/$id', 'Daily drop', 'public', 'site', { spec: false }),
  home: r('/home', 'Home', 'user', 'site'),
  maintenance: r('/maintenance', 'Down for maintenance', 'public', 'auth'),
  openPack: r('/open-pack', 'Open a pack', 'user', 'site', { nav: 'Open pack' }),
  shop: r('/shop', 'Shop', 'public', 'site', { nav: 'Shop' }),
  shopProduct: r('/shop/$id', 'Pack', 'public', 'site'),
  topPulls: r('/top-pulls', 'Top pulls', 'public', 'site', { nav: 'Top pulls' }),
  /** One pull's public page (issue 19 item 2); the server adds its link-preview tags. */
  pull: r('/pulls/$id', 'Pull', 'public', 'site', { spec: false }),
  invite: r('/invite/$referralCode', 'You are invited', 'public', 'site'),
  /** Turns off one kind of notification mail from its link, without signing in. */
  unsubscribe: r('/unsubscribe', 'Email preferences', 'public', 'site', { spec: false }),
  fairness: r('/fairness', 'Provably fair', 'public', 'site', { spec: false }),
  /** Promised against realised returns per product and odds revision (issue 44). */
  fairnessReturns: r('/fairness/returns', 'Returns', 'public', 'site', { spec: false }),
  /** A product's published odds revisions (issue 44). */
  fairnessProduct: r('/fairness/products/$id', 'Odds history', 'public', 'site', { spec: false }),
  /** The built-in TEST MODE payment page of a deposit (sandbox provider). */
  checkout: r('/checkout/$id', 'Test checkout', 'user', 'site', { spec: false }),
  /** The marketplace (issue 43): collectors' listings of vaulted cards, and one listing with buy now. */
  market: r('/market', 'Market', 'public', 'site', { spec: false, nav: 'Market' }),
  marketListing: r('/market/$id', 'Listing', 'public', 'site', { spec: false }),

  // Profile
  profileAccount: r('/profile/account', 'Account', 'user', 'profile', { nav: 'Account' }),
  profileBilling: r('/profile/billing', 'Billing', 'user', 'profile', { nav: 'Billing' }),
  profileHistory: r('/profile/history', 'History', 'user', 'profile', { nav: 'History' }),
  profileNotifications: r('/profile/notifications', 'Notifications', 'user', 'profile', { nav: 'Notifications' }),
  profilePrivacy: r('/profile/privacy-and-security', 'Privacy and security', 'user', 'profile', {
    nav: 'Privacy & security',
  }),
  profileReferral: r('/profile/referral', 'Referrals', 'user', 'profile', { nav: 'Referrals' }),
  profileShipping: r('/profile/shipping', 'Shipping addresses', 'user', 'profile', { nav: 'Shipping' }),
  /** The seller's side of the marketplace: their listings and sales. */
  profileMarket: r('/profile/market', 'Market', 'user', 'profile', { spec: false, nav: 'Market' }),

  // Auth
  signIn: r('/sign-in', 'Sign in', 'public', 'auth', { spec: false }),
  signUp: r('/sign-up', 'Create your account', 'public', 'auth', { spec: false }),
  authError: r('/auth-error', 'Something went wrong', 'public', 'auth'),
  confirmRequest: r('/confirm-request', 'Check your email', 'public', 'auth'),
  loginMfa: r('/login-mfa', 'Two-factor check', 'public', 'auth'),
  registerMfa: r('/register-mfa', 'Set up two-factor', 'user', 'auth'),
  resetPassword: r('/reset-password', 'Reset your password', 'public', 'auth'),
  updatePassword: r('/update-password', 'Choose a new password', 'public', 'auth'),

  // Admin
  admin: r('/admin', 'Dashboard', 'admin', 'admin', { spec: false, group: 'Overview', nav: 'Dashboard' }),
  adminAdmins: r('/admin/admins', 'Admins', 'owner', 'admin', { group: 'People', nav: 'Admins' }),
  adminArchitects: r('/admin/architects', 'Architects', 'admin', 'admin', { group: 'Catalog', nav: 'Architects' }),
  adminBuyback: r('/admin/buyback', 'Buyback', 'admin', 'admin', { group: 'Money', nav: 'Buyback' }),
  adminCards: r('/admin/cards', 'Cards', 'admin', 'admin', { group: 'Catalog', nav: 'Cards' }),
  adminClass: r('/admin/class', 'Classes', 'admin', 'admin', { group: 'Catalog', nav: 'Classes' }),
  adminReferrals: r('/admin/referrals', 'Referrals', 'admin', 'admin', { spec: false, group: 'Engagement', nav: 'Referrals' }),
  adminDaily: r('/admin/daily', 'Daily drops', 'admin', 'admin', { group: 'Engagement', nav: 'Daily drops' }),
  adminMaintenance: r('/admin/maintenance', 'Maintenance', 'owner', 'admin', { spec: false, group: 'Overview', nav: 'Maintenance' }),
  adminHistory: r('/admin/history', 'Audit log', 'admin', 'admin', { group: 'Overview', nav: 'Audit log' }),
  adminSettings: r('/admin/settings', 'Settings', 'admin', 'admin', { spec: false, group: 'Overview', nav: 'Settings' }),
  adminOwned: r('/admin/owned', 'Owned cards', 'admin', 'admin', { group: 'Catalog', nav: 'Owned cards' }),
  /** The marketplace's back office (issue 43 item 7): listings, trades, the market's figures. */
  adminMarket: r('/admin/market', 'Marketplace', 'admin', 'admin', { spec: false, group: 'Money', nav: 'Marketplace' }),
  adminValueReviews: r('/admin/value-reviews', 'Value reviews', 'admin', 'admin', { spec: false, group: 'Catalog', nav: 'Value reviews' }),
  adminProducts: r('/admin/products', 'Products', 'admin', 'admin', { group: 'Shop', nav: 'Products' }),
  adminPromo: r('/admin/promo', 'Promo codes', 'admin', 'admin', { group: 'Money', nav: 'Promo codes' }),
  adminResetPassword: r('/admin/reset-password', 'Send password reset', 'admin', 'admin', {
    group: 'People',
    nav: 'Password reset',
  }),
  adminShipping: r('/admin/shipping', 'Shipping queue', 'admin', 'admin', { group: 'Shipping', nav: 'Queue' }),
  adminShippingCards: r('/admin/shipping/cards', 'Cards to pull', 'admin', 'admin', {
    group: 'Shipping',
    nav: 'Cards to pull',
  }),
  adminShippingFrom: r('/admin/shipping/from', 'Ship-from addresses', 'admin', 'admin', {
    group: 'Shipping',
    nav: 'Ship-from addresses',
  }),
  adminTextures: r('/admin/textures', 'Textures', 'admin', 'admin', { group: 'Catalog', nav: 'Textures' }),
  adminUsers: r('/admin/users', 'Users', 'admin', 'admin', { group: 'People', nav: 'Users' }),

  adminArchitect: r('/admin/architects/$id', 'Architect', 'admin', 'admin'),
  adminCard: r('/admin/cards/$id', 'Card', 'admin', 'admin'),
  adminClassDetail: r('/admin/class/$id', 'Class', 'admin', 'admin'),
  adminReferral: r('/admin/referrals/$id', 'Referral', 'admin', 'admin', { spec: false }),
  adminDailyDetail: r('/admin/daily/$id', 'Daily drop', 'admin', 'admin'),
  adminPack: r('/admin/packs/$id', 'Pack', 'admin', 'admin'),
  adminProduct: r('/admin/products/$id', 'Product', 'admin', 'admin'),
  adminPromoDetail: r('/admin/promo/$id', 'Promo code', 'admin', 'admin'),
  adminShipment: r('/admin/shipping/$id', 'Shipment', 'admin', 'admin'),
  adminShippingFromDetail: r('/admin/shipping/from/$id', 'Ship-from address', 'admin', 'admin'),
  adminTexture: r('/admin/textures/$id', 'Texture', 'admin', 'admin'),
  adminUser: r('/admin/users/$id', 'User', 'admin', 'admin'),
  adminUserBalance: r('/admin/users/$id/balance', 'User balance', 'admin', 'admin'),
  adminUserHistory: r('/admin/users/$id/history', 'User history', 'admin', 'admin'),
  adminUserShipping: r('/admin/users/$id/shipping', 'User shipping', 'admin', 'admin'),

  // The two catch-alls of the spec.
  adminNotFound: r('/admin/$', 'Admin page not found', 'admin', 'admin', { notFound: true }),
  notFound: r('/$', 'Page not found', 'public', 'site', { notFound: true }),
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;
export const ROUTE_LIST: ReadonlyArray<RouteDef & { id: RouteId }> = (Object.keys(ROUTES) as RouteId[]).map(
  (id) => ({ id, ...ROUTES[id] }),
);

/** `/shop/$id` → `/shop/{id}` (original-spec.md notation). */
export function specPath(path: string): string {
  return path.replace(/\$([A-Za-z]\w*)/g, '{$1}');
}

/** Fills params into a route path: fillPath('/shop/$id', { id: '7' }) → '/shop/7'. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\$([A-Za-z]\w*)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

const matchers = ROUTE_LIST.filter((d) => !d.notFound).map((d) => ({
  def: d,
  re: new RegExp(`^${d.path.replace(/\$[A-Za-z]\w*/g, '[^/]+')}/?$`),
}));

/** The page route a pathname belongs to, or the catch-all that handles it (404). */
export function matchRoute(pathname: string): RouteDef & { id: RouteId } {
  for (const m of matchers) if (m.re.test(pathname)) return m.def;
  return pathname === '/admin' || pathname.startsWith('/admin/')
    ? { id: 'adminNotFound', ...ROUTES.adminNotFound }
    : { id: 'notFound', ...ROUTES.notFound };
}

export const ADMIN_NAV_GROUPS = ['Overview', 'People', 'Money', 'Shop', 'Catalog', 'Shipping', 'Engagement'] as const;
