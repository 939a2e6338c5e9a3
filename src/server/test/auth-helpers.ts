import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { ensureUser, createSessionCookie, randomBase32Secret } from '../modules/auth/users.ts';
import type { TestContext } from './harness.ts';

export interface TestUser {
  userId: string;
  email: string;
  username: string;
  password: string;
  /** Cookie header value carrying the session. */
  cookie: string;
  sessionId: string;
  /** Ready to spread into t.request(path, { headers }). */
  headers: { cookie: string };
  /** Base32 secret when two-factor is enrolled. */
  totpSecret?: string;
  backupCodes: string[];
}

export interface TestUserOptions {
  role?: 'user' | 'admin' | 'owner';
  /** Email verified (default true). */
  verified?: boolean;
  email?: string;
  username?: string;
  password?: string;
  /** Enrol two-factor with a random secret (default false; true for signInAdminWithMfa). */
  twoFactor?: boolean;
  /** The session passed a second factor (default: same as twoFactor). */
  mfa?: boolean;
}

let counter = 0;

/**
 * A new user and a signed-in session cookie, written straight to the database (no rate limits,
 * no mail). For the real sign-up flow see modules/auth/auth.test.ts.
 */
export async function signUpAndSignIn(t: TestContext, opts: TestUserOptions = {}): Promise<TestUser> {
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;
  const username = opts.username ?? `u_${n}`.slice(0, 20);
  const email = (opts.email ?? `${username.toLowerCase()}@example.test`).toLowerCase();
  const password = opts.password ?? `pw-${n}-Secret!`;
  const totpSecret = opts.twoFactor ? randomBase32Secret() : undefined;
  const created = await ensureUser(t.deps, {
    email,
    username,
    password,
    role: opts.role ?? 'user',
    emailVerified: opts.verified ?? true,
    ...(totpSecret ? { totpSecret } : {}),
  });
  const { cookie, sessionId } = await createSessionCookie(t.deps, created.id, { mfa: opts.mfa ?? Boolean(totpSecret) });
  return {
    userId: created.id,
    email,
    username,
    password,
    cookie,
    sessionId,
    headers: { cookie },
    ...(totpSecret ? { totpSecret } : {}),
    backupCodes: created.backupCodes,
  };
}

/** An owner (or admin) with two-factor enrolled whose session passed it: can use every /api/admin route. */
export function signInAdminWithMfa(t: TestContext, opts: { role?: 'admin' | 'owner' } = {}): Promise<TestUser> {
  return signUpAndSignIn(t, { role: opts.role ?? 'owner', twoFactor: true, mfa: true });
}

/** An admin whose session did not pass a second factor: /api/admin answers 403 mfa_required. */
export function signInAdminWithoutMfa(t: TestContext, opts: { role?: 'admin' | 'owner' } = {}): Promise<TestUser> {
  return signUpAndSignIn(t, { role: opts.role ?? 'admin', twoFactor: false, mfa: false });
}

/** The current 6-digit code for a base32 secret (optionally for another time). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });
}

/** The session cookie(s) from a response's Set-Cookie headers, as a Cookie header value. */
export function cookiesFrom(res: Response, previous = ''): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(/;\s*/).filter(Boolean)) {
    const i = part.indexOf('=');
    jar.set(part.slice(0, i), part.slice(i + 1));
  }
  for (const sc of res.headers.getSetCookie()) {
    const [pair, ...attrs] = sc.split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i).trim();
    const value = pair!.slice(i + 1).trim();
    const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}
