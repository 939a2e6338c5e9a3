import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import type { DbOrTx } from '../../db/client.ts';
import { session as sessionTable, twoFactor, user as userTable } from '../auth/tables.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Actor } from '../../http/types.ts';
import type {
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  AdminUserRow,
  AdminUserSummary,
  BanUserInput,
} from '../../../shared/contracts/admin-users.ts';
import { toSessionInfo } from '../account/service.ts';
import { cards } from '../catalog/tables.ts';
import { ownedCards } from '../inventory/tables.ts';
import { openings } from '../shop/tables.ts';
import { getBalance, totalsByKind } from '../wallet/service.ts';
import { audit } from '../audit/service.ts';
import { getAuth } from '../auth/auth.ts';
import { disableTwoFactor, endSessions, setBan, setRole } from '../auth/user-writes.ts';
import { endStreams } from '../realtime/session-streams.ts';
import { sendMail } from '../mail/service.ts';
import { AppError } from '../../http/errors.ts';
import { MAIL_DISABLED_MESSAGE } from '../auth/auth-rules.ts';
import { likePattern } from '../../lib/like.ts';

type UserRow = typeof userTable.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toRow(u: UserRow): AdminUserRow {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    role: u.role,
    emailVerified: u.emailVerified,
    twoFactorEnabled: u.twoFactorEnabled,
    banned: u.banned,
    banReason: u.banReason,
    banExpires: iso(u.banExpires),
    createdAt: u.createdAt.toISOString(),
    lastSignInAt: iso(u.lastSignInAt),
    deletedAt: iso(u.deletedAt),
  };
}

/** What the audit log keeps of a user before/after a change. */
function snapshot(u: UserRow) {
  return {
    role: u.role,
    banned: u.banned,
    banReason: u.banReason,
    banExpires: iso(u.banExpires),
    twoFactorEnabled: u.twoFactorEnabled,
  };
}

export async function listUsers(db: DbOrTx, q: AdminUserListQuery): Promise<AdminUserList> {
  const where: SQL[] = [];
  if (q.q) {
    const pattern = likePattern(q.q);
    where.push(or(ilike(userTable.email, pattern), ilike(userTable.username, pattern))!);
  }
  if (q.role) where.push(eq(userTable.role, q.role));
  if (q.banned) where.push(eq(userTable.banned, q.banned === 'true'));
  const cond = where.length ? and(...where) : undefined;
  const col = {
    createdAt: userTable.createdAt,
    email: userTable.email,
    username: sql`lower(${userTable.username})`,
    lastSignInAt: userTable.lastSignInAt,
  }[q.sort];
  const dir = q.dir === 'asc' ? asc : desc;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(userTable)
      .where(cond)
      .orderBy(q.sort === 'lastSignInAt' ? sql`${col} ${sql.raw(q.dir)} nulls last` : dir(col), asc(userTable.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(userTable).where(cond),
  ]);
  return { items: rows.map(toRow), total: Number(total[0]?.n ?? 0), page: q.page, pageSize: q.pageSize };
}

async function findUser(db: DbOrTx, id: string): Promise<UserRow> {
  const [u] = await db.select().from(userTable).where(eq(userTable.id, id)).limit(1);
  if (!u) throw notFound('No such user.');
  return u;
}

/** Balance, vault and lifetime money totals of one user. Vault value is at today's market values. */
export async function userSummary(db: DbOrTx, id: string): Promise<AdminUserSummary> {
  const [balance, totals, [vault], [opened]] = await Promise.all([
    getBalance(db, id),
    totalsByKind(db, id),
    db
      .select({ n: count(), value: sql<string | null>`sum(${cards.valueCents})` })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .where(and(eq(ownedCards.ownerId, id), eq(ownedCards.status, 'in_vault'))),
    db.select({ n: count() }).from(openings).where(eq(openings.userId, id)),
  ]);
  return {
    balanceCents: balance.balanceCents,
    vaultValueCents: Number(vault?.value ?? 0),
    vaultCount: Number(vault?.n ?? 0),
    depositedCents: totals.deposit ?? 0,
    spentOnPacksCents: -(totals.pack_purchase ?? 0),
    buybackReceivedCents: totals.buyback ?? 0,
    openings: Number(opened?.n ?? 0),
  };
}

