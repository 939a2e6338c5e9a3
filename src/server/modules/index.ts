import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps.ts';
import type { AppEnv } from '../http/types.ts';
import { accountRoutes } from './account/routes.ts';
import { adminUsersRoutes } from './admin-users/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { booksRoutes } from './books/routes.ts';
import { buybackRoutes } from './buyback/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { collectionRoutes } from './collection/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { inventoryRoutes } from './inventory/routes.ts';
import { mailRoutes } from './mail/routes.ts';
import { ownedAdminRoutes } from './owned-admin/routes.ts';
import { paymentsRoutes } from './payments/routes.ts';
import { platformRoutes } from './platform/routes.ts';
import { promoRoutes } from './promo/routes.ts';
import { realtimeRoutes } from './realtime/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { walletRoutes } from './wallet/routes.ts';
import { tellWishersOfCards } from './shop/admin.ts';
import { getOpening } from './shop/read.ts';
import { shopRoutes } from './shop/routes.ts';
import { revisionRoutes } from './shop/revision-routes.ts';
import { fairnessRoutes } from './fairness/routes.ts';
import { dropsRoutes } from './drops/routes.ts';
import { shippingRoutes } from './shipping/routes.ts';
import { referralsRoutes } from './referrals/routes.ts';
import { notificationsRoutes } from './notifications/routes.ts';
import { maintenanceRoutes } from './maintenance/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { returnsRoutes } from './dashboard/returns-routes.ts';
import { pullsRoutes } from './pulls/routes.ts';
import { marketAdminRoutes } from './market/admin-routes.ts';
import { marketRoutes } from './market/routes.ts';
import { swapRoutes } from './market/swap-routes.ts';
import { vaultProofRoutes } from './vault-proof/routes.ts';

/**
 * Every domain's API router, mounted under /api. Add one line per module.
 * Admin routers mount their paths under /admin/… and apply requireAdmin themselves.
 */
export const apiModules: Array<(deps: Deps) => OpenAPIHono<AppEnv>> = [
  healthRoutes,
  // Before every module that reads a setting: building it attaches this app's settings store.
  settingsRoutes,
  platformRoutes,
  realtimeRoutes,
  authRoutes,
  accountRoutes,
  adminUsersRoutes,
  auditRoutes,
  mailRoutes,
  // The catalog and fairness sit below the shop (layers.json): the shop's parts they use come in here.
  (deps) => catalogRoutes(deps, { onDrawable: (tx, ids) => tellWishersOfCards(deps, tx, ids) }),
  (deps) => uploadRoutes(deps),
  walletRoutes,
  (deps) => paymentsRoutes(deps),
  promoRoutes,
  collectionRoutes,
  buybackRoutes,
  ownedAdminRoutes,
  shopRoutes,
  (deps) => fairnessRoutes(deps, { getOpening }),
  revisionRoutes,
  booksRoutes,
  inventoryRoutes,
  dropsRoutes,
  shippingRoutes,
  referralsRoutes,
  notificationsRoutes,
  maintenanceRoutes,
  dashboardRoutes,
  returnsRoutes,
  (deps) => pullsRoutes(deps),
  swapRoutes,
  marketRoutes,
  marketAdminRoutes,
  vaultProofRoutes,
];
