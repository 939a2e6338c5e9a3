import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit.ts';
import { pseudonymOf } from '../../lib/pseudonym.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

const aboutUser = (id: string) => and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, id));

/** `"value"` as it appears in jsonb's text form, so only whole string values are replaced. */
const token = (value: string) => JSON.stringify(value);

/**
 * The audit log is the security record of who did what, kept on deletion. What names the person
 * inside it goes: their email, username and name in before/after become the placeholders, and
 * the IPs of their own past actions are cleared. (The `account.delete` entry written after this
 * keeps the IP that asked for the deletion, as evidence of it.)
 */
export const auditPersonalData: PersonalDataSection = {
  name: 'audit',
  tables: [
    {
      table: auditLog,
      keyedBy: ['actor_id', 'target_id', 'before', 'after'],
      onDelete: 'keep',
      why: 'security record; identifying values scrubbed, own IPs cleared',
    },
  ],
  async export(db, { id }) {
    const [byYou, aboutYou] = await Promise.all([
      db.select().from(auditLog).where(eq(auditLog.actorId, id)).orderBy(asc(auditLog.createdAt), asc(auditLog.id)),
      db.select().from(auditLog).where(aboutUser(id)).orderBy(asc(auditLog.createdAt), asc(auditLog.id)),
    ]);
    return {
      actionsByYou: byYou.map((a) => ({
        id: a.id,
        action: a.action,
        targetType: a.targetType,
        targetId: a.targetId,
        ip: a.ip,
        createdAt: a.createdAt.toISOString(),
      })),
      // Who on the staff acted is not part of the person's data; what changed about them is.
      entriesAboutYou: aboutYou.map((a) => ({ id: a.id, action: a.action, before: a.before, after: a.after, createdAt: a.createdAt.toISOString() })),
    };
  },
  async erase(tx, subject) {
    const alias = pseudonymOf(subject.id);
    const mine = or(eq(auditLog.actorId, subject.id), aboutUser(subject.id))!;
    const replacements: Array<[string, string, SQL | undefined]> = [
      // An email is unique: scrub it wherever it appears.
      [subject.email, alias.email, undefined],
      // A username or name is scrubbed only where the entry is about or by this person.
      [subject.username, alias.username, mine],
      [subject.name, alias.name, mine],
    ];
    for (const [value, replacement, scope] of replacements) {
      if (!value) continue;
      const from = token(value);
      const to = token(replacement);
      const hit = or(sql`strpos(${auditLog.before}::text, ${from}) > 0`, sql`strpos(${auditLog.after}::text, ${from}) > 0`)!;
      await tx
        .update(auditLog)
        .set({
          before: sql`replace(${auditLog.before}::text, ${from}, ${to})::jsonb`,
          after: sql`replace(${auditLog.after}::text, ${from}, ${to})::jsonb`,
        })
        .where(scope ? and(scope, hit) : hit);
    }
    await tx.update(auditLog).set({ ip: null }).where(eq(auditLog.actorId, subject.id));
  },
};