export async function userDetail(db: DbOrTx, id: string): Promise<AdminUserDetail> {
  const u = await findUser(db, id);
  const summary = await userSummary(db, id);
  const [tf] = await db.select().from(twoFactor).where(eq(twoFactor.userId, id)).limit(1);
  const sessions = await db
    .select()
    .from(sessionTable)
    .where(and(eq(sessionTable.userId, id), sql`${sessionTable.expiresAt} > now()`))
    .orderBy(desc(sessionTable.lastSeenAt));
  return {
    ...toRow(u),
    summary,
    updatedAt: u.updatedAt.toISOString(),
    ageConfirmedAt: iso(u.ageConfirmedAt),
    termsAcceptedAt: iso(u.termsAcceptedAt),
    twoFactor: {
      enabled: u.twoFactorEnabled,
      lockedUntil: tf?.lockedUntil && tf.lockedUntil.getTime() > Date.now() ? tf.lockedUntil.toISOString() : null,
      failedAttempts: tf?.failedVerificationCount ?? 0,
    },
    sessions: sessions.map((s) => {
      const info = toSessionInfo(s, null);
      return {
        id: info.id,
        browser: info.browser,
        ip: info.ip,
        createdAt: info.createdAt,
        lastSeenAt: info.lastSeenAt,
        expiresAt: info.expiresAt,
        mfaPassed: info.mfaPassed,
      };
    }),
  };
}

/** An admin may act on users; acting on another admin or an owner takes an owner. */
function assertCanManage(actor: Actor, target: UserRow) {
  if (target.id === actor.userId) throw conflict('You cannot do this to your own account.', 'cannot_target_self');
  if (target.role === 'owner') throw forbidden('Owners cannot be banned or reset here.', 'owner_protected');
  if (target.role === 'admin' && actor.role !== 'owner') throw forbidden('Only an owner can do this to an admin.', 'owner_role_required');
}

export async function banUser(deps: Deps, actor: Actor, id: string, input: BanUserInput, ip: string): Promise<AdminUserDetail> {
  const expires = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expires && expires.getTime() <= Date.now()) {
    throw badRequest('Pick an end in the future.', { expiresAt: ['Pick an end in the future.'] });
  }
  const before = await findUser(deps.db, id);
  assertCanManage(actor, before);
  await deps.db.transaction(async (tx) => {
    const after = await setBan(tx, id, { reason: input.reason, expires });
    await endSessions(tx, id);
    await audit(tx, { actorId: actor.userId, action: 'user.ban', targetType: 'user', targetId: id, before: snapshot(before), after: snapshot(after!), ip });
  });
  await endStreams(deps, { userId: id });
  await sendMail(deps, {
    to: before.email,
    kind: 'account-banned',
    data: { username: before.username, reason: input.reason, until: expires ? expires.toUTCString() : null },
  }).catch((err: unknown) => deps.log.error('ban mail failed', { err }));
  return userDetail(deps.db, id);
}

export async function unbanUser(deps: Deps, actor: Actor, id: string, ip: string): Promise<AdminUserDetail> {
  const before = await findUser(deps.db, id);
  if (before.role !== 'user' && actor.role !== 'owner') throw forbidden('Only an owner can do this to an admin.', 'owner_role_required');
  await deps.db.transaction(async (tx) => {
    const after = await setBan(tx, id, null);
    await audit(tx, { actorId: actor.userId, action: 'user.unban', targetType: 'user', targetId: id, before: snapshot(before), after: snapshot(after!), ip });
  });
  return userDetail(deps.db, id);
}

/** Turns two-factor off for a locked-out user; their sessions end and they enrol again after signing in. */
export async function resetTwoFactor(deps: Deps, actor: Actor, id: string, ip: string): Promise<AdminUserDetail> {
  const before = await findUser(deps.db, id);
  assertCanManage(actor, before);
  if (!before.twoFactorEnabled) throw conflict('This user has no two-factor to reset.', 'two_factor_not_enabled');
  await deps.db.transaction(async (tx) => {
    const after = await disableTwoFactor(tx, id);
    await endSessions(tx, id);
    await audit(tx, { actorId: actor.userId, action: 'user.reset_two_factor', targetType: 'user', targetId: id, before: snapshot(before), after: snapshot(after!), ip });
  });
  await endStreams(deps, { userId: id });
  await sendMail(deps, { to: before.email, kind: 'two-factor-reset', data: { username: before.username, url: `${deps.config.publicUrl}/` } }).catch(
    (err: unknown) => deps.log.error('two-factor reset mail failed', { err }),
  );
  return userDetail(deps.db, id);
}

