/**
 * Redaction of secrets in text that may reach a log line or a start-up error: sign-in,
 * verification and reset links (their tokens), URL passwords (DATABASE_URL, SMTP_URL) and
 * secret-looking query parameters. Defence in depth: the code that logs must not pass links
 * or secrets in the first place; this catches what slips through (error messages, paths).
 */

const REDACTED = '[redacted]';

// `scheme://user:password@host` → `scheme://user:***@host`
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'\\]*):[^\s@/"'\\]*@/gi;
// `?token=…`, `&code=…`, `password=…` (query strings, form bodies, libpq key=value).
const SECRET_PARAM =
  /(\b(?:token|code|secret|password|passwd|pass|pwd|sslpassword|api_?key|access_token|refresh_token|otp|signature)=)[^&\s"'\\#]+/gi;
// Better Auth's reset link carries its token as a path segment: /reset-password/<token>.
const RESET_PATH = /(\/reset-password\/)[^/?#\s"'\\]+/gi;
// Stripe keys and webhook secrets wherever they appear.
const STRIPE_KEY = /\b((?:sk|rk)_(?:test|live)_|whsec_)[A-Za-z0-9]+/g;

/** Replaces tokens, URL passwords and secret keys in free text. Cheap enough for every log line. */
export function redactText(s: string): string {
  if (!s) return s;
  return s
    .replace(URL_PASSWORD, '$1:***@')
    .replace(SECRET_PARAM, `$1${REDACTED}`)
    .replace(RESET_PATH, `$1${REDACTED}`)
    .replace(STRIPE_KEY, `$1…${REDACTED}`);
}

/**
 * An email address as a log line may show it: first character and domain (`d…@example.test`),
 * enough to tell a support case which mailbox, not enough to collect addresses from the log.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '…';
  return `${address[0]}…${address.slice(at)}`;
}

/** The value of a configuration variable as it may be shown in an error: secrets never verbatim. */
export function shownConfigValue(variable: string, value: string): string | undefined {
  if (SECRET_VARIABLES.has(variable)) {
    const prefix = /^((?:sk|rk)_(?:test|live)_|whsec_)/.exec(value)?.[1] ?? '';
    return `${prefix}…${REDACTED}, ${value.length} characters`;
  }
  if (URL_VARIABLES.has(variable)) return redactText(value);
  return value;
}

/** Never echoed, not even in part beyond a known key prefix. */
const SECRET_VARIABLES = new Set(['APP_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'METRICS_TOKEN']);
/** Echoed with their password (and secret query parameters) masked. */
const URL_VARIABLES = new Set(['DATABASE_URL', 'SMTP_URL', 'SENTRY_DSN']);
