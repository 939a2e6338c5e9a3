import { count } from 'drizzle-orm';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { retentionOf } from '../../config.ts';
import type { Deps } from '../../deps.ts';
import { monitoringReports } from '../../db/schema/monitoring.ts';
import { AppError, respondError, toAppError } from '../../http/errors.ts';
import { rateLimitAddress } from '../../http/client-ip.ts';
import { clientIp } from '../../http/security.ts';
import type { AppEnv } from '../../http/types.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { EnvelopeError, ingestUrlFromDsn, parseEnvelope } from './envelope.ts';

const PER_IP_PER_MINUTE = 30;
/** Retry-After when storage is full: the next prune may free some. */
const FULL_RETRY_AFTER_SECONDS = 3600;

/** The DSN the browser must put in its envelopes: the configured one, else a local marker. */
export function expectedDsn(deps: Deps): string {
  return deps.config.sentryDsn ?? `${deps.config.publicUrl}/monitoring`;
}

/**
 * POST /monitoring — a same-origin tunnel for browser error reports (Sentry envelopes).
 * The upstream URL comes only from SENTRY_DSN, never from the envelope, and nothing from the
 * browser's request but the body is forwarded.
 */
/**
 * Growth is bounded three ways (issue 13): a report over MONITORING_MAX_REPORT_BYTES is refused
 * with 413 before it is read whole (the built-in reporter sends a few KB, and a browser's
 * keepalive fetch carries 64 KB at most; a truncated envelope could be neither parsed nor
 * forwarded, so it is not kept in part); at MONITORING_MAX_REPORTS stored rows new reports are
 * refused with 503; the prune job (jobs/prune.ts) deletes reports after the retention period.
 * Full storage refuses the newest rather than dropping the oldest: otherwise anyone could flush
 * out the reports already kept (the first of a flood are the ones worth reading) by posting junk.
 * The count and the insert are two statements, so concurrent reports can pass the quota by at
 * most the number in flight.
 */
export function monitoringRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  const retention = retentionOf(deps.config);
  const maxBytes = retention.monitoringMaxReportBytes;
  let lastFullWarning = 0;
  app.post(
    '/monitoring',
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) =>
        respondError(
          c,
          new AppError(413, 'payload_too_large', `Reports are limited to ${Math.floor(maxBytes / 1024)} KB.`),
        ),
    }),
    async (c) => {
      try {
        const ip = clientIp(c, deps.config.trustProxy);
        const rl = await hitRateLimit(deps.dbh, `monitoring:${rateLimitAddress(ip)}`, PER_IP_PER_MINUTE, 60);
        if (!rl.allowed) {
          throw new AppError(429, 'rate_limited', 'Too many reports.', undefined, rl.retryAfterSeconds);
        }
        const body = await c.req.text();
        let env;
        try {
          env = parseEnvelope(body);
        } catch (err) {
          if (err instanceof EnvelopeError) throw new AppError(400, 'bad_envelope', err.message);
          throw err;
        }
        if (!env.dsn || env.dsn !== expectedDsn(deps)) {
          throw new AppError(403, 'forbidden', 'This envelope is not for this site.');
        }
        if (deps.config.sentryDsn) {
          const res = await fetch(ingestUrlFromDsn(deps.config.sentryDsn), {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-sentry-envelope' },
            body,
            signal: AbortSignal.timeout(5000),
          }).catch((err: unknown) => {
            c.get('log').warn('monitoring forward failed', { err });
            return null;
          });
          return c.json({ forwarded: Boolean(res?.ok) }, 200);
        }
        const [stored] = await deps.db.select({ n: count() }).from(monitoringReports);
        if ((stored?.n ?? 0) >= retention.monitoringMaxReports) {
          if (Date.now() - lastFullWarning > 60_000) {
            lastFullWarning = Date.now();
            c.get('log').warn('monitoring report storage is full; refusing new reports', {
              stored: stored?.n,
              max: retention.monitoringMaxReports,
            });
          }
          throw new AppError(
            503,
            'service_unavailable',
            'Report storage is full; try again later.',
            undefined,
            FULL_RETRY_AFTER_SECONDS,
          );
        }
        await deps.db.insert(monitoringReports).values({
          eventId: env.eventId,
          level: env.level,
          message: env.message,
          envelope: body,
          ip,
          userAgent: c.req.header('user-agent')?.slice(0, 300),
        });
        c.get('log').warn('browser error report', { eventId: env.eventId, message: env.message });
        return c.json({ stored: true }, 200);
      } catch (err) {
        return respondError(c, toAppError(err));
      }
    },
  );
  app.all('/monitoring', (c) => {
    c.header('Allow', 'POST');
    return respondError(c, new AppError(405, 'method_not_allowed', 'Use POST.'));
  });
  return app;
}
