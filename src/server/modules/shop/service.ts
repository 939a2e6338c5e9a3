import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ArchitectLayout, BlendMode, LookRefs } from '../../../shared/contracts/catalog.ts';
import type { DrawRecord, OpenInput, Opening, PackSlot, Purchase, PurchaseInput, UserPack } from '../../../shared/contracts/shop.ts';
import { drawOpening, oddsCanonical, poolCanonical, PoolEmptyError } from '../../../shared/fairness.ts';
import { rowsOf, type DbOrTx, type Tx } from '../../db/client.ts';
import { openings, purchases, userPacks, type packs } from '../../db/schema/shop.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { openedCopiesCte, takeStockCtes } from '../inventory/service.ts';
import { assignSlabs, slabView, type AssignedSlab } from '../inventory/slabs.ts';
import { assertCanSpend } from '../responsible-play/service.ts';
import { debit, getBalance } from '../wallet/service.ts';
import { nodeFair, sha256HexSync } from '../fairness/crypto.ts';
import { storePool, takeNonces } from '../fairness/service.ts';
import { effectiveTextureSql } from '../catalog/cards.ts';
import { firstEmptyClass, forgetPools, poolVersion, readPool, type Pool } from './pools.ts';
import { coveredBy, oddsVersion, publishRevision, revisionFor, RevisionRace, type Revision } from './revisions.ts';
import { productDto, productWithPack, sortedRefs, type ProductRow } from './read.ts';
import { frozenJson } from '../../lib/frozen-json.ts';
import { instantText } from '../../../shared/words.ts';

/**
 * Buying and opening packs. Everything runs inside the caller's transaction (withIdempotency +
 * db.transaction): the debit, the packs, the nonces, the stock, the openings and the owned
 * cards commit together or not at all.
 */

type PackRow = typeof packs.$inferSelect;

export const soldOut = (message: string) => new AppError(409, 'sold_out', message);

/** Thrown when stock moved between reading the pools and taking it; the caller retries the transaction. */
export class StockRace extends Error {
  constructor() {
    super('stock changed during the opening');
    this.name = 'StockRace';
  }
}

/** The cached stock hint disagreed with the stock: retry the whole transaction on a fresh read. */
function staleHint(): StockRace {
  forgetPools();
  return new StockRace();
}


export function assertOnSale(p: ProductRow, now: Date) {
  if (p.status !== 'live') throw notFound('This pack is not on sale.');
  if (p.releaseAt && p.releaseAt > now) {
    throw new AppError(
      409,
      'not_released',
      `${p.name} goes on sale at ${instantText(p.releaseAt)}. Come back then.`,
    );
  }
}

export interface Actor {
  userId: string;
}

type NewPack = typeof userPacks.$inferInsert & { id: string; slots: PackSlot[]; createdAt: Date };

interface Bought {
  purchase: Purchase;
  rows: NewPack[];
  product: ProductRow;
  pack: PackRow;
}

/**
 * Debit + purchase row + the packs. `packRows` turns the new packs into the rows to insert (the
 * buy-and-open path marks them opened), so both inserts go to the server together.
 */
