import { afterCommit } from '../../db/after-commit.ts';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { drawDropWinners } from '../../../shared/drop-draw.ts';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { dropEntries, dropPrizes, dropTemplates, dropWinners, drops } from '../../db/schema/drops.ts';
import type { Deps } from '../../deps.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { audit } from '../audit/service.ts';
import { isBanActive } from '../auth/auth-rules.ts';
import { newServerSeed, nodeFair, sha256HexSync } from '../fairness/crypto.ts';
import { awardReserved, releaseReserved } from '../inventory/service.ts';
import { notify, notifyDropStarting } from '../notifications/service.ts';
import { createDrop } from './service.ts';

/**
 * A drop's life (ADR 0012): scheduled → open → drawing → closed. Each step is one conditional
 * UPDATE of the drop row on its current status, so however many processes (or duplicate job runs)
 * attempt a step, one does it and the others find nothing to do. The draw itself runs under the
 * row lock and only while the row says 'drawing': a drop is drawn once.
 */


/** Opens every scheduled drop whose time has come: a fresh secret seed, its SHA-256 published. */
export async function openDueDrops(deps: Deps): Promise<string[]> {
  const due = await deps.db
    .select({ id: drops.id })
    .from(drops)
    .where(and(eq(drops.status, 'scheduled'), lte(drops.opensAt, sql`now()`)))
    .orderBy(asc(drops.opensAt))
    .limit(100);
  const opened: string[] = [];
  for (const { id } of due) {
    const seed = newServerSeed();
    // The open and everyone's "drop starting" notification commit together (or neither).
    const row = await deps.db.transaction(async (tx) => {
      const [r] = await tx
        .update(drops)
        .set({ status: 'open', seed, commitment: sha256HexSync(seed), updatedAt: sql`now()` })
        .where(and(eq(drops.id, id), eq(drops.status, 'scheduled'), lte(drops.opensAt, sql`now()`)))
        .returning({ id: drops.id, commitment: drops.commitment, title: drops.title, closesAt: drops.closesAt });
      if (!r) return null;
      await notifyDropStarting(deps, tx, { dropId: r.id, dropTitle: r.title, closesAt: r.closesAt.toISOString() });
      await afterCommit(tx, { topic: 'public', type: 'drop.opened', data: { dropId: id } });
      return r;
    });
    if (!row) continue;
    opened.push(id);
    deps.log.info('drop opened', { dropId: id });
  }
  return opened;
}

/**
 * open → drawing for every drop past its close. The UPDATE takes each row lock, so it waits for
 * entries in flight (they hold a share lock on the row) and no entry lands after it: the list is
 * frozen from here.
 */
export async function closeDueDrops(deps: Deps): Promise<string[]> {
  const rows = await deps.db
    .update(drops)
    .set({ status: 'drawing', updatedAt: sql`now()` })
    .where(and(eq(drops.status, 'open'), lte(drops.closesAt, sql`now()`)))
    .returning({ id: drops.id });
  await afterCommit(deps.db, rows.map(({ id }) => ({ topic: 'public' as const, type: 'drop.drawing', data: { dropId: id } })));
  return rows.map((r) => r.id);
}

interface Won {
  userId: string;
  email: string;
  username: string;
  place: number;
  ownedCardId: string;
  cardName: string;
}

/**
 * Draws a drop that is 'drawing', in one transaction under its row lock: freezes the entry list
 * (entries of accounts suspended or closed by now are left out), draws by commit–reveal, puts each
 * prize in its winner's vault from the drop's reservation, returns the prizes nobody won to stock,
 * and publishes the seed. Null when the drop is not (any more) waiting for its draw.
 */
