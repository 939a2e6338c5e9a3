import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  MOVES,
  OUT_OF_STOCK_STATES,
  RESERVE_REASONS,
  SUPPLY_REASONS,
  type CopyMoveName,
  type StockMovement,
  type StockMovementReason,
  type StockReconcile,
} from '../../../shared/contracts/inventory.ts';
import type { OwnedCardStatus } from '../../../shared/contracts/shop.ts';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { cards } from '../catalog/tables.ts';
import { stockMovements } from '../../db/schema/inventory.ts';
import { cardSlabs, ownedCards } from '../../db/schema/inventory.ts';
import { AppError } from '../../http/errors.ts';
import { assignSlabs, moveSlabsByCount, type AssignedSlab } from './slabs.ts';
import { plural } from '../../../shared/words.ts';

/**
 * The inventory gateway (issue 14, ADR 0011): the only code that writes `cards.stock`,
 * `owned_cards` (rows and status) and `stock_movements` (inventory-boundary.test.ts enforces it). Every change of stock and every move of an owned copy
 * writes a stock movement with its reason and reference, in the same statement as the change, so
 * each card's movements sum to its stock (`reconcileStock`). Moves of a copy are checked against
 * the state machine of `shared/contracts/inventory.ts` by a conditional UPDATE: two moves of one
 * copy racing cannot both pass.
 *
 * Call these inside the caller's transaction: a refusal (AppError / null) after an earlier write of
 * the same transaction leaves it to the caller to roll back, as every caller's transaction does.
 */

export interface MoveContext {
  actorId: string | null;
  referenceType?: string | null;
  referenceId?: string | null;
  /** Why, for people (an admin's reason); the catalog's stock history shows it. */
  note?: string | null;
}



interface Applied {
  id: string;
  card_id: string;
  stock_after: number;
  created_at: string;
}

/**
 * Moves stock of several cards by `delta` each and logs it, in one statement: the cards are locked
 * in id order (as openings lock them), a take only happens where enough is left, and only what
 * happened is logged. Returns the cards that moved; fewer than asked = refused (caller decides).
 */
async function applyStock(tx: DbOrTx, entries: ReadonlyArray<{ cardId: string; delta: number }>, reason: StockMovementReason, ctx: MoveContext) {
  const rows = entries.map((e) => ({ card_id: e.cardId, delta: e.delta }));
  const res = await tx.execute(sql`
    with w as (select * from json_to_recordset(${JSON.stringify(rows)}::json) as w(card_id uuid, delta integer)),
    locked as materialized (select c.id from ${cards} c where c.id in (select card_id from w) order by c.id for update),
    upd as (
      update ${cards} c set "stock" = c.stock + w.delta, "updated_at" = now()
      from w where c.id = w.card_id and c.id in (select id from locked) and w.delta <> 0 and c.stock + w.delta >= 0
      returning c.id, c.stock
    ),
    moved as (
      insert into ${stockMovements} ("card_id", "delta", "stock_after", "reason", "reference_type", "reference_id", "note", "actor_id")
      select w.card_id, w.delta, coalesce(u.stock, c.stock), ${reason}::stock_movement_reason, ${ctx.referenceType ?? null}::text,
        ${ctx.referenceId ?? null}::text, ${ctx.note ?? null}::text, ${ctx.actorId}::text
      from w join ${cards} c on c.id = w.card_id and c.id in (select id from locked) left join upd u on u.id = w.card_id
      where w.delta = 0 or u.id is not null
      returning "id", "card_id", "stock_after", "created_at"
    )
    select m.id, m.card_id, m.stock_after, m.created_at from moved m`);
  return new Map(rowsOf<Applied>(res).map((r) => [r.card_id, { ...r, stock_after: Number(r.stock_after) }]));
}

export type StockChangeReason = (typeof SUPPLY_REASONS)[number];