async function buy(
  tx: Tx,
  actor: Actor,
  input: PurchaseInput,
  idempotencyKey: string,
  packRows: (rows: NewPack[]) => Array<typeof userPacks.$inferInsert> = (rows) => rows,
): Promise<Bought> {
  const now = new Date();
  // Independent reads, sent together (postgres.js pipelines them on the transaction's connection).
  const [, row] = await Promise.all([assertCanSpend(tx, actor.userId, now), productWithPack(tx, input.productId)]);
  if (!row) throw notFound('This pack is not on sale.');
  const { p, pack } = row;
  assertOnSale(p, now);
  if (pack.slots.length === 0) throw soldOut(`${p.name} is sold out.`);
  const purchaseId = randomUUID();
  const total = p.priceCents * input.quantity;
  const moved = await debit(tx, {
    userId: actor.userId,
    amountCents: total,
    kind: 'pack_purchase',
    referenceType: 'purchase',
    referenceId: purchaseId,
    actorId: actor.userId,
    idempotencyKey,
    memo: `${input.quantity} × ${p.name}`,
  });
  // After the debit: the balance row lock serializes this user's purchases, so the count is exact.
  if (p.purchaseLimitPerUser !== null) {
    const [r] = await tx
      .select({ n: sql<number>`coalesce(sum(${purchases.quantity}), 0)::int` })
      .from(purchases)
      .where(and(eq(purchases.userId, actor.userId), eq(purchases.productId, p.id)));
    const left = p.purchaseLimitPerUser - Number(r?.n ?? 0);
    if (input.quantity > left) {
      throw new AppError(
        409,
        'purchase_limit_reached',
        left > 0
          ? `${p.name} is limited to ${p.purchaseLimitPerUser} per person; you can buy ${left} more.`
          : `${p.name} is limited to ${p.purchaseLimitPerUser} per person and you have reached it.`,
      );
    }
  }
  const rows: NewPack[] = Array.from({ length: input.quantity }, () => ({
    id: randomUUID(),
    userId: actor.userId,
    purchaseId,
    productId: p.id,
    packId: pack.id,
    slots: pack.slots,
    createdAt: now,
  }));
  await Promise.all([
    tx.insert(purchases).values({
      id: purchaseId,
      userId: actor.userId,
      productId: p.id,
      packId: pack.id,
      quantity: input.quantity,
      unitPriceCents: p.priceCents,
      totalCents: total,
      ledgerEntryId: moved.entryId,
      createdAt: now,
    }),
    tx.insert(userPacks).values(packRows(rows)),
  ]);
  return {
    purchase: purchaseDto({ id: purchaseId, productId: p.id, quantity: input.quantity, unitPriceCents: p.priceCents, totalCents: total, ledgerEntryId: moved.entryId, createdAt: now }, p.name, moved.balanceCents),
    rows,
    product: p,
    pack,
  };
}

/** A purchase as the API shows it, with the balance its debit left. */
export function purchaseDto(
  r: { id: string; productId: string; quantity: number; unitPriceCents: number; totalCents: number; ledgerEntryId: string; createdAt: Date },
  productName: string,
  balanceCents: number,
): Purchase {
  return {
    id: r.id,
    productId: r.productId,
    productName,
    quantity: r.quantity,
    unitPriceCents: r.unitPriceCents,
    totalCents: r.totalCents,
    ledgerEntryId: r.ledgerEntryId,
    balanceCents,
    createdAt: r.createdAt.toISOString(),
  };
}

function userPackDto(id: string, purchaseId: string, p: ProductRow, slots: PackSlot[], createdAt: Date, soldOutNow = false): UserPack {
  return {
    id,
    purchaseId,
    productId: p.id,
    productName: p.name,
    productImageUrl: productDto(p).imageUrl,
    cardsPerPack: slots.length,
    priceCents: p.priceCents,
    soldOut: soldOutNow,
    createdAt: createdAt.toISOString(),
  };
}

/** POST /api/shop/purchases */
export async function purchasePacks(tx: Tx, actor: Actor, input: PurchaseInput, idempotencyKey: string) {
  const b = await buy(tx, actor, input, idempotencyKey);
  // Refuse a purchase that could not be opened right now: odds are never bent around missing stock.
  const pool = await readPool(tx, await poolVersion(tx), b.pack.slots, b.pack.pool);
  const missing = firstEmptyClass(b.pack.slots, pool);
  if (missing) throw soldOut(`${b.product.name} is sold out: no cards of one of its classes are in stock.`);
  // A sale: the terms it is sold under are published by its commit at the latest (issue 44).
  await publishRevision(tx, await revisionOf(tx, await oddsVersion(tx), b.product, b.pack.slots, b.pack.pool));
  return {
    purchase: b.purchase,
    packs: b.rows.map((r) => userPackDto(r.id, b.purchase.id, b.product, r.slots, r.createdAt)),
  };
}

// Opening ----------------------------------------------------------------------------------------

/** Odds snapshots repeat on every opening of a pack; their hash is remembered (bounded). */
const oddsHashes = new Map<string, string>();
function oddsHashOf(slots: PackSlot[]): string {
  const text = oddsCanonical(slots);
  let h = oddsHashes.get(text);
  if (h === undefined) {
    h = sha256HexSync(text);
    if (oddsHashes.size >= 1000) oddsHashes.clear();
    oddsHashes.set(text, h);
  }
  return h;
}

export interface ToOpen {
  userPackId: string;
  openingId: string;
  purchaseId: string;
  product: ProductRow;
  pack: PackRow;
  slots: PackSlot[];
}

