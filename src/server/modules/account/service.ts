import { isUniqueViolation } from '../../db/errors.ts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { account as accountTable, session as sessionTable, user as userTable } from '../auth/tables.ts';
import { auditLog } from '../audit/tables.ts';
import { mailMessages } from '../mail/tables.ts';
import { badRequest, conflict, notFound, tooManyRequests } from '../../http/errors.ts';
import type { Account, DataExport, SessionInfo } from '../../../shared/contracts/account.ts';
import { audit } from '../audit/service.ts';
import { getAuth } from '../auth/auth.ts';
import { checkSecondFactor, findTwoFactor, readBackupCodes } from '../auth/second-factor.ts';
import { endSessions, setUsername } from '../auth/user-writes.ts';
import { endStreams } from '../realtime/session-streams.ts';
import { erasePersonalData, exportPersonalData } from '../personal-data.ts';
import { describeUserAgent } from './user-agent.ts';

type UserRow = typeof userTable.$inferSelect;
type SessionRow = typeof sessionTable.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toAccount(u: UserRow): Account {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    role: u.role,
    emailVerified: u.emailVerified,
    twoFactorEnabled: u.twoFactorEnabled,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
    lastSignInAt: iso(u.lastSignInAt),
    ageConfirmedAt: iso(u.ageConfirmedAt),
    termsAcceptedAt: iso(u.termsAcceptedAt),
  };
}

export function toSessionInfo(s: SessionRow, currentId: string | null): SessionInfo {
  return {
    id: s.id,
    browser: describeUserAgent(s.userAgent),
    userAgent: s.userAgent,
    ip: s.ipAddress,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: s.id === currentId,
    mfaPassed: Boolean(s.mfaVerifiedAt),
  };
}

export async function getUserRow(db: DbOrTx, userId: string): Promise<UserRow> {
  const [u] = await db.select().from(userTable).where(eq(userTable.id, userId)).limit(1);
  if (!u) throw notFound('No such account.');
  return u;
}

export async function isUsernameAvailable(db: DbOrTx, username: string, exceptUserId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: userTable.id })
    .from(userTable)
    .where(sql`lower(${userTable.username}) = lower(${username})`)
    .limit(1);
  return rows.length === 0 || rows[0]!.id === exceptUserId;
}

export async function changeUsername(db: Db, userId: string, username: string): Promise<Account> {
  if (!(await isUsernameAvailable(db, username, userId))) throw conflict('That username is taken.', 'username_taken');
  try {
    const u = await setUsername(db, userId, username);
    if (!u) throw notFound('No such account.');
    return toAccount(u);
  } catch (err) {
    // Two people racing for the same name: the lower(username) index decides.
    if (isUniqueViolation(err)) throw conflict('That username is taken.', 'username_taken');
    throw err;
  }
}

export async function listSessions(db: DbOrTx, userId: string, currentId: string | null): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(sessionTable)
    .where(and(eq(sessionTable.userId, userId), sql`${sessionTable.expiresAt} > now()`))
    .orderBy(desc(sessionTable.lastSeenAt));
  return rows.map((s) => toSessionInfo(s, currentId));
}

export async function revokeSession(db: DbOrTx, userId: string, sessionId: string): Promise<void> {
  const ended = await endSessions(db, userId, { only: sessionId });
  if (!ended.length) throw notFound('No such session.');
}

export async function revokeOtherSessions(db: DbOrTx, userId: string, currentId: string): Promise<number> {
  return (await endSessions(db, userId, { except: currentId })).length;
}

export async function exportData(deps: Deps, userId: string, currentSessionId: string | null): Promise<DataExport> {
  const u = await getUserRow(deps.db, userId);
  const tf = await findTwoFactor(deps.db, userId);
  const authCtx = await getAuth(deps).$context;
  const [sessions, auditRows, mails] = await Promise.all([
    listSessions(deps.db, userId, currentSessionId),
    deps.db
      .select({ action: auditLog.action, createdAt: auditLog.createdAt })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, userId)))
      .orderBy(desc(auditLog.createdAt))
      .limit(1000),
    deps.db
      .select({ subject: mailMessages.subject, kind: mailMessages.kind, createdAt: mailMessages.createdAt })
      .from(mailMessages)
      .where(sql`lower(${mailMessages.to}) = lower(${u.email})`)
      .orderBy(desc(mailMessages.createdAt))
      .limit(1000),
  ]);
  const data = await exportPersonalData(deps.db, { id: u.id, email: u.email, username: u.username, name: u.name });
  return {
    exportedAt: new Date().toISOString(),
    account: toAccount(u),
    sessions,
    twoFactor: {
      enabled: u.twoFactorEnabled,
      backupCodesRemaining: tf ? (await readBackupCodes(authCtx.secretConfig, tf.backupCodes)).length : null,
    },
    auditEntriesAboutYou: auditRows.map((r) => ({ action: r.action, createdAt: r.createdAt.toISOString() })),
    mail: mails.map((m) => ({ subject: m.subject, kind: m.kind, createdAt: m.createdAt.toISOString() })),
    data,
  };
}

/** Password check against the credential account (Better Auth's hash). */
export async function verifyPassword(deps: Deps, userId: string, password: string): Promise<boolean> {
  const [acct] = await deps.db
    .select({ password: accountTable.password })
    .from(accountTable)
    .where(and(eq(accountTable.userId, userId), eq(accountTable.providerId, 'credential')))
    .limit(1);
  if (!acct?.password) return false;
  const ctx = await getAuth(deps).$context;
  return ctx.password.verify({ hash: acct.password, password });
}

/**
 * Deletes the account: checks the password (and second factor), then in one transaction runs
 * every domain's erase step (signs out everywhere, removes credentials, two-factor, mail, limits…)
 * and pseudonymises the user row, which stays so money records keep their owner for accounting.
 * The per-table policy is in docs/privacy.md.
 */
export async function deleteAccount(
  deps: Deps,
  userId: string,
  input: { password: string; code?: string | undefined },
  ip: string | null,
): Promise<void> {
  const u = await getUserRow(deps.db, userId);
  if (!(await verifyPassword(deps, userId, input.password))) {
    throw badRequest('Your password is not right.', { password: ['Your password is not right.'] }, 'invalid_password');
  }
  if (u.twoFactorEnabled) {
    const tf = await findTwoFactor(deps.db, userId);
    if (tf) {
      if (!input.code) {
        throw badRequest('Enter a code from your authenticator app or a backup code.', { code: ['Enter a code.'] }, 'invalid_code');
      }
      const ctx = await getAuth(deps).$context;
      const result = await checkSecondFactor(deps.db, ctx.secretConfig, tf, input.code);
      if (typeof result === 'object') throw tooManyRequests(result.lockedFor, 'Too many wrong codes. Try again later.');
      if (result !== 'ok') {
        const msg = result === 'replayed' ? 'That code was already used. Wait for the next one.' : 'That code is not right.';
        throw badRequest(msg, { code: [msg] }, 'invalid_code');
      }
    }
  }
  await deps.db.transaction(async (tx) => {
    // Every domain's step (modules/personal-data.ts); the account's last pseudonymises the user row.
    await erasePersonalData(tx, { id: u.id, email: u.email, username: u.username, name: u.name });
    await audit(tx, { actorId: userId, action: 'account.delete', targetType: 'user', targetId: userId, ip });
  });
  await endStreams(deps, { userId });
}
