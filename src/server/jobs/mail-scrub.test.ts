import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '../db/schema/mail.ts';
import { createLogger } from '../lib/logger.ts';
import { createTestContext, type TestContext } from '../test/harness.ts';
import { pruneAll } from './prune.ts';

/**
 * Issue 39: mail_messages keeps no body and no live link once a mail is sent, nor once a stored
 * (dev mailbox) or failed mail's links have expired; pending mail keeps both (the outbox retries).
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const mail = (status: 'pending' | 'sent' | 'stored' | 'failed', ageHours: number) =>
  t.deps.db
    .insert(mailMessages)
    .values({
      to: `${status}-${ageHours}@example.test`,
      subject: 'Reset your password',
      text: 'Open http://x.test/api/auth/reset-password/TOKEN-TEXT',
      html: '<a href="http://x.test/api/auth/reset-password/TOKEN-HTML">Reset</a>',
      kind: 'reset-password',
      links: ['http://x.test/api/auth/reset-password/TOKEN-LINK'],
      status,
      createdAt: sql`now() - make_interval(hours => ${ageHours})`,
    })
    .returning({ id: mailMessages.id })
    .then((r) => r[0]!.id);

describe('the prune job empties mail bodies and links', () => {
  it('sent now, stored and failed after a day; pending never; the prune log shows it', async () => {
    const ids = {
      sent: await mail('sent', 0),
      storedNew: await mail('stored', 1),
      storedOld: await mail('stored', 30),
      failedOld: await mail('failed', 30),
      pending: await mail('pending', 30),
    };
    const lines: Array<Record<string, unknown>> = [];
    t.deps.log = createLogger('info', {}, (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
    const results = await pruneAll(t.deps);
    const row = async (id: string) => (await t.deps.db.select().from(mailMessages).where(eq(mailMessages.id, id)))[0]!;
    for (const id of [ids.sent, ids.storedOld, ids.failedOld]) {
      const r = await row(id);
      expect(JSON.stringify([r.text, r.html, r.links])).not.toMatch(/TOKEN/);
      expect(r.to).toMatch(/@example\.test$/);
    }
    for (const id of [ids.storedNew, ids.pending]) expect((await row(id)).links).toHaveLength(1);
    expect(results.find((r) => r.table.startsWith('mail_messages'))).toMatchObject({ deleted: 3 });
    expect(lines.find((l) => l.msg === 'pruned' && String(l.table).startsWith('mail_messages'))).toMatchObject({ deleted: 3 });
    // A second run has nothing left to empty.
    expect((await pruneAll(t.deps)).find((r) => r.table.startsWith('mail_messages'))).toMatchObject({ deleted: 0 });
  });
});