export interface TakenCard {
  id: string;
  stock_after: number;
  name: string;
  set_name: string;
  number: number;
  value_cents: number;
  image_key: string;
  class_id: string;
  architect_id: string;
  texture_id: string | null;
  class_name: string;
  class_colour: string;
  class_sort_order: number;
  architect_frame_image_key: string;
  architect_layout: ArchitectLayout | string;
  texture: { imageKey: string; blendMode: BlendMode; opacity: number } | string | null;
  /** A graded card: each copy taken is one of its slabs (issue 38). */
  graded: boolean;
}

/** The look references of the drawn cards, from the rows the stock update returned (no extra query). */
export function refsOf(rows: TakenCard[]): LookRefs {
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  const classes = new Map<string, LookRefs['classes'][number]>();
  const archs = new Map<string, LookRefs['architects'][number]>();
  const texs = new Map<string, LookRefs['textures'][number]>();
  for (const r of rows) {
    classes.set(r.class_id, { id: r.class_id, name: r.class_name, colour: r.class_colour, sortOrder: Number(r.class_sort_order) });
    archs.set(r.architect_id, { id: r.architect_id, frameImageKey: r.architect_frame_image_key, layout: json(r.architect_layout) });
    const t = r.texture === null ? null : json(r.texture);
    if (t && r.texture_id) texs.set(r.texture_id, { id: r.texture_id, imageKey: t.imageKey, blendMode: t.blendMode, opacity: Number(t.opacity) });
  }
  return sortedRefs({ classes: [...classes.values()], architects: [...archs.values()], textures: [...texs.values()] });
}

export interface OpenOutcome {
  openings: Opening[];
  purchase: Purchase | null;
  balanceCents: number;
  /** Pool hashes written in this transaction (remembered after the commit). */
  poolHashes: string[];
  /** Classes, frames and textures of the drawn cards (not stored with the idempotent answer). */
  refs: LookRefs;
}

/** The seed fields a draw and its fairness record need. */
export interface DrawSeed {
  id: string;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
}

export interface DrawnItem {
  item: ToOpen;
  nonce: number;
  draws: DrawRecord[];
  poolHash: string;
  oddsHash: string;
  pools: Readonly<Record<string, readonly string[]>>;
  /** The odds revision it is drawn under (set by the caller once published; null until then). */
  revisionHash: string | null;
}

export interface DrawPlan {
  drawn: DrawnItem[];
  /** Copies to take per card. */
  want: Map<string, number>;
  /** Per card: whether this request takes its last copy (its stock must be 0 afterwards). */
  emptied: Map<string, boolean>;
}

const defKey = (i: ToOpen) => `${i.pack.id}|${frozenJson(i.slots)}`;

/** Reads (or takes from the cache) one pool per distinct pack definition of `items`. */
export async function poolsFor(db: DbOrTx, version: string, items: ToOpen[]): Promise<Map<string, Pool>> {
  const bases = new Map<string, Pool>();
  for (const i of items) {
    if (!bases.has(defKey(i))) bases.set(defKey(i), await readPool(db, version, i.slots, i.pack.pool));
  }
  return bases;
}

/**
 * Draws `items` in order with consecutive nonces from `firstNonce`; nothing is written. A card
 * whose last copy is taken leaves the pool for later draws of this request. Throws StockRace when
 * a cached stock hint may be wrong, and sold_out when a fresh read has no card for a class.
 */
