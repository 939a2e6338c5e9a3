import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterCommit } from '../../db/after-commit.ts';
import {
  BIG_PULL_THRESHOLD,
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationList,
  type NotificationPreferences,
  type NotificationPreferencesInput,
  type UnsubscribeInfo,
} from '../../../shared/contracts/notifications.ts';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { notificationPreferences, notifications } from '../../db/schema/notifications.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, invalidCursor, notFound } from './errors.ts';
import { user } from '../auth/tables.ts';
import { enqueueMail } from '../mail/service.ts';
import { PULL_THRESHOLDS_KEY, setting } from '../settings/store.ts';
import { mailKindOf, renderNotification, renderNotificationMail } from './templates.ts';
import { createUnsubscribeToken, invalidLink, verifyUnsubscribeToken } from './unsubscribe-token.ts';

/**
 * What each kind needs to say itself: the notifications module renders the in-app title, body
 * and link and the mail (HTML and text) from these.
 */
export interface NotifyData {
  deposit_credited: { depositId: string; amountCents: number; currency: string };
  big_pull: { openingId: string; cardId: string; cardName: string; valueCents: number; productName?: string | null };
  buyback_paid: { saleId: string; amountCents: number; cardCount: number };
  shipment_status: { shipmentId: string; reference: string; status: string; statusLabel: string; tracking?: string | null; reason?: string | null };
  drop_won: { dropId: string; dropTitle: string; cardName: string };
  drop_starting: { dropId: string; dropTitle: string; closesAt: string };
  referral_qualified: { referralId: string; role: 'referrer' | 'referee'; friendUsername: string; amountCents: number; currency: string };
  wishlist_live: { productId: string; productName: string; cardId: string; cardName: string };
  market_sold: { listingId: string; cardName: string; priceCents: number; feeCents: number; proceedsCents: number };
  /** ADR 0028 part 2: `event` says what happened to the offer (told to the other side, or to the buyer on expiry and lapse). */
  market_offer: {
    offerId: string;
    event: 'received' | 'accepted' | 'rejected' | 'countered' | 'expired' | 'lapsed' | 'counter_declined';
    cardName: string;
    amountCents: number;
    listingId: string | null;
    /** On an accepted offer told to the seller (a card offer), what they received. */
    proceedsCents?: number;
  };
  /** A listing that ended without a sale: it expired, or the back office removed it (`reason`, told to the seller). */
  market_listing: { listingId: string; event: 'expired' | 'removed'; cardName: string; priceCents: number; reason?: string | null };
  /** ADR 0032: a swap proposed to the user, or what happened to one (`toProposer`: they proposed it). `cashCents` > 0 the proposer pays. */
  market_swap: {
    swapId: string;
    event: 'received' | 'accepted' | 'declined' | 'cancelled' | 'expired' | 'stale';
    counterparty: string | null;
    cardCount: number;
    cashCents: number;
    toProposer: boolean;
  };
  security: {
    event: 'new_sign_in' | 'two_factor_enabled' | 'two_factor_disabled' | 'password_changed' | 'password_reset';
    ip?: string | null;
    userAgent?: string | null;
  };
}

export interface NotifyOptions {
  /** Makes a repeat (a retried job, a redelivered webhook) a no-op for this user. */
  dedupeKey?: string;
  /**
   * Announce the inbox row after the commit rather than with it (on the opening's path): no NOTIFY
   * inside the transaction, so no wait on PostgreSQL's commit lock (ADR 0019).
   */
  afterCommitOnly?: boolean;
}

type Site = Pick<Deps['config'], 'publicUrl' | 'secret'>;

/** The absolute unsubscribe link of a kind's mail for a user (none for security). */
export function unsubscribeUrl(config: Site, userId: string, kind: NotificationKind): string | null {
  if (kind === 'security') return null;
  return `${config.publicUrl}/unsubscribe?token=${createUnsubscribeToken(config.secret, userId, kind)}`;
}

/**
 * The page's realtime ping, sent with the commit (db/after-commit.ts `withCommit`): on PostgreSQL a
 * NOTIFY in the transaction, so other processes hear it even if this one stops right after.
 */
