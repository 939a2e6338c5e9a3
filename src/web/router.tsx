import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type AnyRoute,
  type RouterHistory,
} from '@tanstack/react-router';
import { ROUTES, type RouteDef } from '@shared/routes';
import { sessionQueryOptions } from '@web/features/auth/session';
import { RootLayout } from '@web/layouts/root-layout';
import { ChromeLayout, SiteLayout } from '@web/layouts/site-layout';
import { AuthLayout } from '@web/layouts/auth-layout';
import { NotFoundPage } from '@web/pages/not-found';
import { RouteErrorPage } from '@web/pages/route-error';
import { PAGES } from '@web/pages';
import { parseDashboardSearch } from '@web/features/dashboard/search';
import { parseMarketSearch, parseMyMarketSearch } from '@web/features/market/search';

export interface RouterContext {
  queryClient: QueryClient;
  /** True when rendering on the server (entry-server.tsx). */
  ssr?: boolean;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    route?: RouteDef;
  }
  interface Register {
    router: ReturnType<typeof buildRouter>;
  }
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
});

// The shop and the profile area share one header (ChromeLayout), kept mounted between them.
const chromeLayout = createRoute({ getParentRoute: () => rootRoute, id: 'chrome', component: ChromeLayout });
const siteLayout = createRoute({ getParentRoute: () => chromeLayout, id: 'site', component: SiteLayout });
const authLayout = createRoute({ getParentRoute: () => rootRoute, id: 'auth', component: AuthLayout });

async function signedIn(context: RouterContext, href: string) {
  const me = await context.queryClient.ensureQueryData(sessionQueryOptions);
  if (!me) throw redirect({ to: '/sign-in', search: { redirect: href } });
  return me;
}

/** Signed-in-only site pages (vault, home, open pack) sit under this pathless guard. */
const userSite = createRoute({
  getParentRoute: () => siteLayout,
  id: 'user-site',
  beforeLoad: async ({ context, location }) => ({ me: await signedIn(context, location.href) }),
});

const profileLayout = createRoute({
  getParentRoute: () => chromeLayout,
  id: 'profile',
  // Signed-in pages only: not part of a visitor's first page.
  component: lazyRouteComponent(() => import('@web/layouts/profile-layout'), 'ProfileLayout'),
  beforeLoad: async ({ context, location }) => ({ me: await signedIn(context, location.href) }),
});

const adminLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'admin',
  // The back office's shell is loaded with its first page, never by the public shop.
  component: lazyRouteComponent(() => import('@web/layouts/admin-layout'), 'AdminLayout'),
  beforeLoad: async ({ context, location }) => {
    const me = await signedIn(context, location.href);
    if (me.user.role === 'user') throw redirect({ to: '/home' });
    // The API refuses admin calls without a second factor; send the admin to finish it.
    if (!me.user.twoFactorEnabled) throw redirect({ to: '/register-mfa', search: { redirect: location.href } });
    if (!me.session.mfaPassed) throw redirect({ to: '/login-mfa', search: { redirect: location.href } });
    return { me };
  },
});

type PageKey = keyof typeof PAGES;

/** Only the first page of a visit waits for early data (see PageExports.firstPaintWithData). */
let firstPage = true;
/** How long that first page may wait; its data was requested with the app's code (early-requests.ts). */
const FIRST_DATA_WAIT_MS = 300;

/** One route per entry of the route table; the page component comes from pages/index.ts. */
function page<TParent extends AnyRoute, const TPath extends string, TSearch = unknown>(
  parent: TParent,
  def: RouteDef & { path: TPath },
  key: PageKey,
  // Typed search params of a page whose state lives in the URL (e.g. the dashboard's period).
  validateSearch?: (search: Record<string, unknown>) => TSearch,
) {
  return createRoute({
    getParentRoute: () => parent,
    path: def.path,
    validateSearch,
    component: lazyRouteComponent(PAGES[key]),
    // Starts the page's first queries alongside its code instead of after its first render.
    // Not awaited (the page shows its own loading state), except briefly on the first page of a
    // visit that asks for it. Hover preloads skip it. On the server (entry-server.tsx) it is
    // awaited in full: the HTML is drawn from that data, and the browser hydrates from the same.
    loader: async ({ context, location, params, preload }) => {
      if (preload) return;
      const m = await PAGES[key]().catch(() => null);
      const data = m?.prefetch?.(context.queryClient, location.search as Record<string, unknown>, params as Record<string, string>);
      if (context.ssr) {
        await data;
        return;
      }
      const first = firstPage;
      firstPage = false;
      if (first && data && m?.firstPaintWithData) {
        await Promise.race([data.catch(() => {}), new Promise((r) => setTimeout(r, FIRST_DATA_WAIT_MS))]);
      }
    },
    // The table's entry, even where the router's path differs from it (the dashboard's '/admin/').
    staticData: { route: ROUTES[key] },
  });
}

