import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Slab } from '../../../shared/contracts/catalog.ts';
import { slabFieldErrors, type GradingCompany, type SlabState } from '../../../shared/contracts/grading.ts';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { cardSlabs } from '../../db/schema/inventory.ts';
import { cards } from '../catalog/tables.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { changeStock, type MoveContext } from './service.ts';
import { plural } from '../../../shared/words.ts';

/**
 * Graded slabs (issue 38, ADR 0023): one row per physical graded copy, written only here (the
 * inventory module), always with the stock and the owned copy it belongs to. A graded card's stock
 * is the number of its slabs `in_stock` (reconcileStock checks it); drawing a graded card assigns
 * one specific slab to the new copy in the same transaction, and every later move of the copy
 * (sell back, revoke, ship, deliver, lose) moves its slab with it (service.ts `moveCopies`).
 */

type SlabRow = typeof cardSlabs.$inferSelect;

export function slabDto(r: SlabRow): Slab {
  return {
    id: r.id,
    cardId: r.cardId,
    grader: r.grader,
    grade: Number(r.grade),
    certNumber: r.certNumber,
    certMissing: r.certMissing,
    frontPhotoKey: r.frontPhotoKey,
    backPhotoKey: r.backPhotoKey,
    state: r.state,
    ownedCardId: r.ownedCardId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A card's slabs: in the shop first (in stock, held, reserved), then the others; oldest first. */
export async function listSlabs(db: DbOrTx, cardId: string): Promise<Slab[]> {
  const rows = await db
    .select()
    .from(cardSlabs)
    .where(eq(cardSlabs.cardId, cardId))
    .orderBy(sql`${cardSlabs.ownedCardId} is not null`, asc(cardSlabs.createdAt), asc(cardSlabs.id));
  return rows.map(slabDto);
}

export const certOnUngraded = () =>
  new AppError(400, 'cert_on_ungraded', 'This card is not graded: give it a grading company and grade before adding slabs or certificates.', {
    certNumber: ['Only a graded card has slabs and certificates. Pick its grading company and grade first.'],
  });

export const certTaken = (field = 'certNumber') =>
  new AppError(409, 'cert_taken', 'This certificate is already on another slab of the same grading company.', {
    [field]: ['Another slab of this grading company already has this certificate number.'],
  });

function rethrowCertTaken(err: unknown, field?: string): never {
  if (isUniqueViolation(err)) throw certTaken(field);
  throw err;
}

export interface NewSlab {
  grader: GradingCompany;
  grade: number;
  certNumber: string;
  frontPhotoKey: string | null;
  backPhotoKey: string | null;
}

/**
 * Checks slabs to add to a graded card, defaulting grader and grade to the card's listing. Field
 * errors are named `slabs.<i>.<field>` (`prefix`); duplicates inside the batch are 409 cert_taken.
 */
export function resolveNewSlabs(
  card: { gradingCompany: GradingCompany | null; grade: number | null },
  input: ReadonlyArray<{ grader?: GradingCompany | undefined; grade?: number | undefined; certNumber: string | null; frontPhotoKey: string | null; backPhotoKey: string | null }>,
  prefix: (i: number) => string = (i) => `slabs.${i}.`,
): NewSlab[] {
  if (!card.gradingCompany || card.grade === null) throw certOnUngraded();
  const fields: Record<string, string[]> = {};
  const out: NewSlab[] = [];
  const seen = new Map<string, number>();
  input.forEach((s, i) => {
    const grader = s.grader ?? card.gradingCompany!;
    const grade = s.grade ?? card.grade!;
    for (const [f, msgs] of Object.entries(slabFieldErrors({ grader, grade, certNumber: s.certNumber }))) fields[`${prefix(i)}${f}`] = msgs;
    const key = `${grader}|${s.certNumber}`;
    if (s.certNumber && seen.has(key)) throw certTaken(`${prefix(i)}certNumber`);
    seen.set(key, i);
    out.push({ grader, grade, certNumber: s.certNumber ?? '', frontPhotoKey: s.frontPhotoKey, backPhotoKey: s.backPhotoKey });
  });
  if (Object.keys(fields).length) throw badRequest('Some slabs need attention.', fields);
  return out;
}

/**
 * New slabs of a graded card, in stock at once: inserted and counted into its stock (one movement
 * of `reason`, +n) in this transaction. 409 cert_taken when a certificate is on another slab.
 */
export async function addSlabs(
  tx: DbOrTx,
  cardId: string,
  slabs: readonly NewSlab[],
  reason: 'initial' | 'admin_adjust',
  ctx: MoveContext,
): Promise<{ slabs: Slab[]; stockAfter: number }> {
  if (slabs.length === 0) throw new Error('addSlabs needs at least one slab');
  const rows = await tx
    .insert(cardSlabs)
    .values(slabs.map((s) => ({ cardId, ...s, certMissing: false, state: 'in_stock' as const })))
    .returning()
    .catch((err) => rethrowCertTaken(err));
  const moved = await changeStock(tx, {
    cardId,
    delta: slabs.length,
    reason,
    actorId: ctx.actorId,
    referenceType: 'slabs',
    referenceId: rows.length === 1 ? rows[0]!.id : null,
    note: ctx.note ?? (slabs.length === 1 ? `Slab ${slabs[0]!.grader} ${slabs[0]!.certNumber} added` : `${plural(slabs.length, 'slab')} added`),
  });
  if (!moved) throw new Error('stock of new slabs did not move');
  return { slabs: rows.map(slabDto), stockAfter: moved.stockAfter };
}

/**
 * Edits a slab's grader, grade, certificate or photos. Filling in the missing certificate of a
 * held slab puts it into stock (+1, in this transaction); a certificate cannot be taken away.
 */
export async function updateSlab(
  tx: DbOrTx,
  cardId: string,
  slabId: string,
  patch: { grader?: GradingCompany | undefined; grade?: number | undefined; certNumber?: string | null | undefined; frontPhotoKey?: string | null | undefined; backPhotoKey?: string | null | undefined },
  ctx: MoveContext,
): Promise<{ before: Slab; after: Slab; stockAfter: number | null }> {
  const [row] = await tx
    .select()
    .from(cardSlabs)
    .where(and(eq(cardSlabs.id, slabId), eq(cardSlabs.cardId, cardId)))
    .for('update');
  if (!row) throw notFound('No such slab on this card.');
  const before = slabDto(row);
  const merged = {
    grader: patch.grader ?? before.grader,
    grade: patch.grade ?? before.grade,
    certNumber: patch.certNumber !== undefined ? patch.certNumber : before.certNumber,
  };
  if (before.certNumber && !merged.certNumber) {
    throw badRequest('A slab keeps its certificate; correct it instead of clearing it.', { certNumber: ['Enter the certificate number printed on the slab.'] });
  }
  const fields = slabFieldErrors(merged, { certOptional: before.certMissing });
  if (Object.keys(fields).length) throw badRequest('Some fields need attention.', fields);
  const filled = before.certMissing && merged.certNumber !== null;
  const state: SlabState = filled && before.state === 'held' ? 'in_stock' : before.state;
  const [updated] = await tx
    .update(cardSlabs)
    .set({
      ...merged,
      certMissing: merged.certNumber === null,
      ...(patch.frontPhotoKey !== undefined ? { frontPhotoKey: patch.frontPhotoKey } : {}),
      ...(patch.backPhotoKey !== undefined ? { backPhotoKey: patch.backPhotoKey } : {}),
      state,
      updatedAt: new Date(),
    })
    .where(eq(cardSlabs.id, slabId))
    .returning()
    .catch((err) => rethrowCertTaken(err));
  let stockAfter: number | null = null;
  if (state === 'in_stock' && before.state === 'held') {
    const moved = await changeStock(tx, {
      cardId,
      delta: 1,
      reason: 'admin_adjust',
      actorId: ctx.actorId,
      referenceType: 'slab',
      referenceId: slabId,
      note: `Certificate ${merged.grader} ${merged.certNumber} filled in: slab back in stock`,
    });
    stockAfter = moved?.stockAfter ?? null;
  }
  return { before, after: slabDto(updated!), stockAfter };
}

// ───────────────────────── a new copy takes a slab ─────────────────────────

/**
 * The CTE `<name>` that gives each new copy of a graded card one of that card's slabs in stock
 * (returning the slab's id, owned_card_id and card_id), and `<name>_need`, the number of new
 * copies of graded cards. The caller checks that the two counts agree (else: refuse, roll back).
 * `copies` is a relation with columns `id` (the owned card) and `card_id`; `need` may count the
 * graded copies from what the caller has at hand (a `select count(*) as n`), and `gate` holds the
 * slab locks back until the caller's card locks are taken. Raw cards have no slab,
 * so for them this is one empty index probe per card (card_slabs_in_stock_idx).
 *
 * The slabs are locked in id order; FOR UPDATE re-checks a slab that a concurrent opening took in
 * the meantime and skips it, so two openings never take one slab (at worst this one finds too few
 * and is refused, then retried on a fresh read).
 */
export function assignSlabsCtes(p: { name: string; copies: SQL; cardIds: SQL; need?: SQL; gate?: SQL }): SQL {
  const n = (s: string) => sql.raw(`${p.name}${s}`);
  return sql`${n('_free')} as materialized (
      select s.id, s.card_id from "card_slabs" s where s.card_id = any(${p.cardIds}) and s.state = 'in_stock'${p.gate ? sql` and ${p.gate}` : sql``}
      order by s.id for update
    ),
    ${n('_want')} as (
      select y.id, y.card_id, row_number() over (partition by y.card_id order by y.id) as rn
      from ${p.copies} y where y.card_id in (select card_id from ${n('_free')})
    ),
    ${n('_need')} as (
      ${p.need ?? sql`select count(*) as n from ${p.copies} y join "cards" c on c.id = y.card_id where c.id = any(${p.cardIds}) and c.grading_company is not null`}
    ),
    ${n('')} as (
      update "card_slabs" s set "state" = 'owned', "owned_card_id" = w.id, "updated_at" = now()
      from (select f.id, f.card_id, row_number() over (partition by f.card_id order by f.id) as rn from ${n('_free')} f) f
      join ${n('_want')} w on w.card_id = f.card_id and w.rn = f.rn
      where s.id = f.id
      returning s.id, s.owned_card_id, s.card_id, s.grader, s.grade, s.cert_number, s.front_photo_key, s.back_photo_key
    )`;
}

/** An assigned slab as JSON (AssignedSlab), from the rows of assignSlabsCtes aliased `s`. */
export const SLAB_JSON = sql.raw(`json_build_object('ownedCardId', s.owned_card_id, 'grader', s.grader, 'grade', s.grade, 'certNumber', s.cert_number,
        'frontPhotoKey', s.front_photo_key, 'backPhotoKey', s.back_photo_key)`);

/** Parses assigned slabs as a driver returns them (JSON text or parsed). */
export function assignedSlabs(raw: AssignedSlab[] | string | null | undefined): AssignedSlab[] {
  const list = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as AssignedSlab[];
  return list.map((s) => ({ ...s, grade: Number(s.grade) }));
}

/** What an owned copy's slab shows: its own grading and photos. */
export interface AssignedSlab {
  ownedCardId: string;
  grader: GradingCompany;
  grade: number;
  certNumber: string | null;
  frontPhotoKey: string | null;
  backPhotoKey: string | null;
}

/**
 * Gives each new copy of a graded card a slab, as one statement in the caller's transaction
 * (the general opening path, a grant, a drop prize), after the copies are written and their
 * cards' stock taken. Throws when a graded copy found no slab: stock and slabs disagree, and the
 * caller's transaction must roll back.
 */
export async function assignSlabs(tx: DbOrTx, copies: ReadonlyArray<{ id: string; cardId: string }>): Promise<AssignedSlab[]> {
  if (copies.length === 0) return [];
  const json = JSON.stringify(copies.map((c) => ({ id: c.id, card_id: c.cardId })));
  const ids = `{${[...new Set(copies.map((c) => c.cardId))].join(',')}}`;
  const res = await tx.execute(sql`
    with copies as (select * from json_to_recordset(${json}::json) as y(id uuid, card_id uuid)),
    ${assignSlabsCtes({ name: 'slab', copies: sql`copies`, cardIds: sql`${ids}::uuid[]` })}
    select (select n from slab_need) as need,
      (select coalesce(json_agg(${SLAB_JSON}), '[]'::json) from slab s) as slabs`);
  const [row] = rowsOf<{ need: string | number; slabs: AssignedSlab[] | string }>(res);
  const slabs = assignedSlabs(row!.slabs);
  if (slabs.length !== Number(row!.need)) {
    throw new AppError(409, 'sold_out', 'A graded card has no slab left in stock. Nothing was taken; try again.');
  }
  return slabs;
}

/** A copy's slab as the API shows it on a pulled card (PulledCard.slab). */
export function slabView(a: AssignedSlab) {
  return { grading: { company: a.grader, grade: a.grade, certNumber: a.certNumber }, frontPhotoKey: a.frontPhotoKey, backPhotoKey: a.backPhotoKey };
}

/** The slabs of owned copies (what a vault, a pull or an opening shows). */
export async function slabsOfCopies(db: DbOrTx, ownedCardIds: readonly string[]): Promise<Map<string, AssignedSlab>> {
  if (ownedCardIds.length === 0) return new Map();
  const rows = await db
    .select({
      ownedCardId: cardSlabs.ownedCardId,
      grader: cardSlabs.grader,
      grade: cardSlabs.grade,
      certNumber: cardSlabs.certNumber,
      frontPhotoKey: cardSlabs.frontPhotoKey,
      backPhotoKey: cardSlabs.backPhotoKey,
    })
    .from(cardSlabs)
    .where(sql`${cardSlabs.ownedCardId} = any(${`{${ownedCardIds.join(',')}}`}::uuid[])`);
  return new Map(rows.map((r) => [r.ownedCardId!, { ...r, ownedCardId: r.ownedCardId!, grade: Number(r.grade) }]));
}

// ───────────────────────── drops: reserve and release by count ─────────────────────────

/**
 * Moves `n` slabs of each graded card from one shop state to another (a daily drop's reservation
 * and its release), lowest ids first. Raw cards in `entries` are ignored. Throws when a graded
 * card lacks the slabs (stock and slabs disagree: the caller's transaction rolls back).
 */
export async function moveSlabsByCount(tx: DbOrTx, entries: ReadonlyMap<string, number>, from: 'in_stock' | 'reserved', to: 'in_stock' | 'reserved') {
  if (entries.size === 0) return;
  const json = JSON.stringify([...entries].map(([card_id, n]) => ({ card_id, n })));
  const res = await tx.execute(sql`
    with w as (select * from json_to_recordset(${json}::json) as w(card_id uuid, n integer)),
    graded as (select w.card_id, w.n from w join ${cards} c on c.id = w.card_id where c.grading_company is not null),
    free as materialized (
      select s.id, s.card_id, s.cert_missing from ${cardSlabs} s where s.card_id in (select card_id from graded) and s.state = ${from}::slab_state
      order by s.cert_missing, s.id for update
    ),
    pick as (
      select f.id, f.cert_missing from (select f.*, row_number() over (partition by f.card_id order by f.cert_missing, f.id) as rn from free f) f
      join graded g on g.card_id = f.card_id where f.rn <= g.n
    ),
    upd as (
      update ${cardSlabs} s set "state" = (case when ${to}::slab_state = 'in_stock' and p.cert_missing then 'held' else ${to} end)::slab_state, "updated_at" = now()
      from pick p where s.id = p.id returning s.id, s.card_id, s.state
    )
    select (select coalesce(sum(n), 0) from graded) as need, (select count(*) from upd) as moved,
      (select coalesce(json_agg(json_build_object('cardId', card_id)), '[]'::json) from upd where state = 'held') as held`);
  const [row] = rowsOf<{ need: string | number; moved: string | number; held: Array<{ cardId: string }> | string }>(res);
  if (Number(row!.need) !== Number(row!.moved)) throw new Error('a graded card lacks the slabs its stock counts');
  const held = (typeof row!.held === 'string' ? JSON.parse(row!.held) : row!.held) as Array<{ cardId: string }>;
  return held.map((h) => h.cardId);
}

/**
 * Removes a slab the shop holds (in stock or held; a reserved or owned one is refused, 409
 * slab_not_in_shop): an in-stock slab takes one copy out of stock with it (logged).
 */
export async function removeSlab(tx: DbOrTx, cardId: string, slabId: string, ctx: MoveContext): Promise<Slab> {
  // The card row first, as an opening locks it before its slabs: no deadlock between the two.
  await tx.select({ id: cards.id }).from(cards).where(eq(cards.id, cardId)).for('update');
  const [row] = await tx
    .select()
    .from(cardSlabs)
    .where(and(eq(cardSlabs.id, slabId), eq(cardSlabs.cardId, cardId)))
    .for('update');
  if (!row) throw notFound('No such slab on this card.');
  if (row.state !== 'in_stock' && row.state !== 'held') {
    throw new AppError(409, 'slab_not_in_shop', 'This slab is not in the shop (it is reserved or belongs to a collector): it cannot be removed.');
  }
  if (row.state === 'in_stock') {
    const moved = await changeStock(tx, {
      cardId,
      delta: -1,
      reason: 'admin_adjust',
      actorId: ctx.actorId,
      referenceType: 'slab',
      referenceId: slabId,
      note: ctx.note ?? `Slab ${row.grader} ${row.certNumber} removed`,
    });
    if (!moved) throw new Error('an in-stock slab had no stock to remove');
  }
  await tx.delete(cardSlabs).where(eq(cardSlabs.id, slabId));
  return slabDto(row);
}

/**
 * Slabs for copies already in stock (a card that becomes graded with its stock, as the demo seed
 * does): one per copy, the stock unchanged. Refused unless there is exactly one slab per copy.
 */
export async function slabsForStock(tx: DbOrTx, cardId: string, slabs: readonly NewSlab[]) {
  const [card] = await tx.select({ stock: cards.stock, g: cards.gradingCompany }).from(cards).where(eq(cards.id, cardId)).for('update');
  if (!card?.g) throw certOnUngraded();
  const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(cardSlabs).where(and(eq(cardSlabs.cardId, cardId), eq(cardSlabs.state, 'in_stock')));
  if (card.stock !== n + slabs.length) throw new Error(`card ${cardId} has ${card.stock} in stock, not ${n + slabs.length} slabs`);
  if (slabs.length === 0) return;
  await tx
    .insert(cardSlabs)
    .values(slabs.map((s) => ({ cardId, ...s, certMissing: false, state: 'in_stock' as const })))
    .catch((err) => rethrowCertTaken(err));
}
