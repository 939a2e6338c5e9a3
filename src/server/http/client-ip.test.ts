import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { clientIp, fromTrustedProxy, normalizeIp, parseTrustProxy, rateLimitAddress, type TrustProxy } from './client-ip.ts';

/** A request as clientIp sees it: an X-Forwarded-For header and a socket peer. */
function req(xff: string | undefined, peer?: string) {
  return {
    req: { header: (name: string) => (name.toLowerCase() === 'x-forwarded-for' ? xff : undefined) },
    env: peer === undefined ? undefined : { incoming: { socket: { remoteAddress: peer } } },
  };
}
const ip = (trust: TrustProxy, xff: string | undefined, peer?: string) => clientIp(req(xff, peer), trust);

describe('normalizeIp', () => {
  it('gives one spelling per address and null for garbage', () => {
    expect(normalizeIp('203.0.113.9')).toBe('203.0.113.9');
    expect(normalizeIp(' 203.0.113.9:5555 ')).toBe('203.0.113.9');
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(normalizeIp('[2001:DB8:0:0::1]:443')).toBe('2001:db8::1');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80::1');
    for (const bad of ['', 'unknown', 'not-an-ip', '1.2.3', '999.1.1.1', '01.2.3.4', '<script>', '1.2.3.4.5', '::g']) {
      expect(normalizeIp(bad), bad).toBeNull();
    }
  });
});