/**
 * Adds (or removes) copies to the shop's stock: initial stock, an admin's adjustment, a CSV import.
 * Null when the card does not exist or the change would take its stock below zero (nothing written).
 */
export async function changeStock(
  tx: DbOrTx,
  input: { cardId: string; delta: number; reason: StockChangeReason } & MoveContext,
): Promise<{ stockAfter: number; movement: { id: string; createdAt: Date } } | null> {
  if (!Number.isInteger(input.delta) || input.delta === 0) throw new Error('changeStock needs a non-zero whole delta');
  const applied = (await applyStock(tx, [{ cardId: input.cardId, delta: input.delta }], input.reason, input)).get(input.cardId);
  if (!applied) return null;
  return { stockAfter: applied.stock_after, movement: { id: applied.id, createdAt: new Date(applied.created_at) } };
}

/**
 * A new copy in a user's vault, taken from stock (an admin's grant, a drop). Null when the card is
 * out of stock or does not exist; nothing is written then.
 */
export async function createCopy(
  tx: DbOrTx,
  move: 'grant' | 'drop',
  input: { cardId: string; ownerId: string } & MoveContext,
): Promise<{ ownedCardId: string; card: { id: string; name: string; stock: number; valueCents: number }; slab: AssignedSlab | null } | null> {
  const ownedCardId = randomUUID();
  const m = MOVES[move];
  const res = await tx.execute(sql`
    with taken as (
      update ${cards} c set "stock" = c.stock + ${m.stockDelta}::int, "updated_at" = now()
      where c.id = ${input.cardId}::uuid and c.stock + ${m.stockDelta}::int >= 0
      returning c.id, c.name, c.stock, c.value_cents
    ),
    copy as (
      insert into ${ownedCards} ("id", "card_id", "owner_id", "acquired_via", "value_cents", "status")
      select ${ownedCardId}::uuid, t.id, ${input.ownerId}::text, ${move}::acquired_via, t.value_cents, ${m.to}::owned_card_status from taken t
      returning "id"
    ),
    moved as (
      insert into ${stockMovements} ("card_id", "delta", "stock_after", "reason", "reference_type", "reference_id", "note", "actor_id")
      select t.id, ${m.stockDelta}::int, t.stock, ${m.reason}::stock_movement_reason, ${input.referenceType ?? 'owned_card'}::text,
        ${input.referenceId ?? ownedCardId}::text, ${input.note ?? null}::text, ${input.actorId}::text
      from taken t
      returning 1
    )
    select t.id, t.name, t.stock, t.value_cents, (select count(*) from copy) as copies from taken t`);
  const [row] = rowsOf<{ id: string; name: string; stock: number; value_cents: number; copies: string | number }>(res);
  if (!row) return null;
  if (Number(row.copies) !== 1) throw new Error('a copy was taken from stock without its owned card');
  // A graded card: the copy is one specific slab (issue 38), in this transaction.
  const [slab] = await assignSlabs(tx, [{ id: ownedCardId, cardId: row.id }]);
  return { ownedCardId, card: { id: row.id, name: row.name, stock: Number(row.stock), valueCents: Number(row.value_cents) }, slab: slab ?? null };
}

// ───────────────────────── reservations (daily drops) ─────────────────────────

/**
 * Sets copies aside from stock for a daily drop ('drop_reserve', reference the drop): all or
 * nothing. Null when a card lacks the stock (or does not exist); nothing is written then.
 */