export async function drawDrop(deps: Deps, dropId: string): Promise<{ winners: number; entries: number } | null> {
  const result = await deps.db.transaction(async (tx) => {
    const locked = rowsOf<{ id: string }>(await tx.execute(sql`select id from ${drops} where id = ${dropId}::uuid and status = 'drawing' for update`));
    if (locked.length === 0) return null;
    const [drop] = await tx.select().from(drops).where(eq(drops.id, dropId));
    if (!drop || drop.status !== 'drawing' || !drop.seed) return null;

    const entries = await tx
      .select({ id: dropEntries.id, publicId: dropEntries.publicId, userId: dropEntries.userId, banned: user.banned, banExpires: user.banExpires, deletedAt: user.deletedAt, email: user.email, username: user.username })
      .from(dropEntries)
      .innerJoin(user, eq(user.id, dropEntries.userId))
      .where(eq(dropEntries.dropId, dropId));
    const now = Date.now();
    const inDraw = entries.filter((e) => !e.deletedAt && !isBanActive({ banned: e.banned, banExpires: e.banExpires }, now));
    if (inDraw.length) {
      await tx.update(dropEntries).set({ inDraw: true }).where(inArray(dropEntries.id, inDraw.map((e) => e.id)));
    }
    const byPublic = new Map(inDraw.map((e) => [e.publicId, e]));
    const draw = await drawDropWinners(nodeFair, { seed: drop.seed, entryIds: inDraw.map((e) => e.publicId), winners: drop.winnerCount });

    // Prize copies in order: place 0 takes the first copy of the first prize card, and so on.
    const prizes = await tx.select().from(dropPrizes).where(eq(dropPrizes.dropId, dropId)).orderBy(asc(dropPrizes.position));
    const units = prizes.flatMap((p) => Array.from({ length: p.quantity }, () => p.cardId));
    const won: Won[] = [];
    const ctx = { actorId: null, referenceType: 'drop', referenceId: dropId };
    for (const w of draw.winners) {
      const entry = byPublic.get(w.entryId)!;
      const cardId = units[w.place]!;
      const copy = await awardReserved(tx, { ...ctx, cardId, ownerId: entry.userId });
      await tx.insert(dropWinners).values({ dropId, place: w.place, entryId: entry.id, userId: entry.userId, cardId, ownedCardId: copy.ownedCardId });
      won.push({ userId: entry.userId, email: entry.email, username: entry.username, place: w.place, ownedCardId: copy.ownedCardId, cardName: copy.card.name });
      // Inbox and/or mail per the winner's drop_won preference, committed with the prize.
      await notify(deps, tx, entry.userId, 'drop_won', { dropId, dropTitle: drop.title, cardName: copy.card.name }, { dedupeKey: `drop-won:${dropId}` });
    }
    const left = new Map<string, number>();
    for (const cardId of units.slice(draw.winners.length)) left.set(cardId, (left.get(cardId) ?? 0) + 1);
    await releaseReserved(tx, [...left].map(([cardId, quantity]) => ({ cardId, quantity })), ctx);

    await tx
      .update(drops)
      .set({ status: 'closed', entryListHash: draw.entryListHash, entryCount: inDraw.length, drawnAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(drops.id, dropId), eq(drops.status, 'drawing')));
    await audit(tx, {
      actorId: null,
      action: 'drop.draw',
      targetType: 'drop',
      targetId: dropId,
      after: { entries: inDraw.length, left_out: entries.length - inDraw.length, entryListHash: draw.entryListHash, winners: draw.winners.map((w) => w.entryId), returnedToStock: units.length - draw.winners.length },
    });
    await afterCommit(tx, [
      { topic: 'public', type: 'drop.closed', data: { dropId, entryCount: inDraw.length, winners: won.length } },
      ...won.map((w) => ({ topic: `user:${w.userId}` as const, type: 'drop.won', data: { dropId, place: w.place, ownedCardId: w.ownedCardId } })),
    ]);
    return { drop, won, entries: inDraw.length };
  });
  if (!result) return null;

  const { won, entries } = result;
  deps.log.info('drop drawn', { dropId, entries, winners: won.length });
  return { winners: won.length, entries };
}

