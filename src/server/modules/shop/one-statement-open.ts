import { randomUUID } from 'node:crypto';
import { eq, fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { OpenResult, PackSlot } from '../../../shared/contracts/shop.ts';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { openings, purchases, userPacks } from '../../db/schema/shop.ts';
import { userSeeds } from '../fairness/tables.ts';
import { requestHash, storeKeySql } from '../../lib/idempotency.ts';
import { PG, pgCode } from '../../db/errors.ts';
import { poolStored, takeNoncesSql } from '../fairness/service.ts';
import { openedCopiesCte, takeStockCtes } from '../inventory/service.ts';
import { assignedSlabs, assignSlabsCtes, SLAB_JSON, type AssignedSlab } from '../inventory/slabs.ts';
import { debitCtes, debitValues } from '../wallet/service.ts';
import { forgetPools, forgetPoolVersion, lastPoolVersion, poolVersion } from './pools.ts';
import { confirmPublished, forgetOddsVersion, lastOddsVersion, oddsVersion, revisionPublished } from './revisions.ts';
import { openingsDto, productWithPack, type PackRow, type ProductRow } from './read.ts';
import {
  openingsOf,
  planDraws,
  purchaseDto,
  poolsFor,
  refsOf,
  revisionsFor,
  type Actor,
  type DrawSeed,
  type OpenOutcome,
  type TakenCard,
  type ToOpen,
} from './service.ts';
import { looksOf, type Looks } from '../catalog/look-cache.ts';
import { frozenJson } from '../../lib/frozen-json.ts';

/**
 * Buy-and-open in one statement: one round trip to the database, one implicit transaction.
 *
 * The general path (service.ts `openPacks` inside withIdempotency) reads the product, reserves
 * nonces, reads the pools, draws, takes the stock and writes everything: about a dozen round trips,
 * each waking a PostgreSQL backend, and on PGlite a dozen trips through WebAssembly. Almost all of
 * what it reads changes rarely: the product and its odds, the user's seed pair and next nonce, the
 * pool membership (versioned, pools.ts). So this path keeps them per process, draws in memory, and
 * sends one statement that re-checks every one of those guesses where the data lives and only then
 * counts as written:
 *
 * - the Idempotency-Key is new (else: replay, answered by the general path);
 * - the user is not self-excluded;
 * - the product is live, released, unlimited, and its price, name, pack, odds and pool rule are the
 *   ones drawn with;
 * - the seed pair is still active, with the client seed and next nonce drawn with (a concurrent
 *   opening of the same user moves the nonce, a new client seed changes the row: the conditional
 *   update then matches nothing);
 * - the pool version is the one drawn from; each drawn card has the copies and is emptied exactly
 *   when the draw says so (locked in id order after the user's balance row, as in the general
 *   path and in a sale, so none of them deadlock);
 * - the balance covers the price (the wallet's debit, as CTEs: wallet/service.ts `debitCtes`).
 *
 * Every check ends in `packvault_check` (migration 0007), which raises when one failed: PostgreSQL
 * then rolls back everything the statement wrote, and the reasons say which guess to forget. The
 * request then takes the general path, which answers every refusal with its own message. So this
 * path never decides anything the general path would decide differently; it only skips reads.
 *
 * Products with a per-person limit and opening owned packs always take the general path.
 */

interface CachedSeed extends DrawSeed {
  nextNonce: number;
}

const MAX_SEEDS = 50_000;
const MAX_PRODUCTS = 500;
const seeds = new Map<string, CachedSeed>();
const products = new Map<string, { p: ProductRow; pack: PackRow }>();

/**
 * An admin changed a product or pack (in any process: realtime/invalidation.ts). The statement
 * would refute a stale product guess anyway; forgetting it saves that wasted round trip.
 */
export function forgetProductGuesses() {
  products.clear();
}

function remember<K, V>(map: Map<K, V>, max: number, key: K, value: V) {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** The stored answer of a one-statement opening: the purchase to read back on a replay. */
export interface StoredOpen {
  openedPurchaseId: string;
}

export function isStoredOpen(body: unknown): body is StoredOpen {
  return typeof body === 'object' && body !== null && typeof (body as StoredOpen).openedPurchaseId === 'string';
}

/** Which guesses the statement refuted (packvault_check's message). */
function refuted(err: unknown): string[] {
  if (pgCode(err) !== PG.packvaultStockRace) return [];
  let e = err as { message?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < 4; i++) {
    if (typeof e.message === 'string' && /^[a-z_,]+$/.test(e.message)) return e.message.split(',');
    e = e.cause as typeof e;
  }
  return [];
}

async function productOf(db: Db, id: string) {
  const hit = products.get(id);
  if (hit) return hit;
  const row = await productWithPack(db, id);
  if (row) remember(products, MAX_PRODUCTS, id, row);
  return row;
}

/**
 * Built once: a user's first opening in a process reads the seed pair, and building the query with
 * the query builder each time cost more CPU than running it (a named statement on both drivers).
 */
const SEED_QUERY = new PgDialect().sqlToQuery(
  sql`select ${userSeeds.id} as "id", ${userSeeds.serverSeed} as "serverSeed", ${userSeeds.serverSeedHash} as "serverSeedHash",
    ${userSeeds.clientSeed} as "clientSeed", ${userSeeds.nextNonce} as "nextNonce"
  from ${userSeeds} where ${userSeeds.userId} = ${sql.placeholder('uid')} and ${userSeeds.active}`,
).sql;

async function seedOf(dbh: Deps['dbh'], userId: string): Promise<CachedSeed | null> {
  const hit = seeds.get(userId);
  if (hit) return hit;
  const [raw] = await dbh.run<{ id: string; serverSeed: string; serverSeedHash: string; clientSeed: string; nextNonce: number | string }>(SEED_QUERY, [userId]);
  if (!raw) return null;
  const row = { ...raw, nextNonce: Number(raw.nextNonce) };
  remember(seeds, MAX_SEEDS, userId, row);
  return row;
}

/** What the statement returns per card taken: the card's own columns (TAKEN_CARD_OWN_COLUMNS). */
type OwnTaken = Pick<TakenCard, 'id' | 'stock_after' | 'name' | 'set_name' | 'number' | 'value_cents' | 'image_key' | 'class_id' | 'architect_id' | 'texture_id' | 'graded'>;
const TAKEN_CARD_OWN_COLUMNS = 'c.name, c.set_name, c.number, c.value_cents, c.image_key, c.class_id, c.architect_id, c.texture_id, c.grading_company is not null as graded';

/** The taken cards as the general path returns them (TAKEN_CARD_COLUMNS): with class, frame and texture. */
function withLooks(rows: OwnTaken[], looks: Looks): TakenCard[] {
  return rows.map((r) => {
    const cls = looks.classes.get(r.class_id);
    const arch = looks.architects.get(r.architect_id);
    // Foreign keys keep both; a miss would be a bug in the cache, and the answer must not guess a look.
    if (!cls || !arch) throw new Error(`no look for card ${r.id} (class ${r.class_id}, architect ${r.architect_id})`);
    const textureId = r.texture_id ?? cls.defaultTextureId;
    const texture = textureId === null ? null : (looks.textures.get(textureId) ?? null);
    // Every field by name (no spread): one object shape for V8, whatever the driver's rows carry.
    return {
      id: r.id,
      stock_after: r.stock_after,
      name: r.name,
      set_name: r.set_name,
      number: r.number,
      value_cents: r.value_cents,
      image_key: r.image_key,
      class_id: r.class_id,
      architect_id: r.architect_id,
      texture_id: textureId,
      class_name: cls.name,
      class_colour: cls.colour,
      class_sort_order: cls.sortOrder,
      architect_frame_image_key: arch.frameImageKey,
      architect_layout: arch.layout,
      texture,
      graded: r.graded,
    };
  });
}

type Placeholder =
  | 'uid' | 'key' | 'request_hash' | 'stored' | 'at' | 'product_id' | 'pack_id' | 'price' | 'product_name' | 'slots' | 'pack_revision'
  | 'quantity' | 'seed_id' | 'next_nonce' | 'client_seed' | 'server_seed_hash' | 'pool_version' | 'odds_version' | 'want' | 'card_ids' | 'want_count'
  | 'purchase_id' | 'total' | 'entry_id' | 'packs' | 'owned' | 'openings' | 'rows_written';
const v = (name: Placeholder) => sql.placeholder(name);

/**
 * The statement, built once per process with placeholders: building SQL text from a template on
 * every request cost more than the rest of the request's own code.
 *
 * It returns what the opening wrote, not its realtime events: the route builds those from this
 * answer and publishes them after the commit (ADR 0019). Building them here as JSON, with a join
 * back to the cards taken, cost the database about 8 % of the statement (docs/performance.md,
 * "What bounds the figures").
 */
function statementSql(): SQL {
  return sql`
    with key as (
      ${storeKeySql({ userId: sql`${v('uid')}::text`, key: sql`${v('key')}::text`, requestHash: sql`${v('request_hash')}::text`, status: 201, body: sql`${v('stored')}::jsonb` })}
    ),
    excluded as (select 1 from "self_exclusions" where "user_id" = ${v('uid')}::text and "ends_at" > ${v('at')}::timestamptz limit 1),
    product as (
      select 1 from "products" p join "packs" k on k.id = p.pack_id
      where p.id = ${v('product_id')}::uuid and p.pack_id = ${v('pack_id')}::uuid and p.status = 'live'
        and (p.release_at is null or p.release_at <= ${v('at')}::timestamptz) and p.purchase_limit_per_user is null
        and p.price_cents = ${v('price')}::int and p.name = ${v('product_name')}::text and k.revision = ${v('pack_revision')}::int
    ),
    -- The user's balance row first, as every other money path of this user locks it (the general
    -- path, a sale): a sale holding the balance while waiting for a card this statement holds
    -- would otherwise deadlock with it. The "count >= 0" conditions below only make PostgreSQL
    -- take this lock before the seed and the cards (an init plan runs before the rows it gates).
    balance_lock as materialized (select 1 from "balances" where "user_id" = ${v('uid')}::text for update),
    nonces as (
      ${takeNoncesSql({
        seedId: sql`${v('seed_id')}::uuid`,
        userId: sql`${v('uid')}::text`,
        quantity: sql`${v('quantity')}::int`,
        nextNonce: sql`${v('next_nonce')}::int`,
        clientSeed: sql`${v('client_seed')}::text`,
        serverSeedHash: sql`${v('server_seed_hash')}::text`,
        gate: sql`(select count(*) from balance_lock) >= 0`,
      })}
    ),
    version as (
      select 1 from "catalog_state" where "id" = 1 and "pool_version" = ${v('pool_version')}::uuid and "odds_version" = ${v('odds_version')}::uuid
    ),
    want as (select * from json_to_recordset(${v('want')}::json) as w(id uuid, n integer, emptied boolean)),
    locked as materialized (
      select c.id from "cards" c where c.id = any(${v('card_ids')}::uuid[]) and (select count(*) from balance_lock) >= 0 order by c.id for update
    ),
    ${takeStockCtes({
      name: 'taken',
      want: sql`want`,
      // The card's own columns only: its class, frame and texture come from the process's look
      // cache (catalog/look-cache.ts), not from three joins per card taken.
      where: sql`c.id = any(${v('card_ids')}::uuid[]) and c.id in (select id from locked) and (c.stock = w.n) = w.emptied`,
      returning: sql.raw(TAKEN_CARD_OWN_COLUMNS),
      movement: { referenceType: sql`'purchase'`, referenceId: sql`${v('purchase_id')}::text`, actorId: sql`${v('uid')}::text`, at: sql`${v('at')}::timestamptz` },
    })},
    ${debitCtes()},
    purchase as (
      insert into ${purchases} ("id", "user_id", "product_id", "pack_id", "quantity", "unit_price_cents", "total_cents", "ledger_entry_id", "created_at")
      values (${v('purchase_id')}::uuid, ${v('uid')}::text, ${v('product_id')}::uuid, ${v('pack_id')}::uuid, ${v('quantity')}::int, ${v('price')}::int,
        ${v('total')}::int, ${v('entry_id')}::uuid, ${v('at')}::timestamptz)
      returning 1
    ),
    packs as (
      insert into ${userPacks} ("id", "user_id", "purchase_id", "product_id", "pack_id", "slots", "opening_id", "opened_at", "created_at")
      select u.id, ${v('uid')}::text, ${v('purchase_id')}::uuid, ${v('product_id')}::uuid, ${v('pack_id')}::uuid, ${v('slots')}::jsonb, u.opening_id,
        ${v('at')}::timestamptz, ${v('at')}::timestamptz
      from json_to_recordset(${v('packs')}::json) as u(id uuid, opening_id uuid)
      returning 1
    ),
    owned as (select * from json_to_recordset(${v('owned')}::json) as y(id uuid, card_id uuid, opening_id uuid, slot integer)),
    opened as (
      insert into ${openings} ("id", "user_id", "user_pack_id", "purchase_id", "product_id", "pack_id", "seed_id", "server_seed_hash",
        "client_seed", "nonce", "slots", "odds_hash", "pool_hash", "revision_hash", "draws", "total_value_cents", "created_at")
      select x.id, ${v('uid')}::text, x.user_pack_id, ${v('purchase_id')}::uuid, ${v('product_id')}::uuid, ${v('pack_id')}::uuid, ${v('seed_id')}::uuid,
        ${v('server_seed_hash')}::text, ${v('client_seed')}::text, x.nonce, ${v('slots')}::jsonb, x.odds_hash, x.pool_hash, x.revision_hash, x.draws,
        (select coalesce(sum(t.value_cents), 0) from owned y join taken t on t.id = y.card_id where y.opening_id = x.id), ${v('at')}::timestamptz
      from json_to_recordset(${v('openings')}::json) as x(id uuid, user_pack_id uuid, nonce integer, odds_hash text, pool_hash text, revision_hash text, draws jsonb)
      -- Only with the nonces reserved: a stale nonce then reads as 'seed', not as a duplicate.
      where exists (select 1 from nonces)
      returning 1
    ),
    ${openedCopiesCte({
      name: 'cards_owned',
      from: sql`owned y join taken t on t.id = y.card_id`,
      columns: {
        id: sql`y.id`,
        cardId: sql`y.card_id`,
        ownerId: sql`${v('uid')}::text`,
        valueCents: sql`t.value_cents`,
        openingId: sql`y.opening_id`,
        productId: sql`${v('product_id')}::uuid`,
        slot: sql`y.slot`,
        at: sql`${v('at')}::timestamptz`,
      },
    })},
    -- A graded card's copy is one specific slab (issue 38): its slabs in stock are locked after
    -- the cards (the gate), numbered and given to the new copies. A raw card has none: one empty
    -- probe of card_slabs_in_stock_idx per card drawn.
    ${assignSlabsCtes({
      name: 'slab',
      copies: sql`owned`,
      cardIds: sql`${v('card_ids')}::uuid[]`,
      need: sql`select count(*) as n from owned y join taken t on t.id = y.card_id where t.graded`,
      gate: sql`(select count(*) from locked) >= 0`,
    })},
    refuted as (
      select concat_ws(',',
        case when not exists (select 1 from key) then 'replay' end,
        case when exists (select 1 from excluded) then 'excluded' end,
        case when not exists (select 1 from product) then 'product' end,
        case when not exists (select 1 from nonces) then 'seed' end,
        case when not exists (select 1 from version) then 'pool' end,
        case when (select count(*) from taken) <> ${v('want_count')}::int or (select count(*) from slab) <> (select n from slab_need) then 'stock' end,
        case when not exists (select 1 from debit) then 'funds' end,
        case when (select count(*) from purchase) + (select count(*) from packs) + (select count(*) from opened) + (select count(*) from cards_owned)
          <> ${v('rows_written')}::int then 'rows' end
      ) as reasons
    )
    select packvault_check(r.reasons = '', r.reasons) as ok, (select "balance_after" from debit) as balance_cents, (select json_agg(taken) from taken) as cards,
      (select json_agg(${SLAB_JSON}) from slab s) as slabs
    from refuted r`;
}

let compiledStatement: { sql: string; params: unknown[] } | undefined;
function compiled() {
  return (compiledStatement ??= new PgDialect().sqlToQuery(statementSql()));
}

/**
 * Opens `quantity` packs of `productId` for `actor` in one statement. Returns null when the
 * request must take the general path (a guess was wrong, a refusal, a limited product, a pool
 * snapshot not stored yet); nothing has been written then.
 */
export async function openInOneStatement(
  deps: Pick<Deps, 'db' | 'dbh'>,
  actor: Actor & { username?: string | undefined },
  input: { productId: string; quantity: number },
  idempotencyKey: string,
): Promise<OpenOutcome | null> {
  const done = await attempt(deps, actor, input, idempotencyKey);
  // The general path takes this request and moves the user's nonce: the cached one is spent.
  if (!done) seeds.delete(actor.userId);
  return done;
}

async function attempt(
  deps: Pick<Deps, 'db' | 'dbh'>,
  actor: Actor & { username?: string | undefined },
  input: { productId: string; quantity: number },
  idempotencyKey: string,
): Promise<OpenOutcome | null> {
  const { db } = deps;
  const now = new Date();
  const row = await productOf(db, input.productId);
  if (!row) return null;
  const { p, pack } = row;
  if (p.status !== 'live' || (p.releaseAt && p.releaseAt > now) || p.purchaseLimitPerUser !== null || pack.slots.length === 0) {
    // The general path answers (or sells a limited product); read the product afresh next time.
    products.delete(p.id);
    return null;
  }
  const seed = await seedOf(deps.dbh, actor.userId);
  if (!seed) return null;
  const version = lastPoolVersion() ?? (await poolVersion(db));

  const purchaseId = randomUUID();
  const items: ToOpen[] = Array.from({ length: input.quantity }, () => ({
    userPackId: randomUUID(),
    openingId: randomUUID(),
    purchaseId,
    product: p,
    pack,
    slots: pack.slots,
  }));
  let plan;
  try {
    plan = await planDraws(seed, seed.nextNonce, items, await poolsFor(db as DbOrTx, version, items));
  } catch {
    // A stale stock hint (StockRace) or sold out: the general path reads afresh and answers.
    return null;
  }
  // A pool snapshot is written once by the general path; until then its openings go that way.
  if (!plan.drawn.every((d) => poolStored(d.poolHash))) return null;
  // The odds revision: computed once per catalogue odds version, published by the general path (or
  // an admin's edit) before this path draws under it; the statement re-checks the version, and
  // the openings' foreign key the publication.
  const oddsV = lastOddsVersion() ?? (await oddsVersion(db));
  let revisions;
  try {
    revisions = await revisionsFor(db as DbOrTx, oddsV, plan);
  } catch {
    forgetOddsVersion();
    return null;
  }
  for (const r of revisions) if (!revisionPublished(r.hash) && !(await confirmPublished(db, r.hash))) return null;

  const entryId = randomUUID();
  const total = p.priceCents * input.quantity;
  const ownedIds = plan.drawn.map((d) => d.draws.map(() => randomUUID()));
  const want = [...plan.want].map(([id, n]) => ({ id, n, emptied: plan.emptied.get(id)! }));
  // The ids again as an array literal: a recordset's row count is unknown to the planner of a
  // prepared statement (it guesses 100 and scans the cards); `= any(array)` is an index lookup.
  const cardIds = `{${want.map((w) => w.id).join(',')}}`;
  const packsJson = items.map((i) => ({ id: i.userPackId, opening_id: i.openingId }));
  const openingsJson = plan.drawn.map((d) => ({
    id: d.item.openingId,
    user_pack_id: d.item.userPackId,
    nonce: d.nonce,
    odds_hash: d.oddsHash,
    pool_hash: d.poolHash,
    revision_hash: d.revisionHash,
    draws: d.draws,
  }));
  const ownedJson = plan.drawn.flatMap((d, i) => d.draws.map((r, j) => ({ id: ownedIds[i]![j]!, card_id: r.cardId, opening_id: d.item.openingId, slot: r.slot })));
  const rowsWritten = 1 + items.length * 2 + ownedJson.length;
  const slots = frozenJson(pack.slots satisfies PackSlot[]);
  const at = now.toISOString();
  const uid = actor.userId;
  const stored: StoredOpen = { openedPurchaseId: purchaseId };
  const statement = compiled();
  const values: Record<Placeholder, unknown> & ReturnType<typeof debitValues> = {
    uid,
    key: idempotencyKey,
    request_hash: requestHash('POST /api/shop/open', input),
    stored: JSON.stringify(stored),
    at,
    product_id: p.id,
    pack_id: pack.id,
    price: p.priceCents,
    product_name: p.name,
    slots,
    pack_revision: pack.revision,
    quantity: input.quantity,
    seed_id: seed.id,
    next_nonce: seed.nextNonce,
    client_seed: seed.clientSeed,
    server_seed_hash: seed.serverSeedHash,
    pool_version: version,
    odds_version: oddsV,
    want: JSON.stringify(want),
    card_ids: cardIds,
    want_count: want.length,
    purchase_id: purchaseId,
    total,
    entry_id: entryId,
    packs: JSON.stringify(packsJson),
    owned: JSON.stringify(ownedJson),
    openings: JSON.stringify(openingsJson),
    rows_written: rowsWritten,
    ...debitValues({
      entryId,
      userId: uid,
      amountCents: total,
      kind: 'pack_purchase',
      referenceType: 'purchase',
      referenceId: purchaseId,
      actorId: uid,
      idempotencyKey,
      memo: `${input.quantity} × ${p.name}`,
    }),
  };

  type Row = { ok: boolean; balance_cents: string | number; cards: OwnTaken[]; slabs: AssignedSlab[] | string | null };
  let result: Row | undefined;
  try {
    [result] = await deps.dbh.run<Row>(statement.sql, fillPlaceholders(statement.params, values));
  } catch (err) {
    // Any refusal by the database rolled the whole statement back. Besides our checks that is a
    // unique key (the ledger's Idempotency-Key index answers a replay before packvault_check
    // does), a deadlock or a serialization failure: the general path answers or retries each.
    if (pgCode(err) === undefined) throw err;
    const reasons = refuted(err);
    if (reasons.length === 0 || reasons.includes('product')) products.delete(p.id);
    if (reasons.length === 0 || reasons.includes('pool')) {
      forgetPoolVersion();
      forgetOddsVersion();
    }
    if (reasons.includes('stock')) forgetPools();
    return null;
  }
  // The final SELECT always gives one row with ok = true when nothing raised.
  if (!result?.ok) throw new Error('the opening statement answered without its result row');
  remember(seeds, MAX_SEEDS, uid, { ...seed, nextNonce: seed.nextNonce + input.quantity });

  const cards = withLooks(
    result.cards,
    await looksOf(db, result.cards.map((t) => ({ classId: t.class_id, architectId: t.architect_id, textureId: t.texture_id }))),
  );
  const taken = new Map(cards.map((t) => [t.id, t]));
  const slabs = result.slabs === null ? undefined : new Map(assignedSlabs(result.slabs).map((sl) => [sl.ownedCardId, sl]));
  const opened = openingsOf(plan, taken, seed, now, (i, j) => ownedIds[i]![j]!, slabs);
  const balanceCents = Number(result.balance_cents);
  return {
    openings: opened,
    purchase: purchaseDto(
      { id: purchaseId, productId: p.id, quantity: input.quantity, unitPriceCents: p.priceCents, totalCents: total, ledgerEntryId: entryId, createdAt: now },
      p.name,
      balanceCents,
    ),
    balanceCents,
    poolHashes: [],
    refs: refsOf(cards),
  };
}

/** The answer of a one-statement opening, read back for a replay of its Idempotency-Key. */
export async function storedOpenResult(db: Db, stored: StoredOpen): Promise<Omit<OpenResult, 'refs'>> {
  const [row] = await db.select().from(purchases).where(eq(purchases.id, stored.openedPurchaseId));
  if (!row) throw new Error('stored opening without its purchase');
  const [openingRows, entry, product] = await Promise.all([
    db.select().from(openings).where(eq(openings.purchaseId, row.id)).orderBy(openings.nonce),
    db.execute(sql`select "balance_after" from "ledger_entries" where "id" = ${row.ledgerEntryId}::uuid`),
    productWithPack(db, row.productId),
  ]);
  const balanceCents = Number(rowsOf<{ balance_after: string | number }>(entry)[0]?.balance_after ?? 0);
  return {
    openings: await openingsDto(db, openingRows),
    purchase: purchaseDto(row, product?.p.name ?? '', balanceCents),
    balanceCents,
  };
}
