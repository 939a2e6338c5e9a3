import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { pingDb } from '../../db/client.ts';
import { journalHead, migrationsAtHead, type MigrationHead } from '../../db/migrate.ts';
import { createRouter, jsonContent, z } from '../../http/openapi.ts';

const healthSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({ status: z.literal('ready') });
const notReadySchema = z.object({
  status: z.literal('not_ready'),
  reason: z.enum(['shutting_down', 'database_unreachable', 'migrations_pending']),
});

/** A probe answers within this even when the database hangs (a load balancer's timeout is short). */
const PROBE_DB_TIMEOUT_MS = 2000;

function within<T>(ms: number, p: Promise<T>, otherwise: T): Promise<T> {
  return Promise.race([p, new Promise<T>((r) => setTimeout(() => r(otherwise), ms).unref())]);
}

export interface HealthOptions {
  /** The newest migration the database must have (tests pass one it lacks). Defaults to the journal's last. */
  migrationHead?: () => MigrationHead;
}

/**
 * Two probes (docs/architecture.md, "Stopping and probes"):
 * - /api/health is liveness: the process is up and its event loop answers. It never touches the
 *   database, so a database outage does not make an orchestrator restart every process at once
 *   (which would not bring the database back).
 * - /api/ready is readiness: send traffic here? The database answers, every migration of this
 *   build is applied, and the process is not shutting down (it flips to 503 on SIGTERM first
 *   thing, so a proxy stops sending before the socket closes).
 */
export function healthRoutes(deps: Deps, opts: HealthOptions = {}) {
  const app = createRouter();
  const head = opts.migrationHead ?? (() => journalHead());
  // Once at head, always at head for this process: migrations only move forward.
  let atHead = false;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      tags: ['platform'],
      summary: 'Liveness: the process is up (does not check the database; see /api/ready)',
      responses: { 200: jsonContent(healthSchema, 'Alive') },
    }),
    (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'ok' as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/ready',
      tags: ['platform'],
      summary: 'Readiness: the database answers, its migrations are at head, and the process is not shutting down',
      responses: {
        200: jsonContent(readySchema, 'Ready for traffic'),
        503: jsonContent(notReadySchema, 'Not ready: send traffic elsewhere'),
      },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      const notReady = (reason: z.infer<typeof notReadySchema>['reason']) => c.json({ status: 'not_ready' as const, reason }, 503);
      if (deps.shutdown.aborted) return notReady('shutting_down');
      if (!(await within(PROBE_DB_TIMEOUT_MS, pingDb(deps.dbh), false))) return notReady('database_unreachable');
      if (!atHead) {
        const checked = await within(
          PROBE_DB_TIMEOUT_MS,
          migrationsAtHead(deps.dbh, head()).catch(() => null),
          null,
        );
        if (checked === null) return notReady('database_unreachable');
        if (!checked) return notReady('migrations_pending');
        atHead = true;
      }
      // Checked again: SIGTERM may have arrived while the database answered.
      if (deps.shutdown.aborted) return notReady('shutting_down');
      return c.json({ status: 'ready' as const }, 200);
    },
  );
  return app;
}