export async function planDraws(seed: DrawSeed, firstNonce: number, items: ToOpen[], bases: Map<string, Pool>): Promise<DrawPlan> {
  // One pool per distinct pack definition (odds snapshot + pool rule), shared with other requests.
  const state = new Map<string, { base: Pool; pools: Readonly<Record<string, readonly string[]>>; changed: boolean }>();
  for (const [k, base] of bases) state.set(k, { base, pools: base.pools, changed: false });
  // Copies taken by earlier draws of this request. Stock is shared across definitions (the same
  // card can be in several packs' pools), so it is looked up in whichever pool has the card.
  const taken = new Map<string, number>();
  const stockOf = (id: string) => {
    for (const st of state.values()) {
      const n = st.base.stock.get(id);
      if (n !== undefined) return n - (taken.get(id) ?? 0);
    }
    return 0;
  };
  const stock = { get: stockOf };

  const drawn: DrawnItem[] = [];
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const st = state.get(defKey(item))!;
    // Cards exhausted by another definition's draws leave this pool too.
    for (const [id] of taken) {
      if (stockOf(id) > 0) continue;
      for (const [classId, ids] of Object.entries(st.pools)) {
        const at = ids.indexOf(id);
        if (at < 0) continue;
        st.pools = { ...st.pools, [classId]: ids.filter((x) => x !== id) };
        st.changed = true;
      }
    }
    for (const s of item.slots) {
      for (const e of s.odds) {
        if (!st.pools[e.classId]?.length) {
          // Emptied by this request's own draws, judged by a cached stock hint: make sure on a fresh read.
          if (st.changed && st.base.fromCache) throw staleHint();
          throw soldOut(
            items.length > 1
              ? `${item.product.name} sold out while opening ${items.length} packs: one of its classes has no cards left in stock. Try fewer packs.`
              : `${item.product.name} is sold out: no cards of one of its classes are in stock.`,
          );
        }
      }
    }
    const nonce = firstNonce + k;
    const startPools = st.pools;
    let result;
    try {
      result = await drawOpening(nodeFair, {
        serverSeed: seed.serverSeed,
        clientSeed: seed.clientSeed,
        nonce,
        slots: item.slots,
        pools: startPools,
        stock,
        // Sorted when read (pools.ts); removing cards (filter, splice) keeps the order.
        presorted: true,
      });
    } catch (err) {
      if (err instanceof PoolEmptyError) {
        if (st.base.fromCache) throw staleHint();
        throw soldOut(`${item.product.name} sold out while opening: not enough cards left in stock.`);
      }
      throw err;
    }
    for (const d of result.draws) taken.set(d.cardId, (taken.get(d.cardId) ?? 0) + 1);
    const poolHash = st.changed ? sha256HexSync(poolCanonical(startPools)) : st.base.hash;
    if (result.draws.some((d) => d.exhausted)) st.changed = true;
    st.pools = result.poolsAfter;
    drawn.push({ item, nonce, draws: result.draws, poolHash, oddsHash: oddsHashOf(item.slots), pools: startPools, revisionHash: null });
  }
  const want = new Map<string, number>();
  const emptied = new Map<string, boolean>();
  for (const d of drawn) {
    for (const r of d.draws) {
      want.set(r.cardId, (want.get(r.cardId) ?? 0) + 1);
      // The last take of a card decides: it emptied the card or it did not.
      emptied.set(r.cardId, r.exhausted);
    }
  }
  return { drawn, want, emptied };
}

/** A revision read while the catalogue moved, like a stale stock hint: retry on a fresh read. */
async function revisionOf(db: DbOrTx, version: string, product: ProductRow, slots: PackSlot[], pool: PackRow['pool']): Promise<Revision> {
  try {
    return await revisionFor(db, version, product, slots, pool);
  } catch (err) {
    if (err instanceof RevisionRace) throw new StockRace();
    throw err;
  }
}

/**
 * The revision of each drawn opening (set on `plan`), one per product, price and odds snapshot,
 * cached per odds version; the distinct revisions are returned to be published. An opening whose
 * pool (in stock) is not inside its revision's pools was read across a catalogue change: retry.
 */
export async function revisionsFor(db: DbOrTx, version: string, plan: DrawPlan): Promise<Revision[]> {
  const out = new Map<string, Revision>();
  for (const d of plan.drawn) {
    const rev = await revisionOf(db, version, d.item.product, d.item.slots, d.item.pack.pool);
    if (!coveredBy(d.poolHash, d.pools, rev)) throw staleHint();
    d.revisionHash = rev.hash;
    out.set(rev.hash, rev);
  }
  return [...out.values()];
}

/** The columns of a taken card that an opening's answer shows (the stock update returns them). */
/** (`c.id`, `c.stock as stock_after` and `w.n as taken_n` come from the inventory's take.) */
export const TAKEN_CARD_COLUMNS = `c.name, c.set_name, c.number, c.value_cents, c.image_key, c.class_id, c.architect_id, c.grading_company is not null as graded,
        ${effectiveTextureSql('c', 'cc')} as texture_id,
        cc.name as class_name, cc.colour as class_colour, cc.sort_order as class_sort_order,
        a.frame_image_key as architect_frame_image_key, a.layout as architect_layout,
        (select row_to_json(t) from (select x.image_key as "imageKey", x.blend_mode as "blendMode", x.opacity
          from textures x where x.id = ${effectiveTextureSql('c', 'cc')}) t) as texture`;