const publishAtCommit = (tx: DbOrTx, topic: 'public' | `user:${string}`, type: string, data: Record<string, unknown>) =>
  afterCommit(tx, { topic, type, data }, { withCommit: true });

/**
 * Tells `userId` about something, on the channels they chose for `kind`: an inbox row (and a
 * realtime `notification.created` at commit) and/or a mail through the outbox, both written in
 * `tx`, so a rolled-back change tells no one. The one way any feature notifies a user.
 * Security mail always goes out; a deleted account hears nothing, a banned one gets no mail.
 * big_pull is skipped when the value is under the user's threshold. With a dedupeKey, a repeat
 * that finds the inbox row already there does nothing (mail included).
 */
export async function notify<K extends NotificationKind>(
  deps: Deps,
  tx: DbOrTx,
  userId: string,
  kind: K,
  data: NotifyData[K],
  opts: NotifyOptions = {},
): Promise<void> {
  const [u] = await tx
    .select({
      email: user.email,
      username: user.username,
      banned: user.banned,
      deletedAt: user.deletedAt,
      inApp: notificationPreferences.inApp,
      mail: notificationPreferences.email,
      thresholdCents: notificationPreferences.thresholdCents,
    })
    .from(user)
    .leftJoin(notificationPreferences, and(eq(notificationPreferences.userId, user.id), eq(notificationPreferences.kind, kind)))
    .where(eq(user.id, userId));
  if (!u || u.deletedAt) return;
  const info = NOTIFICATION_KIND_INFO[kind];
  if (kind === 'big_pull') {
    const threshold = u.thresholdCents ?? setting(PULL_THRESHOLDS_KEY).notificationDefaultCents;
    if ((data as NotifyData['big_pull']).valueCents < threshold) return;
  }
  const inApp = u.inApp ?? info.defaults.inApp;
  const mail = info.emailLocked || (u.mail ?? info.defaults.email);
  if (!inApp && !mail) return;
  const n = renderNotification({ siteName: setting('site.identity').siteName, currency: deps.config.currency }, kind, data);

  if (inApp) {
    const inserted = await tx
      .insert(notifications)
      .values({ userId, kind, title: n.title, body: n.body, link: n.link, data: data as Record<string, unknown>, dedupeKey: opts.dedupeKey ?? null })
      .onConflictDoNothing()
      .returning({ id: notifications.id });
    const id = inserted[0]?.id;
    if (!id) return; // a repeat of a deduplicated notification
    await afterCommit(tx, { topic: `user:${userId}`, type: 'notification.created', data: { id } }, { withCommit: !opts.afterCommitOnly });
  }
  if (mail && !u.banned && u.email) {
    await enqueueMail(deps, tx, {
      to: u.email,
      kind: mailKindOf(kind),
      rendered: renderNotificationMail(setting('site.identity'), deps.config.publicUrl, kind, n, u.username, unsubscribeUrl(deps.config, userId, kind)),
    });
  }
}

/**
 * Big pulls of one opening, after it committed, in their own small transaction: never awaited by
 * the opening's response, never slows its statement. Each card at or above the user's threshold
 * (and at least BIG_PULL_THRESHOLD.minCents) is a notification, once per opening and card.
 */
export async function notifyBigPull(
  deps: Deps,
  userId: string,
  pulls: ReadonlyArray<{ openingId: string; cardId: string; cardName: string; valueCents: number; productName?: string | null }>,
): Promise<void> {
  const big = pulls.filter((p) => p.valueCents >= BIG_PULL_THRESHOLD.minCents);
  if (big.length === 0) return;
  await deps.db.transaction(async (tx) => {
    for (const p of big) await notify(deps, tx, userId, 'big_pull', p, { dedupeKey: `big-pull:${p.openingId}:${p.cardId}`, afterCommitOnly: true });
  });
}

/**
 * Per process, each user's own big-pull threshold (null: the default), so an opening whose cards
 * are all below it costs the database nothing: the bench's booster has a rare or better in every
 * pack, and a lookup per opening would be a transaction per opening. Dropped when the user
 * changes it (`preferencesChanged`, here and through the bus in every other process), and after
 * a minute as a safety net.
 */
