import { z } from 'zod';

/** The one error shape every /api endpoint answers with. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
    retryAfter: z.number().int().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>['error'];

/** Codes a client may branch on. Add here rather than inventing strings at call sites. */
export const ERROR_CODES = [
  'validation_failed',
  'malformed_json',
  'unauthorized',
  'forbidden',
  'admin_role_required',
  'mfa_required',
  'email_not_verified',
  'not_found',
  'conflict',
  'idempotency_conflict',
  'payload_too_large',
  'rate_limited',
  'maintenance',
  'insufficient_funds',
  'internal_error',
  'service_unavailable',
] as const;
