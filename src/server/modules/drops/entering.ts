import { afterCommit } from '../../db/after-commit.ts';
import { isStaffOrStaffLinked } from '../audit/duties.ts';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DropEntry } from '../../../shared/contracts/drops.ts';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { dropEntries, drops } from '../../db/schema/drops.ts';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, forbidden } from '../../http/errors.ts';
import { isBanActive } from '../auth/auth-rules.ts';
import { activeSelfExclusion } from '../responsible-play/service.ts';
import { instantText, plural } from '../../../shared/words.ts';
import { type DropRow, entryCount, dropRow, findEntry } from './read.ts';

const DAY_MS = 86_400_000;

/** A collector enters a drop: eligibility (ban, self-exclusion, email, account age, staff) and the one free entry. */

/** A public id for the entry list: 16 characters of base64url, random (ENTRY_ID_PATTERN). */
export const newEntryId = () => randomBytes(12).toString('base64url');

function notOpen(row: DropRow, now: Date): AppError | null {
  if (row.status === 'scheduled' || (row.status === 'open' && row.opensAt > now)) {
    return conflict(`This drop opens at ${row.opensAt.toISOString()}; enter it then.`, 'drop_not_open');
  }
  if (row.status === 'cancelled') return conflict('This drop was cancelled.', 'drop_cancelled');
  if (row.status !== 'open' || row.closesAt <= now) return conflict('This drop has closed; entries are no longer taken.', 'drop_closed');
  return null;
}

/**
 * One free entry per user per drop. A retry (or twenty at once) finds the entry already made and
 * answers it again: the (drop, user) unique index decides, never a read before the write.
 * The insert holds a share lock on the drop row, so the close (which takes it for update) waits
 * for entries in flight and the entry list it freezes has them all.
 */
export async function enterDrop(deps: Deps, dropId: string, userId: string): Promise<{ entry: DropEntry; created: boolean; entryCount: number }> {
  const { db } = deps;
  const row = await dropRow(db, dropId);
  const existing = await findEntry(db, dropId, userId);
  if (existing) return { entry: existing, created: false, entryCount: await entryCount(db, dropId) };
  const now = new Date();
  const refusal = notOpen(row, now);
  if (refusal) throw refusal;
  await assertEligible(db, row, userId, now);

  const publicId = newEntryId();
  const res = await db.execute(sql`
    with d as (
      select id from ${drops} where id = ${dropId}::uuid and status = 'open' and opens_at <= now() and closes_at > now() for share
    )
    insert into ${dropEntries} ("drop_id", "user_id", "public_id")
    select d.id, ${userId}::text, ${publicId}::text from d
    on conflict ("drop_id", "user_id") do nothing
    returning "public_id", "created_at"`);
  const [inserted] = rowsOf<{ public_id: string; created_at: string | Date }>(res);
  if (!inserted) {
    const again = await findEntry(db, dropId, userId);
    if (again) return { entry: again, created: false, entryCount: await entryCount(db, dropId) };
    throw notOpen(await dropRow(db, dropId), new Date()) ?? conflict('This drop has closed; entries are no longer taken.', 'drop_closed');
  }
  const n = await entryCount(db, dropId);
  await afterCommit(db, { topic: 'public', type: 'drop.entries', data: { dropId, entryCount: n } });
  return { entry: { dropId, entryId: inserted.public_id, createdAt: new Date(inserted.created_at).toISOString() }, created: true, entryCount: n };
}

async function assertEligible(db: DbOrTx, row: DropRow, userId: string, now: Date) {
  const [u] = await db
    .select({ emailVerified: user.emailVerified, createdAt: user.createdAt, banned: user.banned, banExpires: user.banExpires, deletedAt: user.deletedAt, role: user.role })
    .from(user)
    .where(eq(user.id, userId));
  if (!u || u.deletedAt) throw forbidden('This account cannot enter drops.', 'not_eligible');
  // Staff can read the seeds before they are revealed; they never enter.
  if (u.role === 'admin' || u.role === 'owner') throw forbidden('Staff accounts cannot enter drops.', 'staff_not_eligible');
  // Nor an account a staff member referred: it would be staff entering by proxy (ADR 0024).
  if (await isStaffOrStaffLinked(db, userId)) throw forbidden('Accounts a staff member referred cannot enter drops.', 'staff_not_eligible');
  if (isBanActive({ banned: u.banned, banExpires: u.banExpires }, now.getTime())) {
    throw forbidden('A suspended account cannot enter drops.', 'account_banned');
  }
  if (row.requireVerifiedEmail && !u.emailVerified) {
    throw forbidden('Confirm your email address to enter this drop.', 'email_not_verified');
  }
  if (row.minAccountAgeDays > 0 && now.getTime() - u.createdAt.getTime() < row.minAccountAgeDays * DAY_MS) {
    const from = new Date(u.createdAt.getTime() + row.minAccountAgeDays * DAY_MS);
    throw forbidden(
      `This drop is for accounts at least ${plural(row.minAccountAgeDays, 'day')} old; yours can enter drops from ${instantText(from)}.`,
      'account_too_new',
    );
  }
  const ex = await activeSelfExclusion(db, userId, now);
  if (ex) {
    throw forbidden(`You have excluded yourself until ${instantText(ex.endsAt)}, so entering drops is blocked until then.`, 'self_excluded');
  }
}
