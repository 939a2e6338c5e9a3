import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps.ts';
import type { AppEnv } from '../http/types.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { platformRoutes } from './platform/routes.ts';
import { realtimeRoutes } from './realtime/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';

/**
 * Every domain's API router, mounted under /api. Add one line per module.
 * Admin routers mount their paths under /admin/… and apply requireAdmin themselves.
 */
export const apiModules: Array<(deps: Deps) => OpenAPIHono<AppEnv>> = [
  healthRoutes,
  platformRoutes,
  realtimeRoutes,
  catalogRoutes,
  (deps) => uploadRoutes(deps),
];