const R = ROUTES;
const routeTree = rootRoute.addChildren([
  chromeLayout.addChildren([
    siteLayout.addChildren([
      page(siteLayout, R.root, 'root'),
      page(siteLayout, R.about, 'about'),
      page(siteLayout, R.privacyPolicy, 'privacyPolicy'),
      page(siteLayout, R.raffleTerms, 'raffleTerms'),
      page(siteLayout, R.termsOfService, 'termsOfService'),
      page(siteLayout, R.cards, 'cards'),
      page(siteLayout, R.dailyDropWinners, 'dailyDropWinners'),
      page(siteLayout, R.dailyDrop, 'dailyDrop'),
      page(siteLayout, R.shop, 'shop'),
      page(siteLayout, R.shopProduct, 'shopProduct'),
      page(siteLayout, R.topPulls, 'topPulls'),
      page(siteLayout, R.market, 'market', parseMarketSearch),
      page(siteLayout, R.marketListing, 'marketListing'),
      page(siteLayout, R.pull, 'pull'),
      page(siteLayout, R.invite, 'invite'),
      page(siteLayout, R.fairness, 'fairness'),
      page(siteLayout, R.fairnessReturns, 'fairnessReturns'),
      page(siteLayout, R.fairnessProduct, 'fairnessProduct'),
      page(siteLayout, R.unsubscribe, 'unsubscribe'),
      userSite.addChildren([
        page(userSite, R.home, 'home'),
        page(userSite, R.collect, 'collect'),
        page(userSite, R.openPack, 'openPack'),
        page(userSite, R.checkout, 'checkout'),
      ]),
      page(siteLayout, R.notFound, 'notFound'),
    ]),
    profileLayout.addChildren([
      page(profileLayout, R.profileAccount, 'profileAccount'),
      page(profileLayout, R.profileBilling, 'profileBilling'),
      page(profileLayout, R.profileHistory, 'profileHistory'),
      page(profileLayout, R.profileNotifications, 'profileNotifications'),
      page(profileLayout, R.profilePrivacy, 'profilePrivacy'),
      page(profileLayout, R.profileReferral, 'profileReferral'),
      page(profileLayout, R.profileShipping, 'profileShipping'),
      page(profileLayout, R.profileMarket, 'profileMarket', parseMyMarketSearch),
    ]),
  ]),
  authLayout.addChildren([
    page(authLayout, R.signIn, 'signIn'),
    page(authLayout, R.signUp, 'signUp'),
    page(authLayout, R.authError, 'authError'),
    page(authLayout, R.maintenance, 'maintenance'),
    page(authLayout, R.confirmRequest, 'confirmRequest'),
    page(authLayout, R.loginMfa, 'loginMfa'),
    page(authLayout, R.registerMfa, 'registerMfa'),
    page(authLayout, R.resetPassword, 'resetPassword'),
    page(authLayout, R.updatePassword, 'updatePassword'),
  ]),
  adminLayout.addChildren([
    // '/admin/', not '/admin': under the pathless layout the router matches a bare '/admin' to the
    // catch-all '/admin/$' (an empty splat outranks it), so /admin showed "Admin page not found".
    // With the trailing slash it is the index of /admin and wins; links and URLs stay '/admin'.
    page(adminLayout, { ...R.admin, path: '/admin/' }, 'admin', parseDashboardSearch),
    page(adminLayout, R.adminAdmins, 'adminAdmins'),
    page(adminLayout, R.adminArchitects, 'adminArchitects'),
    page(adminLayout, R.adminArchitect, 'adminArchitect'),
    page(adminLayout, R.adminBuyback, 'adminBuyback'),
    page(adminLayout, R.adminCards, 'adminCards'),
    page(adminLayout, R.adminCard, 'adminCard'),
    page(adminLayout, R.adminClass, 'adminClass'),
    page(adminLayout, R.adminClassDetail, 'adminClassDetail'),
    page(adminLayout, R.adminDaily, 'adminDaily'),
    page(adminLayout, R.adminDailyDetail, 'adminDailyDetail'),
    page(adminLayout, R.adminHistory, 'adminHistory'),
    page(adminLayout, R.adminMaintenance, 'adminMaintenance'),
    page(adminLayout, R.adminOwned, 'adminOwned'),
    page(adminLayout, R.adminMarket, 'adminMarket'),
    page(adminLayout, R.adminPack, 'adminPack'),
    page(adminLayout, R.adminProducts, 'adminProducts'),
    page(adminLayout, R.adminReferrals, 'adminReferrals'),
    page(adminLayout, R.adminSettings, 'adminSettings'),
    page(adminLayout, R.adminReferral, 'adminReferral'),
    page(adminLayout, R.adminProduct, 'adminProduct'),
    page(adminLayout, R.adminPromo, 'adminPromo'),
    page(adminLayout, R.adminPromoDetail, 'adminPromoDetail'),
    page(adminLayout, R.adminResetPassword, 'adminResetPassword'),
    page(adminLayout, R.adminShipping, 'adminShipping'),
    page(adminLayout, R.adminShippingCards, 'adminShippingCards'),
    page(adminLayout, R.adminShippingFrom, 'adminShippingFrom'),
    page(adminLayout, R.adminShippingFromDetail, 'adminShippingFromDetail'),
    page(adminLayout, R.adminShipment, 'adminShipment'),
    page(adminLayout, R.adminTextures, 'adminTextures'),
    page(adminLayout, R.adminTexture, 'adminTexture'),
    page(adminLayout, R.adminUsers, 'adminUsers'),
    page(adminLayout, R.adminUser, 'adminUser'),
    page(adminLayout, R.adminUserBalance, 'adminUserBalance'),
    page(adminLayout, R.adminUserHistory, 'adminUserHistory'),
    page(adminLayout, R.adminUserShipping, 'adminUserShipping'),
    page(adminLayout, R.adminValueReviews, 'adminValueReviews'),
    page(adminLayout, R.adminNotFound, 'adminNotFound'),
  ]),
]);

export function buildRouter(queryClient: QueryClient, server?: { history: RouterHistory }) {
  return createRouter({
    routeTree,
    context: { queryClient, ssr: Boolean(server) },
    ...(server ? { history: server.history } : {}),
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    // Not on the server: there it is an inline script, which the CSP refuses (and the browser's
    // router restores scroll itself).
    scrollRestoration: !server,
  });
}
