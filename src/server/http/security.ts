import type { MiddlewareHandler } from 'hono';
import { BOOT_SCRIPT_CSP } from './boot-script.ts';
import { clientIp, fromTrustedProxy, type TrustProxy } from './client-ip.ts';
import type { AppEnv } from './types.ts';

export { clientIp };

const CSP = [
  "default-src 'self'",
  // One inline script, by its hash: what starts a server-drawn page's code (boot-script.ts).
  `script-src 'self' ${BOOT_SCRIPT_CSP}`,
  // Inline style attributes come from animation and card tilt; the page's stylesheet is inlined
  // (pages/spa.ts).
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

export function securityHeaders(opts: { trustProxy: TrustProxy }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('Content-Security-Policy', CSP);
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    const proto = fromTrustedProxy(c, opts.trustProxy) ? c.req.header('x-forwarded-proto') : undefined;
    const https = proto === 'https' || new URL(c.req.url).protocol === 'https:';
    if (https) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