export async function reserveStock(
  tx: DbOrTx,
  entries: ReadonlyArray<{ cardId: string; quantity: number }>,
  ctx: MoveContext,
): Promise<Map<string, number> | null> {
  const perCard = new Map<string, number>();
  for (const e of entries) {
    if (!Number.isInteger(e.quantity) || e.quantity < 1) throw new Error('reserveStock needs a positive whole quantity');
    perCard.set(e.cardId, (perCard.get(e.cardId) ?? 0) + e.quantity);
  }
  const applied = await applyStock(tx, [...perCard].map(([cardId, q]) => ({ cardId, delta: -q })), 'drop_reserve', { ...ctx, note: null });
  if (applied.size !== perCard.size) {
    if (applied.size > 0) await applyStock(tx, [...applied.keys()].map((cardId) => ({ cardId, delta: perCard.get(cardId)! })), 'drop_release', { ...ctx, note: null });
    return null;
  }
  // Graded cards: the reserved copies are specific slabs, set aside with the stock.
  await moveSlabsByCount(tx, perCard, 'in_stock', 'reserved');
  return new Map([...applied].map(([id, a]) => [id, a.stock_after]));
}

/** Gives reserved copies back to stock ('drop_release'): a cancelled drop, a prize nobody won. */
export async function releaseReserved(tx: DbOrTx, entries: ReadonlyArray<{ cardId: string; quantity: number }>, ctx: MoveContext): Promise<void> {
  const perCard = new Map<string, number>();
  for (const e of entries) if (e.quantity > 0) perCard.set(e.cardId, (perCard.get(e.cardId) ?? 0) + e.quantity);
  if (perCard.size === 0) return;
  const applied = await applyStock(tx, [...perCard].map(([cardId, q]) => ({ cardId, delta: q })), 'drop_release', { ...ctx, note: null });
  if (applied.size !== perCard.size) throw new Error('a reserved copy could not be returned to stock');
  await holdOutOfStock(tx, (await moveSlabsByCount(tx, perCard, 'reserved', 'in_stock')) ?? [], ctx);
}

/**
 * Slabs that came back to the shop without a certificate (copies from before slabs, migration
 * 0026) are held, not in stock: their card's stock goes down by one each, logged, so a graded
 * card's stock stays the number of its slabs in stock.
 */
async function holdOutOfStock(tx: DbOrTx, cardIds: readonly string[], ctx: MoveContext) {
  if (cardIds.length === 0) return;
  const perCard = new Map<string, number>();
  for (const id of cardIds) perCard.set(id, (perCard.get(id) ?? 0) - 1);
  const applied = await applyStock(tx, [...perCard].map(([cardId, delta]) => ({ cardId, delta })), 'admin_adjust', {
    ...ctx,
    note: 'Held out of stock: slab certificate missing',
  });
  if (applied.size !== perCard.size) throw new Error('a held slab could not leave stock');
}

/**
 * A drop prize into its winner's vault, made from the drop's reservation: the reserved copy goes
 * back to stock and is taken at once by the 'drop' move (both movements in this transaction, the
 * card row locked in between), so the copy is counted once, in the vault.
 */
export async function awardReserved(tx: DbOrTx, input: { cardId: string; ownerId: string } & MoveContext) {
  await releaseReserved(tx, [{ cardId: input.cardId, quantity: 1 }], input);
  const copy = await createCopy(tx, 'drop', { ...input, note: null });
  if (!copy) throw new Error('a reserved prize could not be taken');
  return copy;
}

/** The state a copy's slab is in while the copy is in each owned state (returns leave the copy). */
const SLAB_STATE_OF: Record<OwnedCardStatus, string> = {
  in_vault: 'owned',
  // A graded copy's slab stays owned while listed (ADR 0028).
  listed: 'owned',
  in_shipment: 'shipping',
  shipped: 'shipped',
  delivered: 'shipped',
  lost: 'lost',
  sold_back: 'in_stock',
  revoked: 'in_stock',
};

export interface MovedCopy {
  id: string;
  cardId: string;
  ownerId: string;
  /** The state it was in. */
  from: OwnedCardStatus;
}

/** 409 listed: the copy is on the marketplace, so every other move waits until it is delisted (ADR 0028). */
export function listedError(): AppError {
  return new AppError(409, 'listed', 'This card is listed on the market. Delist it first; nothing changed.');
}

