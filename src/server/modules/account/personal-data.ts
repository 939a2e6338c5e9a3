import { asc, eq } from 'drizzle-orm';
import { account, session, twoFactor, user, verification } from '../auth/tables.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';
import { eraseSignIn, linksOf } from '../auth/user-writes.ts';

/** The purpose of a pending link, never its token (identifiers are `<purpose>:<token>`). */
function linkPurpose(identifier: string): string {
  for (const p of ['reset-password', 'delete-account', 'email-verification', 'change-email']) if (identifier.startsWith(p)) return p;
  return 'other';
}

/**
 * Sign-in data (Better Auth's tables). Credentials, sessions, two-factor and pending links are
 * deleted; the user row stays, pseudonymised, so the money records it anchors keep an owner.
 * Secrets are never exported: password hashes, OAuth tokens, session tokens, TOTP secrets,
 * backup codes and link tokens.
 */
export const accountPersonalData: PersonalDataSection = {
  name: 'account',
  tables: [
    { table: user, keyedBy: ['id', 'email'], onDelete: 'keep', why: 'pseudonymised in place; anchors kept money records' },
    { table: session, keyedBy: ['user_id'], onDelete: 'delete', why: 'signed out everywhere' },
    { table: account, keyedBy: ['user_id', 'account_id'], onDelete: 'delete', why: 'credentials' },
    { table: twoFactor, keyedBy: ['user_id'], onDelete: 'delete', why: 'credentials' },
    { table: verification, keyedBy: ['value', 'identifier'], onDelete: 'delete', why: 'pending links' },
  ],
  async export(db, { id, email }) {
    const [[u], methods, sessions, tf, links] = await Promise.all([
      db.select().from(user).where(eq(user.id, id)),
      db
        .select({ provider: account.providerId, createdAt: account.createdAt, updatedAt: account.updatedAt })
        .from(account)
        .where(eq(account.userId, id))
        .orderBy(asc(account.createdAt)),
      db.select().from(session).where(eq(session.userId, id)).orderBy(asc(session.createdAt), asc(session.id)),
      db
        .select({ verified: twoFactor.verified, failedVerificationCount: twoFactor.failedVerificationCount, lockedUntil: twoFactor.lockedUntil })
        .from(twoFactor)
        .where(eq(twoFactor.userId, id)),
      db.select().from(verification).where(linksOf(id, email)).orderBy(asc(verification.createdAt)),
    ]);
    return {
      profile: u
        ? {
            name: u.name,
            image: u.image,
            banned: u.banned,
            banReason: u.banReason,
            banExpires: u.banExpires?.toISOString() ?? null,
            deletedAt: u.deletedAt?.toISOString() ?? null,
          }
        : null,
      signInMethods: methods.map((m) => ({ provider: m.provider, createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString() })),
      // Every stored session, expired ones too; the top-level `sessions` lists the live ones.
      sessions: sessions.map((s) => ({
        id: s.id,
        ip: s.ipAddress,
        userAgent: s.userAgent,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        mfaPassed: Boolean(s.mfaVerifiedAt),
      })),
      twoFactor: tf[0]
        ? { verified: tf[0].verified, failedAttempts: tf[0].failedVerificationCount, lockedUntil: tf[0].lockedUntil?.toISOString() ?? null }
        : null,
      pendingLinks: links.map((l) => ({ purpose: linkPurpose(l.identifier), createdAt: l.createdAt.toISOString(), expiresAt: l.expiresAt.toISOString() })),
    };
  },
  async erase(tx, who) {
    await eraseSignIn(tx, who);
  },
};
