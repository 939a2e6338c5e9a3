import { asc, sql } from 'drizzle-orm';
import { mailMessages } from '../../db/schema/mail.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

const toSubject = (email: string) => sql`lower(${mailMessages.to}) = lower(${email})`;

/** Mail sent to the address. The bodies carry sign-in/reset links, so the export lists, not copies. */
export const mailPersonalData: PersonalDataSection = {
  name: 'mail',
  tables: [{ table: mailMessages, keyedBy: ['to'], onDelete: 'delete', why: 'no need once the account is closed' }],
  async export(db, { email }) {
    const rows = await db
      .select({ id: mailMessages.id, kind: mailMessages.kind, subject: mailMessages.subject, status: mailMessages.status, createdAt: mailMessages.createdAt, sentAt: mailMessages.sentAt })
      .from(mailMessages)
      .where(toSubject(email))
      .orderBy(asc(mailMessages.createdAt));
    return {
      messages: rows.map((m) => ({
        id: m.id,
        kind: m.kind,
        subject: m.subject,
        status: m.status,
        createdAt: m.createdAt.toISOString(),
        sentAt: m.sentAt?.toISOString() ?? null,
      })),
    };
  },
  async erase(tx, { email }) {
    await tx.delete(mailMessages).where(toSubject(email));
  },
};