/** 409 invalid_card_state: the state machine does not allow this move from where the copies are. */
export function invalidCardState(move: CopyMoveName, found: ReadonlyArray<{ id: string; status: OwnedCardStatus }>): AppError {
  if (move !== 'delist' && found.some((f) => f.status === 'listed')) return listedError();
  const m = MOVES[move];
  const wrong = found.filter((f) => !(m.from as readonly string[]).includes(f.status));
  const what = wrong.length ? `${wrong.length === 1 ? 'A card is' : `${plural(wrong.length, 'card')} are`} ${wrong[0]!.status.replace('_', ' ')}` : 'Some cards were not found';
  return new AppError(409, 'invalid_card_state', `${what}: only cards ${m.from.map((s) => s.replace('_', ' ')).join(' or ')} can be moved to ${m.to.replace('_', ' ')}. Nothing changed.`);
}

/**
 * Moves owned copies along the state machine (ship, cancel a shipment, dispatch, deliver, sell
 * back, revoke) and returns to stock what the move returns. All or nothing: one conditional UPDATE
 * locks the copies, checks that every one of them is (the owner's and) in a state the move allows,
 * and moves them only then. A refusal throws 409 `invalid_card_state` (or the caller's own error,
 * from `refused`) and has changed nothing.
 */
export async function moveCopies(
  tx: DbOrTx,
  move: CopyMoveName,
  input: {
    ids: readonly string[];
    /** Only this user's copies (a user's own request). */
    ownerId?: string;
    refused?: (found: Array<{ id: string; status: OwnedCardStatus; ownerId: string }>) => Error | Promise<Error>;
  } & MoveContext,
): Promise<MovedCopy[]> {
  const m = MOVES[move];
  const returns = m.stockDelta > 0;
  const ids = [...new Set(input.ids)].sort();
  if (ids.length === 0) return [];
  const idList = `{${ids.join(',')}}`;
  const from = `{${m.from.join(',')}}`;
  const res = await tx.execute(sql`
    with target as materialized (
      select o.id, o.status, o.owner_id from ${ownedCards} o where o.id = any(${idList}::uuid[]) order by o.id for update
    ),
    allowed as (
      select count(*) = ${ids.length}::int and bool_and(t.status = any(${from}::owned_card_status[])
        and (${input.ownerId ?? null}::text is null or t.owner_id = ${input.ownerId ?? null}::text)) as ok
      from target t
    ),
    -- A graded copy's slab moves with it (issue 38): back to the shop on a return (held when its
    -- certificate is missing), else to the state that matches the copy's.
    slab_move as (
      update ${cardSlabs} s set
        "state" = (case when ${returns} and s.cert_missing then 'held' when ${returns} then 'in_stock' else ${SLAB_STATE_OF[m.to]} end)::slab_state,
        "owned_card_id" = case when ${returns} then null else s.owned_card_id end, "updated_at" = now()
      from target t, allowed a
      where s.owned_card_id = t.id and a.ok and t.status = any(${from}::owned_card_status[])
      returning t.id as owned_id, s.state
    )
    update ${ownedCards} o set "status" = ${m.to}::owned_card_status, "updated_at" = now()
    from target t, allowed a
    where o.id = t.id and a.ok and o.status = any(${from}::owned_card_status[])
    returning o.id, o.card_id, o.owner_id, t.status as from_status, (select sm.state from slab_move sm where sm.owned_id = o.id) as slab_state`);
  const moved = rowsOf<{ id: string; card_id: string; owner_id: string; from_status: OwnedCardStatus; slab_state: string | null }>(res);
  if (moved.length !== ids.length) {
    const found = (
      await tx.select({ id: ownedCards.id, status: ownedCards.status, ownerId: ownedCards.ownerId }).from(ownedCards).where(sql`${ownedCards.id} = any(${idList}::uuid[])`)
    ).filter((f) => input.ownerId === undefined || f.ownerId === input.ownerId);
    if (moved.length > 0) throw new Error('a refused move changed some copies');
    // A listed copy answers the same everywhere, whatever the caller's own refusal says (ADR 0028).
    if (move !== 'delist' && found.some((f) => f.status === 'listed')) throw listedError();
    throw input.refused ? await input.refused(found) : invalidCardState(move, found);
  }
  const perCard = new Map<string, number>();
  for (const r of moved) perCard.set(r.card_id, (perCard.get(r.card_id) ?? 0) + m.stockDelta);
  const applied = await applyStock(tx, [...perCard].map(([cardId, delta]) => ({ cardId, delta })), m.reason, input);
  // Returns only add stock, and every moved copy's card exists (foreign key): all of them apply.
  if (applied.size !== perCard.size) throw new Error('stock of a moved copy did not move');
  await holdOutOfStock(tx, moved.filter((r) => r.slab_state === 'held').map((r) => r.card_id), input);
  return moved.map((r) => ({ id: r.id, cardId: r.card_id, ownerId: r.owner_id, from: r.from_status }));
}

