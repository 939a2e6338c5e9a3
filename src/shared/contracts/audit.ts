import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { fromNotAfterTo, instantRangeFields } from './dates.ts';

/** GET /api/admin/audit — the audit log behind /admin/history. */
export const auditListQuerySchema = z.object({
  /** Admin user id who did it. */
  actorId: z.string().max(100).optional(),
  /** Exact action, e.g. 'user.ban'. */
  action: z.string().max(100).optional(),
  targetType: z.string().max(50).optional(),
  targetId: z.string().max(100).optional(),
  /** ISO date-times or days at midnight UTC (inclusive from, exclusive to). */
  ...instantRangeFields,
  page: pageSchema,
  pageSize: pageSizeSchema(50, 100),
}).superRefine(fromNotAfterTo);
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  /** Username/email of the actor at the time of reading (null when the account is gone). */
  actorUsername: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListSchema = pagedSchema(auditEntrySchema).extend({
  /** Distinct actions seen so far, for the filter dropdown. */
  actions: z.array(z.string()),
  /** Names of the classes, cards and products whose ids appear in this page's before/after, by id. */
  names: z.record(z.string(), z.string()),
});
export type AuditList = z.infer<typeof auditListSchema>;