const THRESHOLD_TTL_MS = 60_000;
const MAX_CACHED_THRESHOLDS = 50_000;
const thresholdCaches = new WeakMap<Deps, Map<string, { cents: number | null; at: number }>>();
const PREFERENCES_EVENT = 'notification.preferences';

function thresholdCache(deps: Deps): Map<string, { cents: number | null; at: number }> {
  let cache = thresholdCaches.get(deps);
  if (!cache) {
    const fresh = new Map<string, { cents: number | null; at: number }>();
    deps.bus.subscribe((e) => {
      if (e.type === PREFERENCES_EVENT && e.topic.startsWith('user:')) fresh.delete(e.topic.slice('user:'.length));
    });
    thresholdCaches.set(deps, fresh);
    cache = fresh;
  }
  return cache;
}

/** Built once (a user's first big pull in a process reads it; the query builder cost more than the query). */
const THRESHOLD_QUERY = new PgDialect().sqlToQuery(
  sql`select ${notificationPreferences.thresholdCents} as "cents" from ${notificationPreferences}
  where ${notificationPreferences.userId} = ${sql.placeholder('uid')} and ${notificationPreferences.kind} = 'big_pull'`,
).sql;

async function ownBigPullThreshold(deps: Deps, userId: string): Promise<number | null> {
  const cache = thresholdCache(deps);
  const hit = cache.get(userId);
  if (hit && Date.now() - hit.at < THRESHOLD_TTL_MS) return hit.cents;
  const [row] = await deps.dbh.run<{ cents: number | string | null }>(THRESHOLD_QUERY, [userId]);
  const cents = row?.cents === null || row?.cents === undefined ? null : Number(row.cents);
  if (cache.size >= MAX_CACHED_THRESHOLDS) cache.clear();
  cache.set(userId, { cents, at: Date.now() });
  return cents;
}

/** Once a change of a user's preferences commits: forget their cached threshold in every process. */
async function preferencesChanged(deps: Deps, tx: DbOrTx, userId: string): Promise<void> {
  await afterCommit(tx, () => thresholdCache(deps).delete(userId));
  await afterCommit(tx, { topic: `user:${userId}`, type: PREFERENCES_EVENT });
}

/**
 * Fire-and-forget form for the opening paths: logs, never throws. Cards under the user's
 * threshold (cached) never reach the database.
 */
export function notifyBigPullLater(deps: Deps, userId: string, pulls: Parameters<typeof notifyBigPull>[2]): void {
  if (!pulls.some((p) => p.valueCents >= BIG_PULL_THRESHOLD.minCents)) return;
  void (async () => {
    const threshold = (await ownBigPullThreshold(deps, userId)) ?? setting(PULL_THRESHOLDS_KEY).notificationDefaultCents;
    const big = pulls.filter((p) => p.valueCents >= threshold);
    if (big.length) await notifyBigPull(deps, userId, big);
  })().catch((err: unknown) => deps.log.error('big pull notification failed', { err, userId }));
}

/**
 * A drop opened: one INSERT … SELECT gives every active user whose drop_starting inbox is on
 * (the default) a notification; mail only to those who turned its email on. One public
 * `notification.broadcast` at commit tells signed-in pages to refetch.
 */
export async function notifyDropStarting(deps: Deps, tx: DbOrTx, data: NotifyData['drop_starting']): Promise<void> {
  const kind = 'drop_starting' as const;
  const info = NOTIFICATION_KIND_INFO[kind];
  const n = renderNotification({ siteName: setting('site.identity').siteName, currency: deps.config.currency }, kind, data);
  const dedupe = `drop-start:${data.dropId}`;
  await tx.execute(sql`
    insert into notifications (user_id, kind, title, body, link, data, dedupe_key)
    select u.id, ${kind}::notification_kind, ${n.title}, ${n.body}, ${n.link}, ${JSON.stringify(data)}::jsonb, ${dedupe}
    from "user" u
    left join notification_preferences p on p.user_id = u.id and p.kind = ${kind}::notification_kind
    where u.deleted_at is null and not u.banned and coalesce(p.in_app, ${info.defaults.inApp})
    on conflict do nothing`);
  const mailTo = await tx
    .select({ id: user.id, email: user.email, username: user.username })
    .from(user)
    .leftJoin(notificationPreferences, and(eq(notificationPreferences.userId, user.id), eq(notificationPreferences.kind, kind)))
    .where(and(isNull(user.deletedAt), eq(user.banned, false), sql`coalesce(${notificationPreferences.email}, ${info.defaults.email})`));
  for (const r of mailTo) {
    await enqueueMail(deps, tx, {
      to: r.email,
      kind: mailKindOf(kind),
      rendered: renderNotificationMail(setting('site.identity'), deps.config.publicUrl, kind, n, r.username, unsubscribeUrl(deps.config, r.id, kind)),
    });
  }
  await publishAtCommit(tx, 'public', 'notification.broadcast', {});
}