/**
 * A marketplace sale (ADR 0028): the listed copy changes owner and lands in the buyer's vault, in
 * one conditional UPDATE (only a copy still listed by `fromOwnerId` moves), logged as a 'market_sale'
 * movement (no stock change; a graded copy's slab stays 'owned' and follows its copy). Returns
 * false, having changed nothing, when the copy is not (any more) listed by that seller.
 */
export async function transferListedCopy(
  tx: DbOrTx,
  input: { id: string; fromOwnerId: string; toOwnerId: string } & MoveContext,
): Promise<boolean> {
  const [moved] = await tx
    .update(ownedCards)
    .set({ ownerId: input.toOwnerId, status: 'in_vault', updatedAt: new Date() })
    .where(and(eq(ownedCards.id, input.id), eq(ownedCards.ownerId, input.fromOwnerId), eq(ownedCards.status, 'listed')))
    .returning({ cardId: ownedCards.cardId });
  if (!moved) return false;
  const applied = await applyStock(tx, [{ cardId: moved.cardId, delta: 0 }], 'market_sale', input);
  if (applied.size !== 1) throw new Error('a market sale was not logged');
  return true;
}

/**
 * A marketplace swap (ADR 0032): each copy changes owner, vault to vault, in one conditional
 * UPDATE that moves them only if every one is still in its `fromOwnerId`'s vault (unlisted, not
 * shipping); logged as 'market_swap' movements (no stock change; a slab follows its copy). Returns
 * false, having changed nothing, when any copy moved since. The caller has locked the copies.
 */
export async function swapVaultCopies(
  tx: DbOrTx,
  input: { moves: ReadonlyArray<{ id: string; fromOwnerId: string; toOwnerId: string }> } & MoveContext,
): Promise<boolean> {
  if (input.moves.length === 0) return true;
  const res = await tx.execute(sql`
    with m as (select * from jsonb_to_recordset(${JSON.stringify(input.moves)}::jsonb) as m(id uuid, "fromOwnerId" text, "toOwnerId" text)),
    ok as (
      select count(*) = ${input.moves.length}::int as ok from m join ${ownedCards} o on o.id = m.id
      where o.owner_id = m."fromOwnerId" and o.status = 'in_vault'
    )
    update ${ownedCards} o set "owner_id" = m."toOwnerId", "updated_at" = now()
    from m, ok where o.id = m.id and ok.ok
    returning o.card_id`);
  const moved = rowsOf<{ card_id: string }>(res);
  if (moved.length !== input.moves.length) return false;
  const perCard = new Map<string, number>();
  for (const r of moved) perCard.set(r.card_id, 0);
  const applied = await applyStock(tx, [...perCard.keys()].map((cardId) => ({ cardId, delta: 0 })), 'market_swap', input);
  if (applied.size !== perCard.size) throw new Error('a market swap was not logged');
  return true;
}

// ───────────────────────── the hot path, as CTEs ─────────────────────────

