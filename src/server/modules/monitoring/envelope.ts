/**
 * Sentry envelopes: newline-separated JSON. Line 1 is the envelope header (dsn, event_id,
 * sent_at); then pairs of item header + item payload. We parse just enough to validate it and
 * to keep a readable summary when storing it locally.
 */
export interface ParsedEnvelope {
  dsn: string | undefined;
  eventId: string | undefined;
  level: string | undefined;
  message: string | undefined;
}

export class EnvelopeError extends Error {}

export function parseEnvelope(body: string): ParsedEnvelope {
  const lines = body.split('\n');
  let header: unknown;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    throw new EnvelopeError('The envelope header is not JSON.');
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) {
    throw new EnvelopeError('The envelope header must be a JSON object.');
  }
  const h = header as Record<string, unknown>;
  if (h.dsn !== undefined && typeof h.dsn !== 'string') throw new EnvelopeError('dsn must be a string.');
  const itemHeaderLine = lines[1];
  if (!itemHeaderLine) throw new EnvelopeError('The envelope has no items.');
  let itemHeader: Record<string, unknown>;
  try {
    itemHeader = JSON.parse(itemHeaderLine) as Record<string, unknown>;
  } catch {
    throw new EnvelopeError('The item header is not JSON.');
  }
  if (typeof itemHeader?.type !== 'string') throw new EnvelopeError('The item header needs a type.');
  let level: string | undefined;
  let message: string | undefined;
  const payloadLine = lines[2];
  if (payloadLine && itemHeader.type === 'event') {
    try {
      const ev = JSON.parse(payloadLine) as Record<string, any>;
      level = typeof ev.level === 'string' ? ev.level : undefined;
      const exc = ev.exception?.values?.[0];
      message =
        (typeof ev.message === 'string' ? ev.message : ev.message?.formatted) ??
        (exc ? `${exc.type ?? 'Error'}: ${exc.value ?? ''}` : undefined);
    } catch {
      throw new EnvelopeError('The event payload is not JSON.');
    }
  }
  return {
    dsn: h.dsn as string | undefined,
    eventId: typeof h.event_id === 'string' ? h.event_id : undefined,
    level,
    message: message?.slice(0, 1000),
  };
}

/** https://KEY@o1.ingest.sentry.io/123 → https://o1.ingest.sentry.io/api/123/envelope/ */
export function ingestUrlFromDsn(dsn: string): string {
  const u = new URL(dsn);
  const projectId = u.pathname.split('/').filter(Boolean).pop();
  if (!projectId) throw new Error('SENTRY_DSN has no project id');
  const prefix = u.pathname.slice(0, u.pathname.lastIndexOf('/' + projectId));
  return `${u.protocol}//${u.host}${prefix}/api/${projectId}/envelope/`;
}