/** Sends the standard reset link. Answers alike whether or not the address has an account. */
export async function adminSendPasswordReset(deps: Deps, actor: Actor, email: string, ip: string): Promise<void> {
  if (deps.config.mailDisabled) throw new AppError(503, 'service_unavailable', MAIL_DISABLED_MESSAGE);
  const normalized = email.trim().toLowerCase();
  const [target] = await deps.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, normalized)).limit(1);
  await getAuth(deps).api.requestPasswordReset({ body: { email: normalized, redirectTo: '/update-password' } });
  await audit(deps.db, {
    actorId: actor.userId,
    action: 'user.send_password_reset',
    targetType: 'user',
    targetId: target?.id ?? null,
    after: { email: normalized, accountExists: Boolean(target) },
    ip,
  });
}

// ───────────────────────── admins (owner only) ─────────────────────────

export async function listAdmins(db: DbOrTx) {
  const rows = await db
    .select()
    .from(userTable)
    .where(inArray(userTable.role, ['admin', 'owner']))
    .orderBy(desc(userTable.role), asc(userTable.email));
  return {
    items: rows.map((u) => ({
      id: u.id,
      email: u.email,
      username: u.username,
      role: u.role as 'admin' | 'owner',
      twoFactorEnabled: u.twoFactorEnabled,
      lastSignInAt: iso(u.lastSignInAt),
      createdAt: u.createdAt.toISOString(),
    })),
  };
}

export async function promoteToAdmin(deps: Deps, actor: Actor, by: { userId?: string | undefined; email?: string | undefined }, ip: string) {
  const cond = by.userId ? eq(userTable.id, by.userId) : eq(userTable.email, by.email!.trim().toLowerCase());
  const [before] = await deps.db.select().from(userTable).where(cond).limit(1);
  if (!before || before.deletedAt) throw notFound('No user with that id or email.');
  if (before.role !== 'user') throw conflict('That user is already an admin.', 'already_admin');
  if (before.banned) throw conflict('Unban the user first.', 'user_banned');
  if (!before.emailVerified) throw conflict('The user must confirm their email first.', 'email_not_verified');
  const after = await deps.db.transaction(async (tx) => {
    const u = await setRole(tx, before.id, 'admin');
    await audit(tx, { actorId: actor.userId, action: 'admin.promote', targetType: 'user', targetId: before.id, before: { role: before.role }, after: { role: 'admin' }, ip });
    return u!;
  });
  // A new role: the open streams end, and reconnect under it.
  await endStreams(deps, { userId: before.id });
  return {
    id: after.id,
    email: after.email,
    username: after.username,
    role: 'admin' as const,
    twoFactorEnabled: after.twoFactorEnabled,
    lastSignInAt: iso(after.lastSignInAt),
    createdAt: after.createdAt.toISOString(),
  };
}

export async function demoteAdmin(deps: Deps, actor: Actor, id: string, ip: string) {
  if (id === actor.userId) throw conflict('You cannot demote yourself.', 'cannot_demote_self');
  const before = await findUser(deps.db, id);
  if (before.role === 'user') throw conflict('That user is not an admin.', 'not_admin');
  if (before.role === 'owner') throw conflict('Owners cannot be demoted here.', 'cannot_demote_owner');
  await deps.db.transaction(async (tx) => {
    // Conditional on the role, so two owners demoting at once write one audit entry.
    if (!(await setRole(tx, id, 'user', 'admin'))) throw conflict('That user is not an admin.', 'not_admin');
    await audit(tx, { actorId: actor.userId, action: 'admin.demote', targetType: 'user', targetId: id, before: { role: before.role }, after: { role: 'user' }, ip });
  });
  await endStreams(deps, { userId: id });
  return { id, role: 'user' as const };
}