/**
 * The opening's stock take as two CTEs of the caller's statement (more rows, not more round trips):
 * `<name>` takes `w.n` copies of each card of `want` (a relation with columns id, n, aliased `w`;
 * cards are `c`) where enough is left and the card is on sale, and returns `c.id`, `c.stock as
 * stock_after`, `w.n as taken_n` and the caller's `returning`; `<name>_moves` logs one 'pack_open'
 * movement per card taken. `from`/`where` add the caller's joins and checks (lock order, hints).
 */
export function takeStockCtes(p: {
  name: string;
  want: SQL;
  from?: SQL;
  where?: SQL;
  returning: SQL;
  movement: { referenceType: SQL; referenceId: SQL; actorId: SQL; at: SQL };
}): SQL {
  const name = sql.raw(p.name);
  return sql`${name} as (
      update "cards" c set "stock" = c.stock - w.n
      from ${p.want} w${p.from ? sql`, ${p.from}` : sql``}
      where c.id = w.id and c.stock >= w.n and c.active and c.archived_at is null${p.where ? sql` and ${p.where}` : sql``}
      returning c.id, c.stock as stock_after, w.n as taken_n, ${p.returning}
    ),
    ${sql.raw(`${p.name}_moves`)} as (
      insert into "stock_movements" ("card_id", "delta", "stock_after", "reason", "reference_type", "reference_id", "actor_id", "created_at")
      select t.id, -t.taken_n, t.stock_after, 'pack_open', ${p.movement.referenceType}, ${p.movement.referenceId}, ${p.movement.actorId}, ${p.movement.at}
      from ${name} t
    )`;
}

/**
 * The opening's new copies as a CTE `<name>` (returning 1 per copy): one owned card per row of
 * `from`, in the state the 'open' move leads to. Their stock is taken by `takeStockCtes`.
 */
export function openedCopiesCte(p: {
  name: string;
  from: SQL;
  columns: { id: SQL; cardId: SQL; ownerId: SQL; valueCents: SQL; openingId: SQL; productId: SQL; slot: SQL; at: SQL };
}): SQL {
  const c = p.columns;
  return sql`${sql.raw(p.name)} as (
      insert into "owned_cards" ("id", "card_id", "owner_id", "acquired_via", "value_cents", "status", "opening_id", "product_id", "slot", "acquired_at", "updated_at")
      select ${c.id}, ${c.cardId}, ${c.ownerId}, 'opening', ${c.valueCents}, ${sql.raw(`'${MOVES.open.to}'`)}, ${c.openingId}, ${c.productId}, ${c.slot}, ${c.at}, ${c.at}
      from ${p.from}
      returning 1
    )`;
}

// ───────────────────────── reading back ─────────────────────────

