import { asc, eq } from 'drizzle-orm';
import { notificationPreferences, notifications } from '../../db/schema/notifications.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/** The inbox and the channel choices: nothing the business needs once the account is gone. */
export const notificationsPersonalData: PersonalDataSection = {
  name: 'notifications',
  tables: [
    { table: notifications, keyedBy: ['user_id'], onDelete: 'delete', why: 'messages to the person; no use once the account is closed' },
    // `email` is the mail channel switch (a boolean), named like an address column.
    { table: notificationPreferences, keyedBy: ['user_id', 'email'], onDelete: 'delete', why: 'their settings' },
  ],
  async export(db, { id }) {
    const [items, prefs] = await Promise.all([
      db
        .select({ id: notifications.id, kind: notifications.kind, title: notifications.title, body: notifications.body, link: notifications.link, readAt: notifications.readAt, createdAt: notifications.createdAt })
        .from(notifications)
        .where(eq(notifications.userId, id))
        .orderBy(asc(notifications.createdAt)),
      db
        .select({ kind: notificationPreferences.kind, inApp: notificationPreferences.inApp, email: notificationPreferences.email, thresholdCents: notificationPreferences.thresholdCents, updatedAt: notificationPreferences.updatedAt })
        .from(notificationPreferences)
        .where(eq(notificationPreferences.userId, id))
        .orderBy(asc(notificationPreferences.kind)),
    ]);
    return {
      notifications: items.map((n) => ({ ...n, readAt: n.readAt?.toISOString() ?? null, createdAt: n.createdAt.toISOString() })),
      preferences: prefs.map((p) => ({ ...p, updatedAt: p.updatedAt.toISOString() })),
    };
  },
  async erase(tx, { id }) {
    await tx.delete(notifications).where(eq(notifications.userId, id));
    await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, id));
  },
};
