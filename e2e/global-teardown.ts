import { existsSync, readFileSync } from 'node:fs';
import { ADMIN, USER } from './accounts.ts';
import { SERVER_LOGS } from './server-logs.ts';

/**
 * The servers' logs of this run (scripts/e2e-server.mjs writes them) must hold no session cookie,
 * bearer token, password or test user's address: every sign-in, sign-up, mail and payment of the
 * suite went through them, so this is the log redaction checked against real traffic (issue 20).
 * Nor may they show a page the server failed to draw.
 */
const LEAKS: Array<[string, RegExp]> = [
  ['a session cookie value', /better-auth\.session_(?:token|data)=[^;\s"',\]\\]/],
  ['a bearer token', /\bBearer\s+(?!realm=)[A-Za-z0-9._~+/=-]{8,}/],
  ['a demo password', new RegExp(`${USER.password}|${ADMIN.password}`)],
  ['a test user password', /-pass-[A-Za-z0-9_-]{3,}/],
  ['an unredacted password field', /"(?:password|newPassword|currentPassword)"\s*:\s*"(?!\[redacted\])/],
  ['a test user email address', /[A-Za-z0-9._%+-]+@packvault\.test/],
];

export default function globalTeardown() {
  const problems: string[] = [];
  for (const file of SERVER_LOGS) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    // An empty log would pass vacuously: the server always logs that it listens.
    if (!text.includes('"msg":"listening"')) problems.push(`${file}: no "listening" line; is the server logging to it?`);
    text.split('\n').forEach((line, i) => {
      for (const [what, re] of LEAKS) {
        // Where and what only: the failure message must not print the secret it found.
        if (re.test(line)) problems.push(`${file}:${i + 1}: ${what}`);
      }
      // A page the server could not draw is a bug, like a console error in the browser.
      if (line.includes('"msg":"server render failed"')) problems.push(`${file}:${i + 1}: a server render failed (${/"route":"[^"]*"/.exec(line)?.[0] ?? 'see the log'})`);
    });
  }
  if (problems.length) {
    throw new Error(`e2e server logs leak secrets or personal data, or show a failed server render:\n${problems.slice(0, 20).join('\n')}`);
  }
}
