import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import { AppError, respondError } from './errors.ts';

/**
 * Development conveniences (the dev mailbox, the demo accounts, the sandbox checkout) answer only
 * to this machine. "This machine" is the TCP peer of the socket, never a header: X-Forwarded-For
 * is written by the client. A request with no socket at all is an in-process call (app.request()
 * in tests or tooling); @hono/node-server always provides one for network traffic.
 *
 * A loopback peer is not enough (issue 39): a reverse proxy on the same host is a loopback peer
 * for everyone it forwards. So a request carrying any forwarding header is never local, whoever
 * wrote it and whatever TRUST_PROXY says — a proxy forwarded it, or a client pretends one did.
 */

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  if (IPV4_LOOPBACK.test(a)) return true;
  const mapped = /^(?:::ffff:|0:0:0:0:0:ffff:)(.+)$/.exec(a);
  return mapped ? IPV4_LOOPBACK.test(mapped[1]!) : false;
}

type PeerEnv = { incoming?: { socket?: { remoteAddress?: string } } } | undefined;

/** Headers a proxy adds to say whom it forwarded for (de facto and RFC 7239). */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-original-forwarded-for',
  'via',
];

/** True when the request says it passed through a proxy: any X-Forwarded-* or the headers above. */
export function hasForwardingHeaders(headers: Headers): boolean {
  for (const name of FORWARDING_HEADERS) if (headers.has(name)) return true;
  for (const [name] of headers) if (name.startsWith('x-forwarded-')) return true;
  return false;
}

/**
 * True when the request came from a loopback socket peer (or from inside the process) and
 * carries no forwarding header.
 */
export function isLoopbackPeer(c: { env?: unknown; req: { raw: Request } }): boolean {
  if (hasForwardingHeaders(c.req.raw.headers)) return false;
  const incoming = (c.env as PeerEnv)?.incoming;
  if (!incoming) return true;
  return isLoopbackAddress(incoming.socket?.remoteAddress);
}

/**
 * Header our auth route sets on the request it hands to Better Auth (overwriting any client value)
 * so the auth hooks know whether the peer is local; see modules/auth/demo-accounts.ts.
 */
export const PEER_LOOPBACK_HEADER = 'x-packvault-peer-loopback';

export function peerLoopbackHeaderValue(c: Context): '1' | '0' {
  return isLoopbackPeer(c) ? '1' : '0';
}

export function loopbackOnlyError(what: string): AppError {
  return new AppError(
    403,
    'forbidden',
    `${what} answers only on this machine (a loopback address, not through a proxy) in development.`,
  );
}

/** Refuses requests from non-loopback peers. Production never mounts what this guards. */
export function loopbackOnly(config: Config, what: string): MiddlewareHandler {
  return async (c, next) => {
    if (config.isProduction || !isLoopbackPeer(c)) return respondError(c, loopbackOnlyError(what));
    await next();
  };
}