/** What an opening answers for its drawn cards: the cards as taken, with the ids of the new copies. */
export function openingsOf(
  plan: DrawPlan,
  taken: ReadonlyMap<string, TakenCard>,
  seed: DrawSeed,
  now: Date,
  ownedIdOf: (openingIndex: number, drawIndex: number) => string,
  slabs?: ReadonlyMap<string, AssignedSlab>,
): Opening[] {
  return plan.drawn.map((d, i) => {
    const revealed = d.draws.map((r, j) => {
      const c = taken.get(r.cardId)!;
      const ownedCardId = ownedIdOf(i, j);
      const slab = slabs?.get(ownedCardId);
      return {
        id: c.id,
        name: c.name,
        setName: c.set_name,
        number: Number(c.number),
        valueCents: Number(c.value_cents),
        imageKey: c.image_key,
        classId: c.class_id,
        className: c.class_name,
        classColour: c.class_colour,
        classSortOrder: Number(c.class_sort_order),
        architectId: c.architect_id,
        textureId: c.texture_id,
        slot: r.slot,
        ownedCardId,
        ...(slab ? { slab: slabView(slab) } : {}),
      };
    });
    return {
      id: d.item.openingId,
      userPackId: d.item.userPackId,
      purchaseId: d.item.purchaseId,
      productId: d.item.product.id,
      productName: d.item.product.name,
      packId: d.item.pack.id,
      cards: revealed,
      totalValueCents: revealed.reduce((a, c) => a + c.valueCents, 0),
      fairness: {
        serverSeedHash: seed.serverSeedHash,
        clientSeed: seed.clientSeed,
        nonce: d.nonce,
        slots: d.item.slots,
        oddsHash: d.oddsHash,
        poolHash: d.poolHash,
        revisionHash: d.revisionHash,
        draws: d.draws,
        serverSeed: null,
      },
      createdAt: now.toISOString(),
    };
  });
}

/**
 * Draws and settles `items` (in order, consecutive nonces). Pools are read once per pack
 * definition; a card whose last copy is taken leaves the pool for later draws of this request.
 */
