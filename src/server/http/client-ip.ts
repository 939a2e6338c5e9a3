import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/**
 * Which reverse proxies may report the client address in X-Forwarded-For (TRUST_PROXY):
 * - `false` (or 0): none, the socket peer is the client and the header is ignored;
 * - `true` (or 1): one proxy, the socket peer; the client is the last X-Forwarded-For entry;
 * - a number n: a chain of n proxies; the client is the n-th entry from the right;
 * - a list of IPs/CIDRs: the peer and entries inside them are proxies; the client is the
 *   rightmost entry outside them.
 * Every proxy appends the address it received the request from, so only the right end of the
 * header is written by proxies: the left end is whatever the client sent and is never trusted.
 */
export type TrustProxy = boolean | number | readonly string[];

/** A request as clientIp needs it (a Hono context fits). */
export interface IpSource {
  req: { header(name: string): string | undefined };
  env?: unknown;
}

const MAX_HOPS = 20;

function mappedToIpv4(ipv6: string): string | null {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ipv6);
  if (!m) return null;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * One canonical spelling per address, or null for anything that is not an IP: ports and
 * brackets ("1.2.3.4:80", "[::1]:443") and zone ids are dropped, IPv6 is lowercased and
 * compressed, and IPv4-mapped IPv6 ("::ffff:1.2.3.4", as a dual-stack socket reports IPv4 peers)
 * becomes plain IPv4, so one client always gets one rate-limit key.
 */
