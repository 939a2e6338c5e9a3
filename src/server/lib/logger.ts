import pino, { type Logger as PinoLogger } from 'pino';
import { redactText } from './redact.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** What call sites use: a message and structured fields. Implemented on pino (ADR 0017). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/**
 * Field paths pino censors before a line is written: session cookies, authorization headers,
 * tokens, passwords and email addresses, at the top level, one level down (`*.token`), and in
 * request/response header objects. fast-redact wildcards match one level, so the nested header
 * paths are spelled out. `to` (a mail recipient) is kept on purpose: the mail log needs it.
 */
export const REDACT_PATHS = [
  'cookie',
  'authorization',
  'token',
  'password',
  'email',
  'secret',
  'accessToken',
  'refreshToken',
  'sessionToken',
  'newPassword',
  'currentPassword',
  '*.cookie',
  '*.authorization',
  '*.token',
  '*.password',
  '*.email',
  '*.secret',
  '*.accessToken',
  '*.refreshToken',
  '*.sessionToken',
  '*.newPassword',
  '*.currentPassword',
  '*["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

/**
 * pino's error serializer, minus a failed query's parameters: drizzle puts them in the message
 * (`Failed query: … params: a@b.test,…`) and on the error (`params`), and with them whatever the
 * user typed. The SQL and the database's reason stay.
 */
function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  const params = (err as { params?: unknown } | null)?.params;
  if (Array.isArray(params)) {
    const shown = `\nparams: ${String(params)}`;
    const hidden = `\nparams: [${params.length} redacted]`;
    for (const key of ['message', 'stack']) {
      const v = out[key];
      if (typeof v === 'string') out[key] = v.split(shown).join(hidden);
    }
    delete out.params;
  }
  return out;
}

function wrap(p: PinoLogger): Logger {
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
    child: (fields) => wrap(p.child(fields)),
  };
}

/**
 * One JSON object per line (pino): `time` (ISO), `level` (its name), `msg`, then the fields.
 * Known secret fields are censored by pino's `redact`; then every line passes through redactText,
 * so a link token or URL password that reaches free text (a message, a path, an error's message
 * or stack) never lands in the log either. Callers still must not log secrets on purpose.
 * `write` (tests) receives each line without its trailing newline.
 */
export function createLogger(
  level: Level | 'silent' = 'info',
  base: Record<string, unknown> = {},
  write?: (line: string) => void,
): Logger {
  const destination = write
    ? { write: (s: string) => write(s.endsWith('\n') ? s.slice(0, -1) : s) }
    : // Synchronous, so the lines before a process.exit (start-up failures, shutdown) are not lost.
      pino.destination({ dest: 1, sync: true });
  const p = pino(
    {
      level,
      base,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: { streamWrite: redactText },
    },
    destination,
  );
  return wrap(p);
}