async function settle(tx: Tx, actor: Actor, items: ToOpen[], now: Date): Promise<{ openings: Opening[]; poolHashes: string[]; refs: LookRefs }> {
  const { seed, firstNonce, poolVersion: version, oddsVersion: oddsV } = await takeNonces(tx, actor.userId, items.length);
  const plan = await planDraws(seed, firstNonce, items, await poolsFor(tx, version, items));
  // Each opening names the revision it is drawn under, published in this transaction at the
  // latest (the openings' foreign key refuses any other).
  const revisions = await revisionsFor(tx, oddsV, plan);
  for (const r of revisions) await publishRevision(tx, r);

  // The movements name the purchase, or the openings when owned packs of several purchases open.
  const bought = [...new Set(items.map((i) => i.purchaseId))];
  const ref = bought.length === 1 ? { type: 'purchase', id: bought[0]! } : { type: 'openings', id: items.map((i) => i.openingId).join(',') };
  // Take the stock: lock the drawn cards in id order (no deadlocks between openings), then
  // decrement only where enough is left. Fewer rows back = someone took it first: retry.
  const values = sql.join(
    [...plan.want].map(([id, n]) => sql`(${id}::uuid, ${n}::int)`),
    sql`, `,
  );
  const updated = rowsOf<TakenCard>(
    await tx.execute(sql`
      with want(id, n) as (values ${values}),
      locked as materialized (
        select c.id from cards c where c.id in (select id from want) order by c.id for update
      ),
      ${takeStockCtes({
        name: 'taken',
        want: sql`want`,
        from: sql`card_classes cc, architects a`,
        where: sql`c.id in (select id from locked) and cc.id = c.class_id and a.id = c.architect_id`,
        returning: sql.raw(TAKEN_CARD_COLUMNS),
        movement: {
          referenceType: sql`${ref.type}::text`,
          referenceId: sql`${ref.id}::text`,
          actorId: sql`${actor.userId}::text`,
          at: sql`${now.toISOString()}::timestamptz`,
        },
      })}
      select * from taken`),
  );
  if (updated.length !== plan.want.size) throw staleHint();
  // The draw took a card's last copy exactly when its stock is now 0; otherwise the stock hint
  // was off and a fresh read could have drawn differently.
  for (const u of updated) if ((Number(u.stock_after) === 0) !== plan.emptied.get(u.id)) throw staleHint();
  const card = new Map(updated.map((t) => [t.id, t]));

  const ownedIds = plan.drawn.map((d) => d.draws.map(() => randomUUID()));
  const out = openingsOf(plan, card, seed, now, (i, j) => ownedIds[i]![j]!);
  const openingRows: Array<Record<string, unknown>> = [];
  const ownedRows: Array<Record<string, unknown>> = [];
  const poolHashes = new Set<string>();
  for (const [i, d] of plan.drawn.entries()) {
    const o = out[i]!;
    for (const c of o.cards) {
      ownedRows.push({ id: c.ownedCardId, card_id: c.id, value_cents: c.valueCents, opening_id: o.id, product_id: d.item.product.id, slot: c.slot });
    }
    openingRows.push({
      id: o.id,
      user_pack_id: d.item.userPackId,
      purchase_id: d.item.purchaseId,
      product_id: d.item.product.id,
      pack_id: d.item.pack.id,
      nonce: d.nonce,
      slots: d.item.slots,
      odds_hash: d.oddsHash,
      pool_hash: d.poolHash,
      revision_hash: d.revisionHash,
      draws: d.draws,
      total_value_cents: o.totalValueCents,
    });
    if (!poolHashes.has(d.poolHash)) {
      poolHashes.add(d.poolHash);
      await storePool(tx, d.poolHash, d.pools);
    }
  }
  // One statement for the openings and their cards, each set passed as one JSON document: a
  // 10-pack opening is 10 openings and 50 cards, which as row-by-row parameters cost more to
  // build in the app than the insert costs the server. The cards' foreign key to their opening is
  // checked at the end of the statement, when both are in.
  await tx.execute(sql`
    with o as (
      insert into ${openings} ("id", "user_id", "user_pack_id", "purchase_id", "product_id", "pack_id", "seed_id", "server_seed_hash",
        "client_seed", "nonce", "slots", "odds_hash", "pool_hash", "revision_hash", "draws", "total_value_cents", "created_at")
      select x.id, ${actor.userId}::text, x.user_pack_id, x.purchase_id, x.product_id, x.pack_id, ${seed.id}::uuid, ${seed.serverSeedHash}::text,
        ${seed.clientSeed}::text, x.nonce, x.slots, x.odds_hash, x.pool_hash, x.revision_hash, x.draws, x.total_value_cents, ${now.toISOString()}::timestamptz
      from json_to_recordset(${JSON.stringify(openingRows)}::json) as x(id uuid, user_pack_id uuid, purchase_id uuid, product_id uuid,
        pack_id uuid, nonce integer, slots jsonb, odds_hash text, pool_hash text, revision_hash text, draws jsonb, total_value_cents integer)
    )
    , ${openedCopiesCte({
      name: 'copies',
      from: sql`json_to_recordset(${JSON.stringify(ownedRows)}::json) as y(id uuid, card_id uuid, value_cents integer, opening_id uuid, product_id uuid, slot integer)`,
      columns: {
        id: sql`y.id`,
        cardId: sql`y.card_id`,
        ownerId: sql`${actor.userId}::text`,
        valueCents: sql`y.value_cents`,
        openingId: sql`y.opening_id`,
        productId: sql`y.product_id`,
        slot: sql`y.slot`,
        at: sql`${now.toISOString()}::timestamptz`,
      },
    })}
    select count(*) from copies`);
  // Each copy of a graded card is one specific slab, taken in this transaction (issue 38); raw
  // cards, nearly every draw, skip this statement.
  if (updated.some((u) => u.graded)) {
    const gradedIds = new Set(updated.filter((u) => u.graded).map((u) => u.id));
    const slabs = await assignSlabs(
      tx,
      ownedRows.filter((r) => gradedIds.has(r.card_id as string)).map((r) => ({ id: r.id as string, cardId: r.card_id as string })),
    );
    const byCopy = new Map(slabs.map((sl) => [sl.ownedCardId, sl]));
    for (const o of out) for (const c of o.cards) {
      const sl = byCopy.get(c.ownedCardId);
      if (sl) c.slab = slabView(sl);
    }
  }
  return { openings: out, poolHashes: [...poolHashes], refs: refsOf(updated) };
}

