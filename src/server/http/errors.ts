import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { ApiError, ErrorCode } from '../../shared/api-error.ts';
import type { AppEnv } from './types.ts';

/** Throw from a service or route; the error handler turns it into the JSON error shape. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string[]>,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string[]>, code: ErrorCode = 'validation_failed') =>
  new AppError(400, code, message, fields);
export const unauthorized = (message = 'Sign in to continue.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You do not have access to this.', code: ErrorCode = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, code: ErrorCode = 'conflict') => new AppError(409, code, message);
export const tooManyRequests = (retryAfterSeconds: number, message?: string) =>
  new AppError(
    429,
    'rate_limited',
    message ?? `Too many attempts. Try again in ${retryAfterSeconds} seconds.`,
    undefined,
    retryAfterSeconds,
  );

/** Turns zod issues into { "field.path": ["message", …] }. */
export function zodFields(error: ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

export function errorBody(err: Pick<AppError, 'code' | 'message' | 'fields' | 'retryAfter'>): { error: ApiError } {
  const body: ApiError = { code: err.code, message: err.message };
  if (err.fields) body.fields = err.fields;
  if (err.retryAfter !== undefined) body.retryAfter = err.retryAfter;
  return { error: body };
}

/** `requestId`: given for a 5xx, so the user's report finds its log line (ADR 0017). */
export function respondError(c: Context<AppEnv>, err: AppError, opts: { requestId?: string } = {}) {
  if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter));
  const body = errorBody(err);
  if (opts.requestId) body.error.requestId = opts.requestId;
  return c.json(body, err.status);
}

/** Maps anything thrown to the error shape; never leaks a stack trace to the client. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 413) return new AppError(413, 'payload_too_large', 'The request body is too large.');
    if (err.status === 400 && /json/i.test(err.message)) {
      return new AppError(400, 'malformed_json', 'The request body is not valid JSON.');
    }
    return new AppError(err.status as ContentfulStatusCode, err.status === 401 ? 'unauthorized' : 'http_error', err.message || 'Request failed.');
  }
  return new AppError(500, 'internal_error', 'Something went wrong on our side. Try again in a moment.');
}
