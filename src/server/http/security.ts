import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './types.ts';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Inline style attributes come from animation and card tilt; no inline scripts are allowed.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(opts: { trustProxy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('Content-Security-Policy', CSP);
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    const proto = opts.trustProxy ? c.req.header('x-forwarded-proto') : undefined;
    const https = proto === 'https' || new URL(c.req.url).protocol === 'https:';
    if (https) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}

/** The client address, honouring X-Forwarded-For only behind a trusted proxy. */
export function clientIp(
  c: { req: { header(name: string): string | undefined }; env?: unknown },
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const xff = c.req.header('x-forwarded-for');
    if (xff) return xff.split(',')[0]!.trim();
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? '127.0.0.1';
}