/** Stands for the card's name in the rendered text until SQL puts each row's name in (never in a name). */
const CARD_NAME_MARK = '\uE000card\uE000';
/** Past this many recipients one public broadcast replaces the per-user realtime events. */
const MAX_USER_EVENTS = 100;

/**
 * Cards people wish for went into a live product. `matches` is a query of
 * `(user_id, card_id, card_name)` rows (modules/collection builds it from the wishlist and the
 * product's eligible cards). Inbox rows come from one INSERT … SELECT, once per user, card and
 * product (the dedupe key), so repeating the change is a no-op; mail goes only to the new rows
 * whose user turned this kind's email on. A user with the inbox off but mail on (rare: email is
 * off by default) goes through notify(), one call per match.
 */
export async function notifyWishlistLive(
  deps: Deps,
  tx: DbOrTx,
  product: { productId: string; productName: string },
  matches: SQL,
): Promise<number> {
  const kind = 'wishlist_live' as const;
  const info = NOTIFICATION_KIND_INFO[kind];
  const site = { siteName: setting('site.identity').siteName, currency: deps.config.currency };
  const n = renderNotification(site, kind, { ...product, cardId: '', cardName: CARD_NAME_MARK });
  const dedupe = sql`'wishlist:' || m.user_id || ':' || m.card_id || ':' || ${product.productId}::text`;
  const rows = rowsOf<{ user_id: string; card_id: string; card_name: string; email: string; username: string | null; banned: boolean | null; mail: boolean }>(await tx.execute(sql`
    with m as (${matches}),
    ins as (
      insert into notifications (user_id, kind, title, body, link, data, dedupe_key)
      select m.user_id, ${kind}::notification_kind, replace(${n.title}, ${CARD_NAME_MARK}, m.card_name),
        replace(${n.body}, ${CARD_NAME_MARK}, m.card_name), ${n.link},
        jsonb_build_object('productId', ${product.productId}::text, 'productName', ${product.productName}::text, 'cardId', m.card_id::text, 'cardName', m.card_name),
        ${dedupe}
      from m
      join "user" u on u.id = m.user_id
      left join notification_preferences p on p.user_id = u.id and p.kind = ${kind}::notification_kind
      where u.deleted_at is null and coalesce(p.in_app, ${info.defaults.inApp})
      on conflict do nothing
      returning user_id, data
    )
    select ins.user_id, ins.data->>'cardId' as card_id, ins.data->>'cardName' as card_name, u.email, u.username, u.banned, coalesce(p.email, ${info.defaults.email}) as mail
    from ins
    join "user" u on u.id = ins.user_id
    left join notification_preferences p on p.user_id = u.id and p.kind = ${kind}::notification_kind`));
  for (const r of rows) {
    if (!r.mail || r.banned || !r.email) continue;
    const rendered = renderNotification(site, kind, { ...product, cardId: r.card_id, cardName: r.card_name });
    await enqueueMail(deps, tx, {
      to: r.email,
      kind: mailKindOf(kind),
      rendered: renderNotificationMail(setting('site.identity'), deps.config.publicUrl, kind, rendered, r.username, unsubscribeUrl(deps.config, r.user_id, kind)),
    });
  }
  const users = [...new Set(rows.map((r) => r.user_id))];
  if (users.length > MAX_USER_EVENTS) await publishAtCommit(tx, 'public', 'notification.broadcast', {});
  else for (const u of users) await publishAtCommit(tx, `user:${u}`, 'notification.created', {});

  const mailOnly = rowsOf<{ user_id: string; card_id: string; card_name: string }>(await tx.execute(sql`
    with m as (${matches})
    select m.user_id, m.card_id::text as card_id, m.card_name
    from m
    join notification_preferences p on p.user_id = m.user_id and p.kind = ${kind}::notification_kind
    where not p.in_app and p.email`));
  for (const r of mailOnly) {
    await notify(deps, tx, r.user_id, kind, { ...product, cardId: r.card_id, cardName: r.card_name }, { dedupeKey: `wishlist:${r.user_id}:${r.card_id}:${product.productId}` });
  }
  return rows.length;
}

