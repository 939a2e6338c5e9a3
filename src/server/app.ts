import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Deps } from './deps.ts';
import { limitBody } from './http/body-limit.ts';
import { AppError, respondError, toAppError } from './http/errors.ts';
import { jsonEncodingGuard, urlEncodingGuard } from './http/odd-bytes.ts';
import { createRouter } from './http/openapi.ts';
import { securityHeaders } from './http/security.ts';
import type { AppEnv } from './http/types.ts';
import { actorMiddleware } from './modules/auth/actor.ts';
import { originGuard } from './modules/auth/origin.ts';
import { apiModules } from './modules/index.ts';
import { maintenanceGate } from './modules/maintenance/gate.ts';
import { metricsFor } from './modules/metrics/metrics.ts';
import { metricsRoutes } from './modules/metrics/routes.ts';
import { monitoringRoutes } from './modules/monitoring/routes.ts';
import { STRIPE_WEBHOOK_PATH } from './modules/payments/routes.ts';
import { spaRoutes } from './modules/pages/spa.ts';
import { UPLOAD_PATH } from './modules/uploads/routes.ts';

/** An incoming X-Request-Id is kept only if it is a plain token (a proxy's id); else a fresh one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export const API_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 5 * 1024 * 1024 + 64 * 1024;

export interface AppOptions {
  /** Sets c.var.actor; defaults to the Better Auth session (modules/auth/actor.ts). */
  actorMiddleware?: MiddlewareHandler<AppEnv>;
  /** Where the built SPA lives (tests point this at a fixture). */
  webDistDir?: string;
  /** Extra API routers, mounted like modules (tests use it to exercise the conventions). */
  extraApiModules?: Array<(deps: Deps) => ReturnType<typeof createRouter>>;
}

/** Builds the whole HTTP app. No ports, no globals: tests call app.request() on it directly. */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = createRouter();
  const metrics = metricsFor(deps);

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const log = deps.log.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('actor', null);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    // Again on the final response: a handler may have built its own Response object.
    c.res.headers.set('X-Request-Id', requestId);
    const status = c.res.status;
    const ms = performance.now() - started;
    // The matched pattern (`/api/shop/products/:id`), never the raw path: bounded label values,
    // and no ids or tokens from the URL in metrics.
    const route = c.req.routePath;
    metrics.observeRequest(c.req.method, route, status, ms / 1000);
    // Probes arrive every few seconds from each load balancer, scrapes from Prometheus: not worth a line each.
    if (c.req.path !== '/api/health' && c.req.path !== '/api/ready' && c.req.path !== '/metrics') {
      log[status >= 500 ? 'error' : 'info']('request', { method: c.req.method, route, status, ms: Math.round(ms * 10) / 10 });
    }
  });
  // NUL and malformed percent-encoding / UTF-8 in the address: refused before anything decodes it.
  app.use('*', urlEncodingGuard());
  app.use('*', securityHeaders({ trustProxy: deps.config.trustProxy }));
  const defaultBodyLimit = limitBody(API_BODY_LIMIT, (c) => respondError(c, new AppError(413, 'payload_too_large', 'The request body is larger than 1 MB.')));
  // Image uploads get 5 MB (+ multipart framing); every other API body stays at 1 MB.
  const uploadBodyLimit = limitBody(UPLOAD_BODY_LIMIT, (c) =>
    respondError(c, new AppError(413, 'payload_too_large', 'The image is larger than 5 MB. Resize it and try again.')),
  );
  // GET and HEAD carry no body; skipping them also spares @hono/node-server building a full Request
  // object for every read (bodyLimit looks at c.req.raw.body).
  app.use('/api/*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : c.req.path === UPLOAD_PATH ? uploadBodyLimit(c, next) : defaultBodyLimit(c, next),
  );
  // …and in JSON bodies, before the origin check, the actor, Better Auth and every handler.
  app.use('/api/*', jsonEncodingGuard((path) => path.startsWith('/api/auth/') || path === STRIPE_WEBHOOK_PATH));
  app.use('/api/*', originGuard(deps.config));
  app.use('*', options.actorMiddleware ?? actorMiddleware(deps));
  // Maintenance mode: decided here, at the start of a request, never in the middle of one.
  app.use('/api/*', maintenanceGate(deps));

  for (const mod of [...apiModules, ...(options.extraApiModules ?? [])]) app.route('/api', mod(deps));

  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: `${deps.config.siteName} API`, version: '1.0.0' },
  });

  app.all('/api/*', (c) => respondError(c, new AppError(404, 'not_found', `No API endpoint at ${c.req.method} ${c.req.path}.`)));
  app.route('/', monitoringRoutes(deps));
  app.route('/', metricsRoutes(deps));
  // A visitor's public pages are drawn on the server from the API's own answers, in-process: the
  // visitor's connection and forwarding headers go along, nothing else (no cookie: a visitor's).
  app.route('/', spaRoutes(deps, options.webDistDir, (p, init, visitor) => app.request(p, init, visitor.env)));

  app.onError((err, c) => {
    const appErr = toAppError(err);
    if (appErr.status < 500) return respondError(c, appErr);
    // The route pattern and the path, never the query string (it can hold an address or a search).
    c.get('log')?.error('unhandled error', { err, method: c.req.method, route: c.req.routePath, path: c.req.path });
    // The id ties the user's report to that log line (the line carries it as reqId).
    return respondError(c, appErr, { requestId: c.get('requestId') });
  });
  app.notFound((c) => respondError(c, new AppError(404, 'not_found', 'Not found.')));
  return app;
}

export type App = ReturnType<typeof createApp>;
