import { mkdirSync } from 'node:fs';
import { request, type FullConfig } from '@playwright/test';
import { TOTP } from 'otpauth';
import { ADMIN, AUTH_DIR, USER, authFile } from './accounts.ts';

/**
 * Signs the demo user and the demo admin in once through the API (the auth specs are the only
 * tests that use the forms) and saves their cookies for the fixtures. The admin completes
 * two-factor with "trust this device", so later tests never re-use a TOTP code.
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]!.use.baseURL!;
  mkdirSync(AUTH_DIR, { recursive: true });
  for (const account of [USER, ADMIN]) {
    const ctx = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
    const res = await ctx.post('/api/auth/sign-in/email', { data: { email: account.email, password: account.password } });
    if (!res.ok()) {
      // Auth not available yet: save an anonymous state so signed-in fixtures fail loudly where used.
      console.warn(`e2e: could not sign in ${account.email}: ${res.status()} ${await res.text()}`);
      await ctx.storageState({ path: authFile(account.name) });
      await ctx.dispose();
      continue;
    }
    const body = (await res.json()) as { twoFactorRedirect?: boolean };
    if (body.twoFactorRedirect) {
      if (!account.totpSecret) throw new Error(`${account.email} needs two-factor but has no secret`);
      const code = new TOTP({ secret: account.totpSecret, digits: 6, period: 30 }).generate();
      const v = await ctx.post('/api/auth/two-factor/verify-totp', { data: { code, trustDevice: true } });
      if (!v.ok()) throw new Error(`two-factor for ${account.email} failed: ${v.status()} ${await v.text()}`);
    }
    await ctx.storageState({ path: authFile(account.name) });
    await ctx.dispose();
  }
}
