import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../lib/paths.ts';
import type { BusEvent } from '../modules/realtime/bus.ts';
import { createTestContext, type TestContext } from '../test/harness.ts';
import { afterCommit, type CommitEvent } from './after-commit.ts';

let t: TestContext;
const seen: BusEvent[] = [];
beforeAll(async () => {
  t = await createTestContext();
  t.deps.bus.subscribe((e) => {
    if (e.type.startsWith('test.')) seen.push(e);
  });
});
afterAll(() => t.close());

let n = 0;
/** A test event with a marker of its own, and a way to ask whether the bus has delivered it. */
function marked(type = 'test.event', key?: string) {
  const marker = `m${++n}`;
  const event: CommitEvent = { topic: 'public', type, data: { marker }, ...(key ? { key } : {}) };
  const arrived = () => seen.filter((e) => (e.data as { marker?: string }).marker === marker);
  return { event, marker, arrived };
}
/** Long enough for an in-process delivery and a NOTIFY's round trip. */
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('afterCommit', () => {
  it('sends an event only once its transaction has committed', async () => {
    const e = marked();
    await t.deps.db.transaction(async (tx) => {
      await afterCommit(tx, e.event);
      await tx.execute(sql`select 1`);
      await settle();
      expect(e.arrived()).toEqual([]);
    });
    await vi.waitFor(() => expect(e.arrived()).toHaveLength(1));
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const e = marked();
    const hook = vi.fn();
    await expect(
      t.deps.db.transaction(async (tx) => {
        await afterCommit(tx, e.event);
        await afterCommit(tx, hook);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await settle();
    expect(e.arrived()).toEqual([]);
    expect(hook).not.toHaveBeenCalled();
  });

  it('drops what a rolled-back savepoint queued and keeps what a released one did', async () => {
    const kept = marked();
    const dropped = marked();
    await t.deps.db.transaction(async (tx) => {
      await tx.transaction(async (sp) => afterCommit(sp, kept.event));
      await tx
        .transaction(async (sp) => {
          await afterCommit(sp, dropped.event);
          throw new Error('inner');
        })
        .catch(() => {});
    });
    await vi.waitFor(() => expect(kept.arrived()).toHaveLength(1));
    await settle();
    expect(dropped.arrived()).toEqual([]);
  });

  it('keeps the last event of a key (a balance) and the order of the rest', async () => {
    const first = marked('test.balance', 'balance:u1');
    const other = marked('test.other');
    const last = marked('test.balance', 'balance:u1');
    await t.deps.db.transaction(async (tx) => {
      await afterCommit(tx, first.event);
      await afterCommit(tx, other.event);
      await afterCommit(tx, last.event);
    });
    await vi.waitFor(() => expect(last.arrived()).toHaveLength(1));
    expect(first.arrived()).toEqual([]);
    expect(seen.indexOf(other.arrived()[0]!)).toBeLessThan(seen.indexOf(last.arrived()[0]!));
  });

  it('runs hooks after the commit, and a failing hook does not fail the committed transaction', async () => {
    const order: string[] = [];
    const out = await t.deps.db.transaction(async (tx) => {
      await afterCommit(tx, () => {
        order.push('hook');
        throw new Error('hook failed');
      });
      await afterCommit(tx, () => {
        order.push('second hook');
      });
      order.push('body');
      return 'done';
    });
    expect(out).toBe('done');
    expect(order).toEqual(['body', 'hook', 'second hook']);
  });

  it('outside a transaction the change has committed: the event goes now', async () => {
    const e = marked();
    await afterCommit(t.deps.db, e.event);
    await vi.waitFor(() => expect(e.arrived()).toHaveLength(1));
  });

  it('refuses a handle it does not know (a transaction it could not see commit)', async () => {
    await expect(afterCommit({} as never, marked().event)).rejects.toThrow(/not a handle/);
  });

  it('withCommit: sent with the commit, never for a rollback', async () => {
    const ok = marked();
    const rolled = marked();
    await t.deps.db.transaction(async (tx) => afterCommit(tx, ok.event, { withCommit: true }));
    await expect(
      t.deps.db.transaction(async (tx) => {
        await afterCommit(tx, rolled.event, { withCommit: true });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await vi.waitFor(() => expect(ok.arrived()).toHaveLength(1));
    await settle();
    expect(rolled.arrived()).toEqual([]);
  });

  it('withCommit reaches the other processes even when the committing one dies right after (PostgreSQL)', async (ctx) => {
    if (t.deps.dbh.kind !== 'postgres') ctx.skip();
    const marker = `child-${Date.now()}`;
    const [row] = await t.deps.dbh.query<{ name: string }>(sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src/server/test/after-commit-child.ts'), url.toString(), marker], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const mine = () => seen.filter((e) => (e.data as { marker?: string }).marker === marker).map((e) => e.type);
    await vi.waitFor(() => expect(mine()).toContain('test.with-commit'), { timeout: 10_000 });
  });
});
