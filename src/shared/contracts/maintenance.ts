import { z } from 'zod';

/**
 * Maintenance mode (issue 18, ADR 0015). While it is on, every API call from anyone but an admin
 * whose session passed two-factor answers 503 `maintenance` with Retry-After, except the few that
 * must keep working (MAINTENANCE_OPEN_PATHS on the server); the SPA sends such people to
 * /maintenance, which shows the message and the expected end.
 */

export const MAINTENANCE_MESSAGE_MAX = 500;
/** How far ahead an expected end may be set: a longer closure is not "maintenance". */
export const MAINTENANCE_MAX_DAYS = 30;
/** Retry-After when the expected end has passed (the work overran) or is unknown. */
export const MAINTENANCE_DEFAULT_RETRY_SECONDS = 60;

/** The public state: what /api/maintenance answers and what `maintenance.changed` carries. */
export const maintenanceStateSchema = z.object({
  enabled: z.boolean(),
  message: z.string(),
  /** Expected end (ISO instant); null when off. */
  endsAt: z.string().nullable(),
  /** When it was last switched (ISO instant), or null when never: orders updates across processes. */
  changedAt: z.string().nullable(),
});
export type MaintenanceState = z.infer<typeof maintenanceStateSchema>;

export const MAINTENANCE_OFF: MaintenanceState = { enabled: false, message: '', endsAt: null, changedAt: null };

/** What the back office sees: the state, and who switched it last. */
export const adminMaintenanceSchema = maintenanceStateSchema.extend({
  changedBy: z.object({ id: z.string(), username: z.string() }).nullable(),
});
export type AdminMaintenance = z.infer<typeof adminMaintenanceSchema>;

const endsAtSchema = z
  .string({ error: 'Choose when you expect maintenance to end.' })
  .min(1, 'Choose when you expect maintenance to end.')
  .refine((s) => z.iso.datetime({ offset: true }).safeParse(s).success, 'Use a date and time like 2025-01-31T12:00:00Z.')
  .refine((s) => Date.parse(s) > Date.now(), 'The expected end must be in the future.')
  .refine((s) => Date.parse(s) <= Date.now() + MAINTENANCE_MAX_DAYS * 86_400_000, `The expected end must be within ${MAINTENANCE_MAX_DAYS} days.`);

/** PUT /api/admin/maintenance (owner): on with a message and an expected end, or off. */
export const maintenanceInputSchema = z.discriminatedUnion('enabled', [
  z.object({
    enabled: z.literal(true),
    message: z
      .string({ error: 'Write a message for visitors.' })
      .trim()
      .min(1, 'Write a message for visitors.')
      .max(MAINTENANCE_MESSAGE_MAX, `Keep the message under ${MAINTENANCE_MESSAGE_MAX} characters.`),
    endsAt: endsAtSchema,
  }),
  z.object({ enabled: z.literal(false) }),
], { error: 'Say whether maintenance is on (enabled: true or false).' });
export type MaintenanceInput = z.infer<typeof maintenanceInputSchema>;

/** Seconds until `endsAt` (at least 1), or the default when it is unknown or already passed. */
export function retryAfterSeconds(endsAt: string | null, now = Date.now()): number {
  const end = endsAt ? Date.parse(endsAt) : NaN;
  if (!Number.isFinite(end) || end <= now) return MAINTENANCE_DEFAULT_RETRY_SECONDS;
  return Math.max(1, Math.ceil((end - now) / 1000));
}