// ───────────────────────── the inbox ─────────────────────────

const toNotification = (r: typeof notifications.$inferSelect): Notification => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  link: r.link,
  createdAt: r.createdAt.toISOString(),
  readAt: r.readAt?.toISOString() ?? null,
});

export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(r?.n ?? 0);
}

/** A cursor: the last row's exact created_at (microseconds, as PostgreSQL prints it) and id. */
const encodeCursor = (createdAt: string, id: string) => Buffer.from(`${createdAt}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  if (!/^[\w-]{1,200}$/.test(cursor)) throw invalidCursor();
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (
    rest.length ||
    !createdAt ||
    !id ||
    !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(createdAt) ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) ||
    Number.isNaN(Date.parse(createdAt.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')))
  ) {
    throw invalidCursor();
  }
  return { createdAt, id };
}

/** Newest first, `limit` a page; `before` is the previous page's nextCursor. */
export async function listNotifications(
  db: DbOrTx,
  userId: string,
  q: { before?: string | undefined; limit: number; unread?: 'true' | 'false' | undefined },
): Promise<NotificationList> {
  const cursor = q.before ? decodeCursor(q.before) : null;
  const rows = await db
    .select({ row: notifications, at: sql<string>`${notifications.createdAt}::text` })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        q.unread === 'true' ? isNull(notifications.readAt) : undefined,
        cursor ? sql`(${notifications.createdAt}, ${notifications.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => toNotification(r.row)),
    unreadCount: await unreadCount(db, userId),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.at, last.row.id) : null,
  };
}

/** Marks one of the user's notifications read; someone else's or an unknown id is a 404 and changes nothing. */
export async function markRead(deps: Deps, userId: string, id: string): Promise<{ unreadCount: number }> {
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(notifications)
      .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning({ id: notifications.id });
    if (!row) throw notFound('No such notification.');
    const count = await unreadCount(tx, userId);
    await publishAtCommit(tx, `user:${userId}`, 'notification.read', { unreadCount: count });
    return { unreadCount: count };
  });
  return result;
}

export async function markAllRead(deps: Deps, userId: string): Promise<{ unreadCount: 0 }> {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    await publishAtCommit(tx, `user:${userId}`, 'notification.read', { unreadCount: 0 });
  });
  return { unreadCount: 0 };
}

// ───────────────────────── preferences ─────────────────────────

type PrefRow = { kind: NotificationKind; inApp: boolean; email: boolean; thresholdCents: number | null };

async function prefRows(db: DbOrTx, userId: string): Promise<Map<NotificationKind, PrefRow>> {
  const rows = await db
    .select({ kind: notificationPreferences.kind, inApp: notificationPreferences.inApp, email: notificationPreferences.email, thresholdCents: notificationPreferences.thresholdCents })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return new Map(rows.map((r) => [r.kind, r]));
}

function toPreferences(rows: Map<NotificationKind, PrefRow>): NotificationPreferences {
  return {
    preferences: NOTIFICATION_KINDS.map((kind) => {
      const info = NOTIFICATION_KIND_INFO[kind];
      const r = rows.get(kind);
      return {
        kind,
        inApp: r?.inApp ?? info.defaults.inApp,
        email: info.emailLocked ? true : (r?.email ?? info.defaults.email),
        emailLocked: info.emailLocked,
      };
    }),
    bigPullThresholdCents: rows.get('big_pull')?.thresholdCents ?? setting(PULL_THRESHOLDS_KEY).notificationDefaultCents,
    defaultBigPullThresholdCents: setting(PULL_THRESHOLDS_KEY).notificationDefaultCents,
  };
}

