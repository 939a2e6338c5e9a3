import { z } from 'zod';

/**
 * Notifications (issue 17): one inbox per user, fed by `notify(user, kind, data)` on the server
 * (modules/notifications), with a choice of channel per kind. Realtime: `notification.created`
 * and `notification.read` on the user's topic (payload `{ unreadCount }`); a broadcast kind
 * (drop starting) is announced once on the public topic and signed-in clients refetch.
 */

export const NOTIFICATION_KINDS = [
  'deposit_credited',
  'big_pull',
  'buyback_paid',
  'shipment_status',
  'drop_won',
  'drop_starting',
  'referral_qualified',
  'wishlist_live',
  'market_sold',
  'market_offer',
  'market_listing',
  'market_swap',
  'security',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS, { error: 'Not a notification kind.' });

export interface NotificationKindInfo {
  label: string;
  description: string;
  /** Channels on for a user who never changed them. */
  defaults: { inApp: boolean; email: boolean };
  /** Security mail always goes out: the switch is shown on and locked. */
  emailLocked: boolean;
}

export const NOTIFICATION_KIND_INFO: Record<NotificationKind, NotificationKindInfo> = {
  deposit_credited: {
    label: 'Deposit credited',
    description: 'A deposit reached your balance.',
    defaults: { inApp: true, email: true },
    emailLocked: false,
  },
  big_pull: {
    label: 'Big pull',
    description: 'You pulled a card worth at least the amount you choose.',
    defaults: { inApp: true, email: false },
    emailLocked: false,
  },
  buyback_paid: {
    label: 'Buyback paid',
    description: 'Cards you sold back were paid to your balance.',
    defaults: { inApp: true, email: false },
    emailLocked: false,
  },
  shipment_status: {
    label: 'Shipment updates',
    description: 'A shipment of your cards changed status.',
    defaults: { inApp: true, email: true },
    emailLocked: false,
  },
  drop_won: {
    label: 'Daily drop won',
    description: 'Your entry was drawn in a daily drop.',
    defaults: { inApp: true, email: true },
    emailLocked: false,
  },
  drop_starting: {
    label: 'Daily drop starting',
    description: 'A new daily drop opened for entries.',
    defaults: { inApp: true, email: false },
    emailLocked: false,
  },
  referral_qualified: {
    label: 'Referral rewards',
    description: 'A friend you invited qualified, or you earned a referral reward.',
    defaults: { inApp: true, email: true },
    emailLocked: false,
  },
  wishlist_live: {
    label: 'Wishlist cards in packs',
    description: 'A card on your wishlist can now be pulled from a pack on sale.',
    defaults: { inApp: true, email: false },
    emailLocked: false,
  },
  market_sold: {
    label: 'Marketplace sales',
    description: 'A card you listed on the marketplace sold.',
    defaults: { inApp: true, email: true },
    emailLocked: false,
  },
  market_offer: {
    label: 'Marketplace offers',
    description: 'An offer on your cards, or an answer to yours: accepted, declined, countered or expired.',
    defaults: { inApp: true, email: false },
    emailLocked: false,
  },
  market_listing: {
    label: 'Marketplace listings',
    description: 'A listing of yours ended without a sale: it expired, or we removed it (with the reason).',
    defaults: { inApp: true, email: true },
    emailLocked: false,
  },
  market_swap: {
    label: 'Marketplace swaps',
    description: 'A swap proposed to you for cards in your trade binder, or an answer to one you proposed.',
    defaults: { inApp: true, email: false },
    emailLocked: false,
  },
  security: {
    label: 'Security',
    description: 'A new sign-in, or a change to your password or two-factor authentication.',
    defaults: { inApp: true, email: true },
    emailLocked: true,
  },
};

/** Notifications are kept this long, then pruned (jobs/prune.ts). */
export const NOTIFICATION_RETENTION_DAYS = 90;

/** The big-pull threshold a user may choose, and the default. */
export const BIG_PULL_THRESHOLD = { minCents: 100, maxCents: 10_000_000, defaultCents: 5_000 } as const;

export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  title: z.string(),
  body: z.string(),
  /** An app path (/collect, /daily-drop/…) or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notifications: newest first; `before` is the previous page's `nextCursor`. */
export const notificationListQuerySchema = z.object({
  before: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  unread: z.enum(['true', 'false']).optional(),
});
export type NotificationListQuery = z.input<typeof notificationListQuerySchema>;

export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unreadCount: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const unreadCountSchema = z.object({ unreadCount: z.number().int() });

export const notificationPreferenceSchema = z.object({
  kind: notificationKindSchema,
  inApp: z.boolean(),
  email: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;

/** GET /api/notifications/preferences: every kind, in NOTIFICATION_KINDS order. */
export const notificationPreferencesSchema = z.object({
  preferences: z.array(notificationPreferenceSchema.extend({ emailLocked: z.boolean() })),
  bigPullThresholdCents: z.number().int(),
  /** The shop's default (settings registry), which applies until the user chooses their own. */
  defaultBigPullThresholdCents: z.number().int(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** PUT /api/notifications/preferences: the kinds to change (others stay), and the threshold. */
export const notificationPreferencesInputSchema = z
  .object({
    preferences: z
      .array(notificationPreferenceSchema)
      .max(NOTIFICATION_KINDS.length * 2)
      .refine((ps) => new Set(ps.map((p) => p.kind)).size === ps.length, 'List each kind once.')
      .optional(),
    bigPullThresholdCents: z
      .number({ error: 'Enter an amount.' })
      .int('Whole cents.')
      .min(BIG_PULL_THRESHOLD.minCents, 'At least $1.00.')
      .max(BIG_PULL_THRESHOLD.maxCents, 'At most $100,000.00.')
      .optional(),
  })
  .strict();
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInputSchema>;

/** The token of an unsubscribe link (signed, expiring; works without signing in). */
export const unsubscribeTokenSchema = z.object({ token: z.string().min(1, 'The link is incomplete.').max(1000, 'The link is not valid.') });

/** GET /api/notifications/unsubscribe?token=…: what the link would turn off. */
export const unsubscribeInfoSchema = z.object({
  kind: notificationKindSchema,
  label: z.string(),
  /** The address, partly hidden (a…e@example.com). */
  email: z.string(),
  /** True when mail of this kind is already off. */
  alreadyOff: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfoSchema>;
