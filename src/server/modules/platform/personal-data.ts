import { asc, or, sql } from 'drizzle-orm';
import { rateLimits } from '../../db/schema/platform.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Rate-limit counters whose key names the person: `…:email:<email>` (auth) or `…:<user id>`.
 * The value must be a whole `:`-separated segment of the key, so another address that merely
 * contains this one (`xa@b.c` vs `a@b.c`) is never touched.
 */
function keyNames(value: string) {
  const v = value.toLowerCase();
  const seg = `:${v}`;
  return sql`(right(lower(${rateLimits.key}), ${seg.length}) = ${seg} or strpos(lower(${rateLimits.key}), ${`${seg}:`}) > 0)`;
}
const aboutSubject = (id: string, email: string) => or(keyNames(email), keyNames(id))!;

export const platformPersonalData: PersonalDataSection = {
  name: 'rateLimits',
  tables: [{ table: rateLimits, keyedBy: ['key'], onDelete: 'delete', why: 'short-lived counters' }],
  async export(db, { id, email }) {
    const rows = await db.select().from(rateLimits).where(aboutSubject(id, email)).orderBy(asc(rateLimits.key));
    return { counters: rows.map((r) => ({ key: r.key, count: r.count, windowStart: r.windowStart.toISOString() })) };
  },
  async erase(tx, { id, email }) {
    await tx.delete(rateLimits).where(aboutSubject(id, email));
  },
};