export async function getPreferences(db: DbOrTx, userId: string): Promise<NotificationPreferences> {
  return toPreferences(await prefRows(db, userId));
}

async function upsertPref(tx: DbOrTx, userId: string, r: PrefRow) {
  await tx
    .insert(notificationPreferences)
    .values({ userId, kind: r.kind, inApp: r.inApp, email: r.email, thresholdCents: r.thresholdCents })
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { inApp: r.inApp, email: r.email, thresholdCents: r.thresholdCents, updatedAt: sql`now()` },
    });
}

/** Changes the listed kinds (others keep theirs) and the big-pull threshold. Security mail stays on. */
export async function putPreferences(deps: Deps, userId: string, input: NotificationPreferencesInput): Promise<NotificationPreferences> {
  const fields: Record<string, string[]> = {};
  (input.preferences ?? []).forEach((p, i) => {
    if (NOTIFICATION_KIND_INFO[p.kind].emailLocked && !p.email) fields[`preferences.${i}.email`] = ["Security mail can't be turned off."];
  });
  if (Object.keys(fields).length) throw badRequest('Some fields need attention.', fields);
  return deps.db.transaction(async (tx) => {
    const rows = await prefRows(tx, userId);
    const current = (kind: NotificationKind): PrefRow => {
      const info = NOTIFICATION_KIND_INFO[kind];
      return rows.get(kind) ?? { kind, inApp: info.defaults.inApp, email: info.defaults.email, thresholdCents: null };
    };
    const changed = new Map<NotificationKind, PrefRow>();
    for (const p of input.preferences ?? []) changed.set(p.kind, { ...current(p.kind), inApp: p.inApp, email: p.email });
    if (input.bigPullThresholdCents !== undefined) {
      changed.set('big_pull', { ...(changed.get('big_pull') ?? current('big_pull')), thresholdCents: input.bigPullThresholdCents });
    }
    for (const r of changed.values()) {
      await upsertPref(tx, userId, r);
      rows.set(r.kind, r);
    }
    await preferencesChanged(deps, tx, userId);
    return toPreferences(rows);
  });
}

// ───────────────────────── unsubscribe ─────────────────────────

/** a…e@example.com: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '…';
  const local = email.slice(0, at);
  const masked = local.length <= 2 ? `${local[0]}…` : `${local[0]}…${local[local.length - 1]}`;
  return `${masked}${email.slice(at)}`;
}

async function unsubscribeTarget(db: DbOrTx, secret: string, token: string) {
  const { userId, kind } = verifyUnsubscribeToken(secret, token);
  const [u] = await db
    .select({ email: user.email, deletedAt: user.deletedAt, mail: notificationPreferences.email, inApp: notificationPreferences.inApp, thresholdCents: notificationPreferences.thresholdCents })
    .from(user)
    .leftJoin(notificationPreferences, and(eq(notificationPreferences.userId, user.id), eq(notificationPreferences.kind, kind)))
    .where(eq(user.id, userId));
  if (!u || u.deletedAt) throw invalidLink();
  const info = NOTIFICATION_KIND_INFO[kind];
  return { userId, kind, info, email: u.email, mailOn: u.mail ?? info.defaults.email, inApp: u.inApp ?? info.defaults.inApp, thresholdCents: u.thresholdCents };
}

/** What the link would turn off (GET: changes nothing). */
export async function unsubscribeInfo(deps: Deps, token: string): Promise<UnsubscribeInfo> {
  const t = await unsubscribeTarget(deps.db, deps.config.secret, token);
  return { kind: t.kind, label: t.info.label, email: maskEmail(t.email), alreadyOff: !t.mailOn };
}

/** Turns off the mail of the token's kind only (POST). Repeating it is harmless. */
export async function unsubscribe(deps: Deps, token: string): Promise<UnsubscribeInfo> {
  return deps.db.transaction(async (tx) => {
    const t = await unsubscribeTarget(tx, deps.config.secret, token);
    await upsertPref(tx, t.userId, { kind: t.kind, inApp: t.inApp, email: false, thresholdCents: t.thresholdCents });
    return { kind: t.kind, label: t.info.label, email: maskEmail(t.email), alreadyOff: true };
  });
}