/** Draws every drop waiting in 'drawing' (closed by this or another process, or before a crash). */
export async function drawPendingDrops(deps: Deps): Promise<number> {
  const pending = await deps.db.select({ id: drops.id }).from(drops).where(eq(drops.status, 'drawing')).orderBy(asc(drops.closesAt)).limit(100);
  let drawn = 0;
  for (const { id } of pending) if (await drawDrop(deps, id)) drawn++;
  return drawn;
}

const MINUTE = 60_000;

/** The next occurrences (today's and tomorrow's, UTC) of a recurring drop that have not closed. */
export function occurrences(t: { openTime: string; durationMinutes: number }, now: Date): Array<{ opensAt: Date; closesAt: Date }> {
  const [h, m] = t.openTime.split(':').map(Number) as [number, number];
  const out: Array<{ opensAt: Date; closesAt: Date }> = [];
  for (const dayOffset of [0, 1]) {
    const opensAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + dayOffset, h, m));
    const closesAt = new Date(opensAt.getTime() + t.durationMinutes * MINUTE);
    if (closesAt > now) out.push({ opensAt, closesAt });
  }
  return out;
}

/**
 * Schedules today's and tomorrow's drop of every active recurring template (once each: the
 * (template, opens_at) unique index decides between processes). A template whose prizes are out
 * of stock is skipped with a warning and tried again next run.
 */
export async function scheduleTemplateDrops(deps: Deps, now = new Date()): Promise<number> {
  const templates = await deps.db.select().from(dropTemplates).where(eq(dropTemplates.active, true));
  let made = 0;
  for (const t of templates) {
    for (const o of occurrences(t, now)) {
      const exists = await deps.db.select({ id: drops.id }).from(drops).where(and(eq(drops.templateId, t.id), eq(drops.opensAt, o.opensAt)));
      if (exists.length) continue;
      try {
        await deps.db.transaction(async (tx) => {
          // Serialises the schedulers of one occurrence; the unique index is the backstop.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext('packvault:drop-template'), hashtext(${`${t.id}@${o.opensAt.toISOString()}`}))`);
          const again = await tx.select({ id: drops.id }).from(drops).where(and(eq(drops.templateId, t.id), eq(drops.opensAt, o.opensAt)));
          if (again.length) return;
          await createDrop(
            tx as DbOrTx,
            { actorId: null, ip: null },
            {
              title: t.title,
              description: t.description,
              imageKey: t.imageKey,
              opensAt: o.opensAt.toISOString(),
              closesAt: o.closesAt.toISOString(),
              winnerCount: t.winnerCount,
              requireVerifiedEmail: t.requireVerifiedEmail,
              minAccountAgeDays: t.minAccountAgeDays,
              prizes: t.prizes,
            },
            t.id,
          );
          made++;
        });
      } catch (err) {
        deps.log.warn('recurring drop not scheduled', { templateId: t.id, opensAt: o.opensAt.toISOString(), err: (err as Error).message });
      }
    }
  }
  return made;
}

/** Every due step, in order. Safe to run from any number of processes at once. */
export async function runDropTransitions(deps: Deps): Promise<{ scheduled: number; opened: number; closed: number; drawn: number }> {
  const scheduled = await scheduleTemplateDrops(deps);
  const opened = (await openDueDrops(deps)).length;
  const closed = (await closeDueDrops(deps)).length;
  const drawn = await drawPendingDrops(deps);
  return { scheduled, opened, closed, drawn };
}

/** Seconds late at most: drops open and close on the job's tick (ADR 0012). */
export const DROPS_TICK_MS = 5_000;

export function dropsJob(): Job {
  return {
    name: 'drops',
    everyMs: DROPS_TICK_MS,
    async run(deps) {
      const r = await runDropTransitions(deps);
      if (r.scheduled || r.opened || r.closed || r.drawn) deps.log.info('drops job', r);
    },
  };
}

