import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { user } from '../db/schema/auth.ts';
import { cardClasses, cards } from '../db/schema/catalog.ts';
import { drops } from '../db/schema/drops.ts';
import type { Deps } from '../deps.ts';
import { DEMO_USER_EMAIL } from '../modules/auth/demo-accounts.ts';
import { closeDueDrops, drawPendingDrops, openDueDrops } from '../modules/drops/lifecycle.ts';
import { createDrop } from '../modules/drops/service.ts';
import { enterDrop } from '../modules/drops/entering.ts';
import type { SeedStep } from './index.ts';

const HOUR = 3_600_000;

/** A Rare-or-better card with stock to spare, for a demo prize. */
async function prizeCard(deps: Deps, className: string) {
  const [c] = await deps.db
    .select({ id: cards.id })
    .from(cards)
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(and(eq(cardClasses.name, className), gte(cards.stock, 3), eq(cards.active, true)))
    .orderBy(desc(cards.stock))
    .limit(1);
  return c?.id ?? null;
}

/**
 * Demo daily drops: one drawn (the demo user entered and won, so its proof and winners list have
 * something to show) and one open for a day. Idempotent: each is made only when no drop of its
 * kind exists.
 */
async function seedDrops(deps: Deps) {
  const statuses = new Set((await deps.db.selectDistinct({ status: drops.status }).from(drops)).map((r) => r.status));
  const [demo] = await deps.db.select({ id: user.id }).from(user).where(eq(user.email, DEMO_USER_EMAIL));
  const sys = { actorId: null, ip: null };

  if (!statuses.has('closed')) {
    const cardId = await prizeCard(deps, 'Rare');
    if (cardId) {
      const id = await deps.db.transaction((tx) =>
        createDrop(tx, sys, {
          title: 'Demo drop: a Rare for one lucky entrant',
          description: 'A drawn demo drop: its proof below checks in your browser.',
          imageKey: null,
          opensAt: new Date(Date.now() - 1000).toISOString(),
          closesAt: new Date(Date.now() + HOUR).toISOString(),
          winnerCount: 1,
          requireVerifiedEmail: true,
          minAccountAgeDays: 0,
          prizes: [{ cardId, quantity: 1 }],
        }),
      );
      await openDueDrops(deps);
      if (demo) await enterDrop(deps, id, demo.id).catch((err: unknown) => deps.log.warn('demo drop entry refused', { err: (err as Error).message }));
      // Seed only: as if its day had passed.
      await deps.db.execute(sql`update drops set opens_at = now() - interval '1 day', closes_at = now() - interval '1 minute' where id = ${id}::uuid`);
      await closeDueDrops(deps);
      await drawPendingDrops(deps);
    }
  }

  if (!statuses.has('open') && !statuses.has('scheduled')) {
    const cardId = (await prizeCard(deps, 'Epic')) ?? (await prizeCard(deps, 'Rare'));
    if (cardId) {
      await deps.db.transaction((tx) =>
        createDrop(tx, sys, {
          title: 'Daily drop',
          description: 'Free to enter, one entry each. Drawn when it closes, with a proof anyone can check.',
          imageKey: null,
          opensAt: new Date(Date.now() - 1000).toISOString(),
          closesAt: new Date(Date.now() + 24 * HOUR).toISOString(),
          winnerCount: 1,
          requireVerifiedEmail: true,
          minAccountAgeDays: 0,
          prizes: [{ cardId, quantity: 1 }],
        }),
      );
      await openDueDrops(deps);
    }
  }
}

export const dropsSeedStep: SeedStep = { name: 'drops', run: seedDrops };