/** POST /api/shop/open: owned unopened packs, or buy-and-open. */
export async function openPacks(tx: Tx, actor: Actor, input: OpenInput, idempotencyKey: string): Promise<OpenOutcome> {
  const now = new Date();
  if ('productId' in input) {
    // The packs are written already opened (their openings follow in this transaction).
    const openingIds = new Map<string, string>();
    const b = await buy(tx, actor, input, idempotencyKey, (rows) =>
      rows.map((r) => {
        openingIds.set(r.id, randomUUID());
        return { ...r, openingId: openingIds.get(r.id)!, openedAt: now };
      }),
    );
    const items: ToOpen[] = b.rows.map((r) => ({
      userPackId: r.id,
      openingId: openingIds.get(r.id)!,
      purchaseId: b.purchase.id,
      product: b.product,
      pack: b.pack,
      slots: r.slots,
    }));
    const settled = await settle(tx, actor, items, now);
    return { openings: settled.openings, purchase: b.purchase, balanceCents: b.purchase.balanceCents, poolHashes: settled.poolHashes, refs: settled.refs };
  }

  await assertCanSpend(tx, actor.userId, now);
  // Claim the packs first: the conditional update makes a second tab's request wait, then miss.
  const claimed = await tx
    .update(userPacks)
    .set({ openedAt: now, openingId: sql`gen_random_uuid()` })
    .where(and(inArray(userPacks.id, input.packIds), eq(userPacks.userId, actor.userId), isNull(userPacks.openedAt)))
    .returning();
  if (claimed.length !== input.packIds.length) {
    const found = await tx
      .select({ id: userPacks.id, openedAt: userPacks.openedAt, userId: userPacks.userId })
      .from(userPacks)
      .where(inArray(userPacks.id, input.packIds));
    const mine = found.filter((f) => f.userId === actor.userId);
    if (mine.length !== input.packIds.length) throw notFound('One of these packs is not yours or does not exist.');
    throw new AppError(409, 'pack_already_opened', 'One of these packs was already opened (maybe in another tab). Refresh your packs.');
  }
  const order = new Map(input.packIds.map((id, i) => [id, i]));
  claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const productIds = [...new Set(claimed.map((c) => c.productId))];
  const prods = new Map<string, { p: ProductRow; pack: PackRow }>();
  for (const id of productIds) {
    const row = await productWithPack(tx, id);
    if (row) prods.set(id, row);
  }
  const items: ToOpen[] = claimed.map((c) => {
    const r = prods.get(c.productId)!;
    // The claim generated the opening id.
    return { userPackId: c.id, openingId: c.openingId!, purchaseId: c.purchaseId, product: r.p, pack: r.pack, slots: c.slots };
  });
  const settled = await settle(tx, actor, items, now);
  const { balanceCents } = await getBalance(tx, actor.userId);
  return { openings: settled.openings, purchase: null, balanceCents, poolHashes: settled.poolHashes, refs: settled.refs };
}

// Inventory --------------------------------------------------------------------------------------

export async function inventory(db: DbOrTx, userId: string) {
  const rows = await db
    .select({ u: userPacks })
    .from(userPacks)
    .where(and(eq(userPacks.userId, userId), isNull(userPacks.openedAt)))
    .orderBy(asc(userPacks.createdAt), asc(userPacks.id))
    .limit(500);
  const productIds = [...new Set(rows.map((r) => r.u.productId))];
  const prods = new Map<string, { p: ProductRow; pack: PackRow }>();
  for (const id of productIds) {
    const row = await productWithPack(db, id);
    if (row) prods.set(id, row);
  }
  // Sold out per distinct odds snapshot.
  const soldOutOf = new Map<string, boolean>();
  const version = rows.length ? await poolVersion(db) : '';
  for (const r of rows) {
    const k = `${r.u.packId}|${JSON.stringify(r.u.slots)}`;
    if (soldOutOf.has(k)) continue;
    const pack = prods.get(r.u.productId)!.pack;
    const pool = await readPool(db, version, r.u.slots, pack.pool);
    soldOutOf.set(k, r.u.slots.length === 0 || firstEmptyClass(r.u.slots, pool) !== null);
  }
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userPacks)
    .where(and(eq(userPacks.userId, userId), isNull(userPacks.openedAt)));
  return {
    items: rows.map((r) =>
      userPackDto(r.u.id, r.u.purchaseId, prods.get(r.u.productId)!.p, r.u.slots, r.u.createdAt, soldOutOf.get(`${r.u.packId}|${JSON.stringify(r.u.slots)}`)),
    ),
    total: Number(count?.n ?? 0),
  };
}
