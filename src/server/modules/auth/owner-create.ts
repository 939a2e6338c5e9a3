import { randomBytes } from 'node:crypto';
import { generateRandomString } from 'better-auth/crypto';
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import { user } from '../../db/schema/auth.ts';
import { emailSchema, USERNAME_RE, usernameSchema } from '../../../shared/contracts/account.ts';
import { isReservedName } from '../../../shared/reserved-names.ts';
import { audit } from '../audit/service.ts';
import { endStreams } from '../realtime/session-streams.ts';
import { getAuth } from './auth.ts';
import { passwordProblem } from './passwords.ts';
import { setRole } from './user-writes.ts';
import { insertPasswordUser } from './users.ts';

/**
 * The first owner of a production install (issue 39.6), made by `npm run owner:create` on the
 * server, not through a web page: there is no owner yet to grant the role. The account gets a
 * random one-time password and no second factor. Nothing more is needed to make it enrol TOTP
 * first: requireAdmin/requireOwner refuse every admin endpoint (403 mfa_required) to a session that
 * has not passed two-factor, which an account without an enrolment can't, and the SPA sends such a
 * staff account to /register-mfa before any admin page.
 */

export type OwnerCreateErrorCode =
  | 'email_invalid'
  | 'email_taken'
  | 'username_invalid'
  | 'username_taken'
  | 'role_changed'
  | 'email_not_verified'
  | 'user_banned'
  | 'user_deleted';

export class OwnerCreateError extends Error {
  constructor(
    readonly code: OwnerCreateErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OwnerCreateError';
  }
}

export interface OwnerCreateInput {
  email: string;
  /** Public username; by default taken from the email's local part (or a random one). */
  username?: string | undefined;
  /** Make an existing, verified user owner instead of refusing the taken email. */
  promote?: boolean | undefined;
}

export type OwnerCreateResult =
  | { kind: 'created'; userId: string; email: string; username: string; password: string }
  | { kind: 'promoted'; userId: string; email: string; username: string; previousRole: string }
  | { kind: 'already_owner'; userId: string; email: string; username: string };

/** 144 random bits in base64url: 24 characters, typed once and changed at once. */
export function oneTimePassword(): string {
  return randomBytes(18).toString('base64url');
}

export function parseOwnerEmail(raw: unknown): string {
  const r = emailSchema.safeParse(raw);
  if (!r.success) throw new OwnerCreateError('email_invalid', r.error.issues[0]!.message);
  return r.data.toLowerCase();
}

async function usernameTaken(deps: Deps, name: string): Promise<boolean> {
  const rows = await deps.db
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.username}) = lower(${name})`)
    .limit(1);
  return rows.length > 0;
}

/** The given username (validated as at sign-up), else the email's local part if free and allowed, else a random one. */
async function chooseUsername(deps: Deps, email: string, given: string | undefined): Promise<string> {
  if (given !== undefined) {
    const r = usernameSchema.safeParse(given);
    if (!r.success) throw new OwnerCreateError('username_invalid', `--username: ${r.error.issues[0]!.message}`);
    if (await usernameTaken(deps, r.data)) throw new OwnerCreateError('username_taken', `--username: "${r.data}" is taken; choose another.`);
    return r.data;
  }
  // Owner mailboxes are often admin@ or owner@, reserved words on public pages: those fall through.
  const local = email.split('@')[0]!.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 20);
  if (USERNAME_RE.test(local) && !isReservedName(local) && !(await usernameTaken(deps, local))) {
    return local;
  }
  for (;;) {
    const candidate = `user-${randomBytes(4).toString('hex')}`;
    if (!isReservedName(candidate) && !(await usernameTaken(deps, candidate))) return candidate;
  }
}

/**
 * Creates an owner with a one-time password (hashed by Better Auth's own hasher, as sign-up does),
 * email verified and no two-factor; or, with `promote`, makes an existing verified user owner.
 * Audited as `owner.created` / `owner.promoted` with no acting user (the command line).
 */
export async function createOwner(deps: Deps, input: OwnerCreateInput): Promise<OwnerCreateResult> {
  const email = parseOwnerEmail(input.email);
  const [existing] = await deps.db.select().from(user).where(eq(user.email, email)).limit(1);
  if (existing) {
    if (!input.promote) {
      throw new OwnerCreateError(
        'email_taken',
        `An account with ${email} already exists. To make that account owner, run the command again with --promote.`,
      );
    }
    if (existing.deletedAt) throw new OwnerCreateError('user_deleted', `The account ${email} was deleted.`);
    if (!existing.emailVerified) {
      throw new OwnerCreateError('email_not_verified', `${email} has not confirmed its email address; confirm it first, then promote.`);
    }
    if (existing.banned) throw new OwnerCreateError('user_banned', `${email} is banned; lift the ban first, then promote.`);
    if (existing.role === 'owner') return { kind: 'already_owner', userId: existing.id, email, username: existing.username };
    await deps.db.transaction(async (tx) => {
      // Conditional on the role read above: a concurrent change makes this a no-op, not a double entry.
      const changed = await setRole(tx, existing.id, 'owner', existing.role);
      if (!changed) throw new OwnerCreateError('role_changed', `The role of ${email} changed meanwhile; run the command again.`);
      await audit(tx, {
        actorId: null,
        action: 'owner.promoted',
        targetType: 'user',
        targetId: existing.id,
        before: { role: existing.role },
        after: { role: 'owner', via: 'cli' },
      });
    });
    // A new role: open streams end and reconnect under it, on every process.
    await endStreams(deps, { userId: existing.id });
    return { kind: 'promoted', userId: existing.id, email, username: existing.username, previousRole: existing.role };
  }

  const username = await chooseUsername(deps, email, input.username);
  const password = oneTimePassword();
  // The sign-up rule applies to a generated password too (length, common list); this one always passes.
  const problem = passwordProblem(password);
  if (problem) throw new Error(`generated password refused: ${problem.code}`);
  const ctx = await getAuth(deps).$context;
  const hash = await ctx.password.hash(password);
  const id = generateRandomString(32, 'a-z', '0-9', 'A-Z');
  const now = new Date();
  try {
    await deps.db.transaction(async (tx) => {
      // The operator creating the shop's owner stands for both age and terms; sign-up records them the same way.
      await insertPasswordUser(tx, { id, email, username, role: 'owner', emailVerified: true, twoFactorEnabled: false, passwordHash: hash, now });
      await audit(tx, {
        actorId: null,
        action: 'owner.created',
        targetType: 'user',
        targetId: id,
        after: { email, username, role: 'owner', emailVerified: true, twoFactorEnabled: false, via: 'cli' },
      });
    });
  } catch (err) {
    // Two commands at once for one email (or username): the unique index decides.
    const [again] = await deps.db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
    if (again) throw new OwnerCreateError('email_taken', `An account with ${email} already exists.`);
    if (await usernameTaken(deps, username)) throw new OwnerCreateError('username_taken', `The username "${username}" was just taken; run the command again.`);
    throw err;
  }
  return { kind: 'created', userId: id, email, username, password };
}
