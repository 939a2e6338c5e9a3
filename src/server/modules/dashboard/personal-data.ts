import { asc, eq } from 'drizzle-orm';
import { dashboardActiveDaily, dashboardActiveHourly, dashboardUserDays } from '../../db/schema/dashboard.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * The dashboard's "who was active when" rollups: the hours and days a person signed in, deposited,
 * bought or opened. Kept on deletion: they hold only the user id, which names no one once the user
 * row is pseudonymised, and dropping them would rewrite past periods' active-user counts.
 */
export const dashboardPersonalData: PersonalDataSection = {
  name: 'activity',
  tables: [
    { table: dashboardActiveHourly, keyedBy: ['user_id'], onDelete: 'keep', why: 'active-user counts of past periods' },
    { table: dashboardActiveDaily, keyedBy: ['user_id'], onDelete: 'keep', why: 'active-user counts of past periods' },
    // The same days as dashboard_active_daily, one array per user (exported there).
    { table: dashboardUserDays, keyedBy: ['user_id'], onDelete: 'keep', why: 'active-user counts of past periods' },
  ],
  async export(db, { id }) {
    const days = await db
      .select({ day: dashboardActiveDaily.day })
      .from(dashboardActiveDaily)
      .where(eq(dashboardActiveDaily.userId, id))
      .orderBy(asc(dashboardActiveDaily.day));
    const hours = await db
      .select({ hour: dashboardActiveHourly.hour })
      .from(dashboardActiveHourly)
      .where(eq(dashboardActiveHourly.userId, id))
      .orderBy(asc(dashboardActiveHourly.hour));
    return { activeDays: days.map((r) => r.day.toISOString().slice(0, 10)), activeHours: hours.map((r) => r.hour.toISOString()) };
  },
  async erase() {
    // Kept (see above): the user row's pseudonymisation is what unlinks them.
  },
};