export function normalizeIp(value: string | undefined | null): string | null {
  if (!value) return null;
  let v = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
  v = v.replace(/%[\w.-]+$/, '').toLowerCase();
  const kind = isIP(v);
  if (kind === 4) return v;
  if (kind !== 6) return null;
  let canonical: string;
  try {
    canonical = new URL(`http://[${v}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  return mappedToIpv4(canonical) ?? canonical;
}

/** Parses one trusted entry ("10.0.0.0/8", "2001:db8::/32", "::ffff:10.0.0.0/104", "192.0.2.1"). */
function parseCidr(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const slash = entry.indexOf('/');
  const rawAddress = slash === -1 ? entry : entry.slice(0, slash);
  const rawPrefix = slash === -1 ? null : entry.slice(slash + 1);
  if (rawPrefix !== null && !/^\d{1,3}$/.test(rawPrefix)) return null;
  if (!isIP(rawAddress)) return null;
  const address = normalizeIp(rawAddress);
  if (!address) return null;
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const writtenAsV6 = rawAddress.includes(':');
  let prefix = rawPrefix === null ? (family === 'ipv4' ? 32 : 128) : Number(rawPrefix);
  // An IPv4-mapped range is matched as the IPv4 range it maps (addresses are normalised the same way).
  if (family === 'ipv4' && writtenAsV6 && rawPrefix !== null) {
    if (prefix < 96) return null;
    prefix -= 96;
  }
  if (prefix > (family === 'ipv4' ? 32 : 128)) return null;
  return { address, prefix, family };
}

/**
 * TRUST_PROXY as written in the environment: true|false|yes|no|on|off|<hops>|<comma-separated
 * IPs or CIDRs>. Throws an Error whose message says what is wrong.
 */
export function parseTrustProxy(raw: string): TrustProxy {
  const v = raw.trim().toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > MAX_HOPS) throw new Error(`must be at most ${MAX_HOPS} proxy hops`);
    return hops;
  }
  const entries = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = entries.find((e) => !parseCidr(e) || !compiles(e));
  if (bad !== undefined || entries.length === 0) {
    throw new Error(
      `must be true, false, a number of proxy hops, or comma-separated proxy IPs/CIDRs such as 10.0.0.0/8,2001:db8::/32${bad !== undefined ? ` ("${bad}" is not an IP or CIDR)` : ''}`,
    );
  }
  return entries;
}

/** proxy-addr's question: may the address at this position of the chain (0 = the socket peer) report the one before it? */
type Trust = (addr: string, i: number) => boolean;

const compiled = new WeakMap<readonly string[], Trust>();

/** Whether proxy-addr takes this entry (it refuses a /0, which parseCidr would let through). */
function compiles(entry: string): boolean {
  try {
    proxyaddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

function trustOf(trustProxy: TrustProxy): Trust {
  if (trustProxy === true || trustProxy === false || typeof trustProxy === 'number') {
    const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : Math.max(0, Math.floor(trustProxy));
    return (_addr, i) => i < hops;
  }
  let trust = compiled.get(trustProxy);
  if (!trust) {
    // Only what parseTrustProxy accepted reaches here (config.ts); a list built in code is checked the same way.
    const bad = trustProxy.find((e) => !parseCidr(e.trim().toLowerCase()) || !compiles(e.trim().toLowerCase()));
    if (bad !== undefined) throw new Error(`trustProxy: "${bad}" is not an IP or CIDR`);
    trust = trustProxy.length ? proxyaddr.compile(trustProxy.map((e) => e.trim().toLowerCase())) : () => false;
    compiled.set(trustProxy, trust);
  }
  return trust;
}

/** The TCP peer (Node adapter), or 127.0.0.1 when there is no socket (app.request in tests). */
function peerAddress(c: IpSource): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return normalizeIp(env?.incoming?.socket?.remoteAddress) ?? '127.0.0.1';
}

/** Whether the socket peer is a trusted proxy (so its X-Forwarded-* headers may be believed). */
export function fromTrustedProxy(c: IpSource, trustProxy: TrustProxy): boolean {
  return trustOf(trustProxy)(peerAddress(c), 0);
}

/** Stands for an X-Forwarded-For entry that is not an address (empty too): no proxy is trusted through it. */
const NOT_AN_ADDRESS = 'unknown';

/**
 * The client address: the address the outermost trusted proxy saw, never an entry the client
 * wrote itself. Always a normalised IP (see normalizeIp).
 *
 * proxy-addr walks the chain from the socket peer leftwards while the trust function agrees, and
 * stops at the first address it does not trust: that is the client. With a hop count, the n-th
 * entry from the right, or the leftmost when the chain is shorter (an outer proxy was skipped).
 * The entries are normalised first, so a proxy is matched however it was spelt (a port, brackets,
 * IPv4-mapped), and an entry that is not an address stays in its place (proxy-addr would drop an
 * empty one and shift the count).
 */
export function clientIp(c: IpSource, trustProxy: TrustProxy): string {
  const peer = peerAddress(c);
  const header = c.req.header('x-forwarded-for');
  const chain = header === undefined ? '' : header.split(',').map((e) => normalizeIp(e) ?? NOT_AN_ADDRESS).join(',');
  // proxy-addr reads only these two fields of a node request.
  const req = { socket: { remoteAddress: peer }, headers: { 'x-forwarded-for': chain } } as unknown as Parameters<typeof proxyaddr.all>[0];
  const addrs = proxyaddr.all(req, trustOf(trustProxy));
  // Garbage where a trusted proxy should have written an address: fall back towards the peer, to
  // the nearest entry a trusted proxy did write.
  for (let i = addrs.length - 1; i > 0; i--) {
    if (addrs[i] !== NOT_AN_ADDRESS) return addrs[i]!;
  }
  return peer;
}

/**
 * The key every per-address rate limit counts under (issue 39): the client address as clientIp
 * finds it, with IPv6 grouped by /64 (rateLimitAddress). Sign-in, monitoring, referral invites,
 * unsubscribe links, event streams and image renders all key through this one helper.
 */
export function clientAddressKey(c: IpSource, trustProxy: TrustProxy): string {
  return rateLimitAddress(clientIp(c, trustProxy));
}

/**
 * The bucket a per-address rate limit counts: the address itself for IPv4, its /64 for IPv6
 * (one subscriber usually holds a whole /64 and could otherwise rotate through it).
 */
export function rateLimitAddress(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const full = expandIpv6(ip);
  return full ? `${full.slice(0, 4).join(':')}::/64` : ip;
}

function expandIpv6(ip: string): string[] | null {
  const [left, right, extra] = ip.split('::');
  if (extra !== undefined) return null;
  const l = left ? left.split(':') : [];
  const r = right !== undefined ? (right ? right.split(':') : []) : [];
  const missing = 8 - l.length - r.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return null;
  return [...l, ...Array<string>(missing).fill('0'), ...r].map((g) => (parseInt(g, 16) || 0).toString(16));
}
