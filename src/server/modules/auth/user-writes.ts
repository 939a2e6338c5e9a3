import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { account, session, twoFactor, user, verification } from '../../db/schema/auth.ts';
import { pseudonymOf } from '../../lib/pseudonym.ts';

/**
 * Every change other modules make to a person's sign-in state (ADR 0013): auth owns Better Auth's
 * tables, so the back office (ban, role, two-factor reset), the account page (username, sessions)
 * and the erase call these instead of writing the tables. Each takes the caller's transaction, so
 * the caller's audit entry commits with the change.
 */

type UserRow = typeof user.$inferSelect;
export type Role = 'user' | 'admin' | 'owner';

/** Bans (with a reason and an optional end) or lifts a ban. */
export async function setBan(db: DbOrTx, userId: string, ban: { reason: string; expires: Date | null } | null): Promise<UserRow | undefined> {
  const [row] = await db
    .update(user)
    .set(ban ? { banned: true, banReason: ban.reason, banExpires: ban.expires, updatedAt: new Date() } : { banned: false, banReason: null, banExpires: null, updatedAt: new Date() })
    .where(eq(user.id, userId))
    .returning();
  return row;
}

/**
 * Sets a role; with `from`, only while the user still has that role (two owners demoting at once
 * change it once). Answers the changed row, or undefined when nothing changed.
 */
export async function setRole(db: DbOrTx, userId: string, role: Role, from?: Role): Promise<UserRow | undefined> {
  const [row] = await db
    .update(user)
    .set({ role, updatedAt: new Date() })
    .where(from ? and(eq(user.id, userId), eq(user.role, from)) : eq(user.id, userId))
    .returning();
  return row;
}

/** A new public username; the lower(username) unique index decides a race (the caller maps it). */
export async function setUsername(db: DbOrTx, userId: string, username: string): Promise<UserRow | undefined> {
  const [row] = await db.update(user).set({ username, updatedAt: new Date() }).where(eq(user.id, userId)).returning();
  return row;
}

/** Turns two-factor off: the enrolment goes and the flag with it. */
export async function disableTwoFactor(db: DbOrTx, userId: string): Promise<UserRow | undefined> {
  await db.delete(twoFactor).where(eq(twoFactor.userId, userId));
  const [row] = await db.update(user).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(user.id, userId)).returning();
  return row;
}

/**
 * Ends a user's sessions: all of them, only one (`only`), or all but one (`except`). Answers the
 * ids ended, so a caller can tell "no such session" (404) from success.
 */
export async function endSessions(db: DbOrTx, userId: string, which: { only?: string; except?: string } = {}): Promise<string[]> {
  const conds: SQL[] = [eq(session.userId, userId)];
  if (which.only !== undefined) conds.push(eq(session.id, which.only));
  if (which.except !== undefined) conds.push(ne(session.id, which.except));
  const rows = await db.delete(session).where(and(...conds)).returning({ id: session.id });
  return rows.map((r) => r.id);
}

/** A person's pending links (verification rows name the user by id or by email). */
export const linksOf = (id: string, email: string) =>
  or(eq(verification.value, id), sql`strpos(lower(${verification.identifier}), lower(${email})) > 0`)!;

/**
 * The erase of sign-in data: credentials, sessions, two-factor and pending links are deleted; the
 * user row stays, pseudonymised, so the money records it anchors keep an owner.
 */
export async function eraseSignIn(db: DbOrTx, { id, email }: { id: string; email: string }): Promise<void> {
  await db.delete(session).where(eq(session.userId, id));
  await db.delete(account).where(eq(account.userId, id));
  await db.delete(twoFactor).where(eq(twoFactor.userId, id));
  await db.delete(verification).where(linksOf(id, email));
  const alias = pseudonymOf(id);
  await db
    .update(user)
    .set({
      email: alias.email,
      name: alias.name,
      username: alias.username,
      image: null,
      emailVerified: false,
      twoFactorEnabled: false,
      banned: false,
      banReason: null,
      banExpires: null,
      lastSignInAt: null,
      deletedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(user.id, id));
}