function movementDto(r: typeof stockMovements.$inferSelect): StockMovement {
  return {
    id: r.id,
    cardId: r.cardId,
    delta: r.delta,
    stockAfter: r.stockAfter,
    reason: r.reason,
    referenceType: r.referenceType,
    referenceId: r.referenceId,
    note: r.note,
    actorId: r.actorId,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * A card's movements, newest first. `stockChangesOnly` leaves out the moves of owned copies that
 * stay out of stock (delta 0: shipped, delivered…), which is the catalog's stock history.
 */
export async function listMovements(db: DbOrTx, cardId: string, page: number, pageSize: number, opts: { stockChangesOnly?: boolean } = {}) {
  const where = and(eq(stockMovements.cardId, cardId), opts.stockChangesOnly ? ne(stockMovements.delta, 0) : undefined);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select()
      .from(stockMovements)
      .where(where)
      .orderBy(desc(stockMovements.createdAt), desc(stockMovements.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(stockMovements).where(where),
  ]);
  return { items: rows.map(movementDto), total, page, pageSize };
}

// ───────────────────────── reconciliation ─────────────────────────

const sqlList = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(', '));

/**
 * The stock half of the books: for every card, (1) its movements sum to its stock (initial +
 * returns − takes = stock), and (2) its stock plus its copies out of stock (in a vault or on their
 * way) plus its copies reserved for daily drops equals what was ever supplied (initial stock,
 * adjustments, imports); (3) a graded card's stock is its slabs in stock and each of its copies
 * out of stock is one slab where the copy is. One grouped aggregate over each table, joined to the cards.
 */
export async function reconcileStock(db: Db | DbOrTx): Promise<StockReconcile> {
  const res = await db.execute(sql`
    with m as (
      select "card_id", sum("delta") as net, coalesce(sum("delta") filter (where "reason" in (${sqlList(SUPPLY_REASONS)})), 0) as supply,
        -coalesce(sum("delta") filter (where "reason" in (${sqlList(RESERVE_REASONS)})), 0) as reserved
      from ${stockMovements} group by "card_id"
    ),
    o as (
      select "card_id", count(*) as n from ${ownedCards} where "status" in (${sqlList(OUT_OF_STOCK_STATES)}) group by "card_id"
    ),
    -- Graded cards (issue 38): stock is the slabs in stock, reservations the reserved slabs, and
    -- each copy out of stock is one slab in the matching state; a raw card has no slabs.
    sl as (
      select s.card_id, count(*) filter (where s.state = 'in_stock') as in_stock, count(*) filter (where s.state = 'reserved') as reserved,
        count(*) filter (where s.owned_card_id is not null and not (s.state::text = case oc.status when 'in_vault' then 'owned'
          when 'in_shipment' then 'shipping' when 'shipped' then 'shipped' when 'delivered' then 'shipped' when 'lost' then 'lost' end)) as misplaced
      from ${cardSlabs} s left join ${ownedCards} oc on oc.id = s.owned_card_id group by s.card_id
    ),
    checked as (
      select c.id, c.stock, coalesce(m.net, 0) as net, coalesce(m.supply, 0) as supply, coalesce(o.n, 0) as out_of_stock,
        coalesce(m.reserved, 0) as reserved,
        case when c.grading_company is not null then coalesce(sl.in_stock, 0) end as slabs_in_stock,
        (c.grading_company is not null and (coalesce(sl.in_stock, 0) <> c.stock or coalesce(sl.reserved, 0) <> coalesce(m.reserved, 0)))
          or (c.grading_company is null and sl.card_id is not null) or coalesce(sl.misplaced, 0) > 0 as slab_mismatch
      from ${cards} c left join m on m.card_id = c.id left join o on o.card_id = c.id left join sl on sl.card_id = c.id
    ),
    bad as (select * from checked where stock <> net or stock + out_of_stock + reserved <> supply or reserved < 0 or slab_mismatch)
    select (select count(*) from checked) as cards, (select count(*) from bad) as mismatches,
      (select coalesce(json_agg(b), '[]'::json) from (select * from bad order by id limit 100) b) as sample`);
  const [row] = rowsOf<{ cards: string | number; mismatches: string | number; sample: Array<Record<string, string | number | null>> }>(res);
  const sample = (row?.sample ?? []).map((b) => ({
    cardId: String(b.id),
    stock: Number(b.stock),
    movementsNet: Number(b.net),
    supply: Number(b.supply),
    ownedOut: Number(b.out_of_stock),
    reserved: Number(b.reserved),
    slabsInStock: b.slabs_in_stock === null || b.slabs_in_stock === undefined ? null : Number(b.slabs_in_stock),
  }));
  const mismatches = Number(row?.mismatches ?? 0);
  return { ok: mismatches === 0, details: { cards: Number(row?.cards ?? 0), mismatches, sample } };
}

/** For the books' reconciliation route (GET /api/admin/books/reconcile): one check among others. */
export const stockCheck = {
  name: 'stock',
  run: (db: Db): Promise<{ ok: boolean; details: unknown }> => reconcileStock(db),
} as const;
