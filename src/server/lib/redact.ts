/**
 * Redaction of secrets in text that may reach a log line or a start-up error: sign-in,
 * verification and reset links (their tokens), URL passwords (DATABASE_URL, SMTP_URL) and
 * secret-looking query parameters. Defence in depth: the code that logs must not pass links
 * or secrets in the first place; this catches what slips through (error messages, paths).
 */

const REDACTED = '[redacted]';

// `scheme://user:password@host` → `scheme://***@host`: everything from `//` to the last `@` of the
// run, whatever the password holds (`/`, `@`, `'`, JSON-escaped quotes). The run ends at whitespace
// or an unescaped double quote, so a JSON log line stays valid; a `//` without a scheme counts too
// (`postgresql//u:pw@host`, a mistyped URL). `file:///…/@scope/pkg` stack frames are left alone.
const URL_USERINFO = /(?<!file:|file:\/|\/)\/\/(?:\\.|[^\s"\\])*@/g;
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
    .replace(URL_USERINFO, '//***@')
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
  if (isUrlVariable(variable)) return redactText(redactUrlUserinfo(value));
  return value;
}

/**
 * A URL-like configuration value without its user information: everything between `//` (or the
 * start, when there is none) and the value's last `@` becomes `***`. The value is taken whole,
 * so a password holding spaces, quotes, slashes or `@` is hidden too, parseable or not.
 */
export function redactUrlUserinfo(value: string): string {
  const slashes = value.indexOf('//');
  const start = slashes >= 0 ? slashes + 2 : 0;
  const at = value.lastIndexOf('@');
  if (at < start) return value;
  return `${value.slice(0, start)}***${value.slice(at)}`;
}

function isUrlVariable(variable: string): boolean {
  return URL_VARIABLES.has(variable) || /_(?:URL|URI|DSN)$/.test(variable);
}

/** Never echoed, not even in part beyond a known key prefix. */
const SECRET_VARIABLES = new Set(['APP_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'METRICS_TOKEN', 'VAULT_SIGNING_KEY']);
/** Echoed with their user information (and secret query parameters) masked; also any `*_URL`, `*_URI`, `*_DSN`. */
const URL_VARIABLES = new Set(['DATABASE_URL', 'DATABASE_DIRECT_URL', 'SMTP_URL', 'SENTRY_DSN', 'PUBLIC_URL']);