describe('clientIp', () => {
  it('ignores X-Forwarded-For without a trusted proxy', () => {
    expect(ip(false, '198.51.100.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(ip(0, '198.51.100.1', '::ffff:203.0.113.9')).toBe('203.0.113.9');
    // No socket (app.request in tests): loopback.
    expect(ip(false, '198.51.100.1')).toBe('127.0.0.1');
  });

  it('one hop: the entry the proxy appended, not the client-written leftmost one', () => {
    expect(ip(true, '1.1.1.1, 203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    expect(ip(1, '1.1.1.1,2.2.2.2 , 203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    expect(ip(true, '203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    expect(ip(true, undefined, '10.0.0.2')).toBe('10.0.0.2');
    // Rotating the spoofed part changes nothing.
    const seen = new Set(Array.from({ length: 20 }, (_, i) => ip(true, `10.9.${i}.1, 203.0.113.9`, '10.0.0.2')));
    expect([...seen]).toEqual(['203.0.113.9']);
  });

  it('n hops: the n-th entry from the right', () => {
    expect(ip(2, 'spoof, 203.0.113.9, 10.0.0.7', '10.0.0.2')).toBe('203.0.113.9');
    expect(ip(3, '1.1.1.1, 203.0.113.9, 10.0.0.8, 10.0.0.7', '10.0.0.2')).toBe('203.0.113.9');
    // A chain shorter than the hop count (the outer proxy was skipped): the leftmost entry.
    expect(ip(3, '203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
  });

  it('garbage where a proxy should have written an address falls back towards the peer', () => {
    expect(ip(true, '203.0.113.9, garbage', '10.0.0.2')).toBe('10.0.0.2');
    expect(ip(true, 'garbage', '10.0.0.2')).toBe('10.0.0.2');
    expect(ip(2, 'garbage, 10.0.0.7', '10.0.0.2')).toBe('10.0.0.7');
    expect(ip(true, '', '10.0.0.2')).toBe('10.0.0.2');
    expect(ip(true, ' , ,', '10.0.0.2')).toBe('10.0.0.2');
    expect(ip(true, 'garbage, 203.0.113.9:4711', '10.0.0.2')).toBe('203.0.113.9');
  });

  it('trusted CIDRs: the rightmost entry outside them; an untrusted peer is the client', () => {
    const trust = ['10.0.0.0/8', '2001:db8:aaaa::/48'];
    expect(ip(trust, '1.1.1.1, 203.0.113.9, 10.0.0.5', '10.0.0.2')).toBe('203.0.113.9');
    expect(ip(trust, '1.1.1.1, 203.0.113.9', '::ffff:10.0.0.2')).toBe('203.0.113.9');
    expect(ip(trust, '1.1.1.1, 2001:db8:bbbb::9, 2001:db8:aaaa::1', '2001:db8:aaaa::2')).toBe('2001:db8:bbbb::9');
    expect(ip(trust, '::ffff:198.51.100.4', '10.0.0.2')).toBe('198.51.100.4');
    // A peer outside the list talked to us directly: its header is the client's own words.
    expect(ip(trust, '10.0.0.5', '198.51.100.4')).toBe('198.51.100.4');
    // Everything trusted: the leftmost (an internal client).
    expect(ip(trust, '10.1.1.1, 10.0.0.5', '10.0.0.2')).toBe('10.1.1.1');
    // Garbage inside the trusted chain: stop at the last trusted proxy.
    expect(ip(trust, '203.0.113.9, junk, 10.0.0.5', '10.0.0.2')).toBe('10.0.0.5');
    // IPv4-mapped ranges work like their IPv4 range.
    expect(ip(['::ffff:10.0.0.0/104'], '203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    expect(ip([], '203.0.113.9', '10.0.0.2')).toBe('10.0.0.2');
  });

  it('a spoofed X-Forwarded-For from an untrusted peer is ignored, whatever it claims', () => {
    for (const trust of [['10.0.0.0/8'], ['10.0.0.0/8', '::1']] as const) {
      expect(ip(trust, '10.0.0.5, 127.0.0.1', '198.51.100.4')).toBe('198.51.100.4');
      expect(ip(trust, '203.0.113.9', '[2001:db8::7]:5000')).toBe('2001:db8::7');
    }
    expect(ip(false, '10.0.0.5', '198.51.100.4')).toBe('198.51.100.4');
  });

  it('a chain through trusted proxies, however each spelt its address', () => {
    const trust = ['10.0.0.0/8', '192.168.0.0/16', '2001:db8:aaaa::/48'];
    // Client → CDN edge (192.168…) → load balancer (10…) → us; the spoofed part is skipped.
    expect(ip(trust, 'spoof, 198.51.100.7, 192.168.4.4:8080, [2001:db8:aaaa::3]:443, ::ffff:10.0.0.9', '10.0.0.2')).toBe('198.51.100.7');
    // An empty entry keeps its place: a hop count does not shift past it.
    expect(ip(2, '203.0.113.9,,10.0.0.7', '10.0.0.2')).toBe('10.0.0.7');
  });

  it('X-Forwarded-Proto is believed only from a trusted peer', () => {
    expect(fromTrustedProxy(req(undefined, '10.0.0.2'), false)).toBe(false);
    expect(fromTrustedProxy(req(undefined, '10.0.0.2'), true)).toBe(true);
    expect(fromTrustedProxy(req(undefined, '10.0.0.2'), ['10.0.0.0/8'])).toBe(true);
    expect(fromTrustedProxy(req(undefined, '198.51.100.4'), ['10.0.0.0/8'])).toBe(false);
  });

  it('IPv6 addresses share a per-address limit per /64', () => {
    expect(rateLimitAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
  });
});

describe('TRUST_PROXY', () => {
  it('takes true/false, a hop count or a CIDR list', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.1,2001:DB8::/32,::ffff:10.0.0.0/104')).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      '2001:db8::/32',
      '::ffff:10.0.0.0/104',
    ]);
    for (const bad of ['maybe', '0.0.0.0/0', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1:80', '::ffff:10.0.0.0/64', '10.0.0.0/8,nope', '99']) {
      expect(() => parseTrustProxy(bad), bad).toThrow();
    }
  });

  it('is read by loadConfig, with a one-line error for a bad value', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/packvault-test-data', APP_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.0/8']);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'sometimes' })).toThrow(/TRUST_PROXY: must be true, false/);
  });
});
