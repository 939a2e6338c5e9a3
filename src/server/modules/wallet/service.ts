import { centsToDecimal } from '../../../shared/money.ts';
import { toCsv } from '../../lib/csv.ts';
import { and, count, desc, eq, getViewSelectedFields, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { dayEnd } from '../../../shared/contracts/dates.ts';
import { HOUSE_ACCOUNTS, kindMayTouch, type HistoryPage, type HouseAccount, type LedgerEntry, type LedgerKind, type PurchaseRef } from '../../../shared/contracts/wallet.ts';
import { afterCommit, type CommitEvent } from '../../db/after-commit.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { balances, journalEntries, ledgerAccounts, ledgerEntries, postings } from '../../db/schema/wallet.ts';
import { openings, purchases } from '../shop/tables.ts';
import { AppError } from '../../http/errors.ts';

/**
 * The only code that moves money. Every other module (deposits, promo codes, pack purchases,
 * buyback, shipping) calls credit()/debit() inside its own transaction, so the money moves
 * atomically with that module's writes:
 *
 *   await deps.db.transaction(async (tx) => {
 *     await assertCanSpend(tx, userId);            // responsible play
 *     await debit(tx, { userId, amountCents, kind: 'pack_purchase', referenceType: 'opening', … });
 *     …insert the opening…
 *   });
 *
 * Each move is one journal entry with two postings (docs/decisions/0010-double-entry-ledger.md):
 * the user's wallet and a house account (`counter`, by default the one of the move's kind), in
 * one statement that also updates the cached balance row. The database refuses at commit an
 * entry whose postings don't sum to zero.
 *
 * Insufficient funds is a 409 with code 'insufficient_funds' (the whole transaction rolls back).
 * Every move announces the new balance ('balance.changed' to `user:<id>`) once its transaction
 * commits (db/after-commit.ts): the last balance per user, whichever transaction moved it.
 */

export { HOUSE_ACCOUNTS, type HouseAccount } from '../../../shared/contracts/wallet.ts';

/** Where the other side of a move goes when the caller doesn't say (none: a hold's other side is the user's own hold account). */
export const COUNTER_ACCOUNT: Record<LedgerKind, HouseAccount | null> = {
  deposit: 'clearing:sandbox',
  refund: 'clearing:sandbox',
  pack_purchase: 'pack_sales',
  buyback: 'buyback_expense',
  shipping_fee: 'shipping_fees',
  shipping_refund: 'shipping_refunds',
  promo_credit: 'promo_expense',
  referral_reward: 'referral_expense',
  referral_clawback: 'referral_expense',
  admin_adjustment: 'admin_adjustments',
  market_sale: 'market_fees',
  market_hold: null,
  market_release: null,
};

/** The clearing account of a payment provider (deposits and their refunds). */
export function clearingAccount(provider: string): HouseAccount {
  const code = `clearing:${provider}`;
  if (!(HOUSE_ACCOUNTS as readonly string[]).includes(code)) throw new RangeError(`No clearing account for provider ${provider}`);
  return code as HouseAccount;
}

export interface MoneyMove {
  userId: string;
  /** Positive whole cents; the sign comes from credit/debit. */
  amountCents: number;
  kind: LedgerKind;
  /** The house account on the other side; defaults to COUNTER_ACCOUNT[kind]. */
  counter?: HouseAccount;
  referenceType?: string | null;
  referenceId?: string | null;
  /** Who caused it (the user, an admin); null for the system, e.g. a payment webhook. */
  actorId?: string | null;
  /** Unique per user across the ledger: a second move with the same key fails the transaction. */
  idempotencyKey?: string | null;
  memo?: string | null;
}

export interface MoveResult {
  entryId: string;
  balanceCents: number;
}

export const insufficientFunds = (neededCents?: number) =>
  new AppError(
    409,
    'insufficient_funds',
    neededCents !== undefined
      ? 'Your balance is too low for this. Add funds on the billing page and try again.'
      : 'Your balance is too low for this.',
  );

function checkAmount(amountCents: number) {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new RangeError(`A money move needs a positive whole number of cents, got ${amountCents}`);
  }
}

/**
 * The move's house account, refused (a programming error, so a plain Error and a 500) when its kind
 * may not touch it (KIND_HOUSE_ACCOUNTS): a misrouted entry would balance and pass every other check.
 */
function counterOf(move: MoneyMove): HouseAccount {
  const counter = move.counter ?? COUNTER_ACCOUNT[move.kind];
  if (counter === null || !kindMayTouch(move.kind, counter)) throw new MisroutedEntryError(move.kind, counter ?? '(none)');
  return counter;
}

export class MisroutedEntryError extends Error {
  constructor(
    readonly kind: LedgerKind,
    readonly account: string,
  ) {
    super(`A ${kind} entry may not post to the house account ${account} (KIND_HOUSE_ACCOUNTS)`);
    this.name = 'MisroutedEntryError';
  }
}
/** Idempotency keys were unique per user; the journal has one index, so the key names the wallet. */
const scopedKey = (move: MoneyMove) => (move.idempotencyKey ? `${move.userId}:${move.idempotencyKey}` : null);

/** The 'balance.changed' event of a balance: the last one of a transaction per user is sent. */
export const balanceEvent = (userId: string, balanceCents: number): CommitEvent => ({
  topic: `user:${userId}`,
  type: 'balance.changed',
  data: { balanceCents },
  key: `balance:${userId}`,
});

/** The user's open pages hear the balance once the transaction commits. */
const remember = (tx: DbOrTx, userId: string, balanceCents: number) => afterCommit(tx, balanceEvent(userId, balanceCents));

/**
 * Creates the user's wallet account and its balance row at zero, if missing (one statement).
 * A wallet takes the currency of the house accounts: one currency per deployment.
 */
async function ensureWallet(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`
    with acct as (
      insert into ${ledgerAccounts} ("kind", "user_id", "currency")
      select 'user_wallet', ${userId}::text, "currency" from ${ledgerAccounts} where "code" = 'pack_sales'
      on conflict ("kind", "user_id") do nothing
      returning "id"
    )
    insert into ${balances} ("user_id", "account_id", "cents") select ${userId}::text, "id", 0 from acct
    on conflict ("user_id") do nothing`);
}

type Row = { id: string; balance_after: string | number };
const rowsOf = (rows: unknown): Row[] => (Array.isArray(rows) ? rows : (rows as { rows: Row[] }).rows);

/**
 * One entry, two postings and the cached balance, in one statement: `b` moves the balance (a
 * debit only where enough is left), `e` writes the entry, `h` the house account's posting (a
 * missing house account fails loudly on its NOT NULL), and the last insert the wallet's.
 */
async function move(tx: DbOrTx, m: MoneyMove, signed: number): Promise<Row | undefined> {
  const rows = await tx.execute<Row>(sql`
    with b as (
      update ${balances} set "cents" = "cents" + ${signed}::bigint, "updated_at" = now()
      where "user_id" = ${m.userId}::text and "cents" + ${signed}::bigint >= 0
      returning "cents", "account_id"
    ),
    e as (
      insert into ${journalEntries} ("kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "memo")
      select ${m.kind}::ledger_kind, ${m.referenceType ?? null}::text, ${m.referenceId ?? null}::text, ${m.actorId ?? null}::text,
        ${scopedKey(m)}::text, ${m.memo ?? null}::text
      from b
      returning "id"
    ),
    h as (
      insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency")
      select e."id", a."id", ${-signed}::bigint, a."currency" from e left join ${ledgerAccounts} a on a."code" = ${counterOf(m)}::text
      returning "currency"
    )
    insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
    select e."id", b."account_id", ${signed}::bigint, h."currency", b."cents" from e, b, h
    returning "entry_id" as "id", "balance_after"`);
  return rowsOf(rows)[0];
}

/** Adds money. The wallet is created on first use; its balance row stays locked until the commit. */
export async function credit(tx: Tx | Db, m: MoneyMove): Promise<MoveResult> {
  checkAmount(m.amountCents);
  let row = await move(tx, m, m.amountCents);
  if (!row) {
    await ensureWallet(tx, m.userId);
    row = await move(tx, m, m.amountCents);
  }
  if (!row) throw new Error(`credit found no balance row for ${m.userId}`);
  const balanceCents = Number(row.balance_after);
  await remember(tx, m.userId, balanceCents);
  return { entryId: row.id, balanceCents };
}

/**
 * Takes money with one conditional UPDATE (never read-then-write): it either finds enough and
 * subtracts under the row lock, or matches nothing and we answer insufficient funds. The entry
 * and its postings are written by the same statement (data-modifying CTEs): a pack opening pays
 * one round trip for the money, not two.
 */
export async function debit(tx: Tx | Db, m: MoneyMove): Promise<MoveResult> {
  checkAmount(m.amountCents);
  const row = await move(tx, m, -m.amountCents);
  if (!row) throw insufficientFunds(m.amountCents);
  const balanceCents = Number(row.balance_after);
  await remember(tx, m.userId, balanceCents);
  return { entryId: row.id, balanceCents };
}

/**
 * The same debit as CTEs, for a caller that settles a whole purchase in one statement built
 * once (shop/one-statement-open.ts): `debit_balance` takes the money where enough is left,
 * `debit_entry` writes the journal entry, `debit_house` the house account's posting and `debit`
 * the wallet's, returning "id" (the entry) and "balance_after". The values are drizzle
 * placeholders, filled from `debitValues(move)`. `debit` returning no row means insufficient
 * funds: the caller must then fail its statement (nothing is taken). After the commit the caller
 * publishes the balance (`publishBalance`, or a NOTIFY in the same statement).
 */
export function debitCtes(): SQL {
  const v = (name: keyof ReturnType<typeof debitValues>) => sql.placeholder(name);
  return sql`debit_balance as (
      update ${balances} set "cents" = "cents" - ${v('debit_amount')}::bigint, "updated_at" = now()
      where "user_id" = ${v('debit_user')}::text and "cents" >= ${v('debit_amount')}::bigint
      returning "cents", "account_id"
    ),
    debit_entry as (
      insert into ${journalEntries} ("id", "kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "memo")
      select ${v('debit_entry')}::uuid, ${v('debit_kind')}::ledger_kind, ${v('debit_ref_type')}::text, ${v('debit_ref_id')}::text,
        ${v('debit_actor')}::text, ${v('debit_key')}::text, ${v('debit_memo')}::text
      from debit_balance
      returning "id"
    ),
    debit_house as (
      insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency")
      select e."id", a."id", ${v('debit_amount')}::bigint, a."currency"
      from debit_entry e left join ${ledgerAccounts} a on a."code" = ${v('debit_counter')}::text
      returning "currency"
    ),
    debit as (
      insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
      select e."id", b."account_id", -${v('debit_amount')}::bigint, h."currency", b."cents"
      from debit_entry e, debit_balance b, debit_house h
      returning "entry_id" as "id", "balance_after"
    )`;
}

/** The placeholder values of `debitCtes` for one move (checked like every debit). */
export function debitValues(move: MoneyMove & { entryId: string }) {
  checkAmount(move.amountCents);
  return {
    debit_entry: move.entryId,
    debit_user: move.userId,
    debit_amount: move.amountCents,
    debit_kind: move.kind,
    debit_counter: counterOf(move),
    debit_ref_type: move.referenceType ?? null,
    debit_ref_id: move.referenceId ?? null,
    debit_actor: move.actorId ?? null,
    debit_key: scopedKey(move),
    debit_memo: move.memo ?? null,
  };
}

/**
 * A marketplace sale (ADR 0028) as one journal entry of three postings: the buyer's wallet −price
 * (only where enough is left: a conditional UPDATE, else 409 insufficient_funds), the seller's
 * wallet +(price − fee) and the house's `market_fees` +fee (no posting when the fee is 0). The
 * caller locks both balance rows first, in user id order (`lockBalance`), so two sales between
 * the same two people in opposite directions queue instead of deadlocking.
 */
export async function settleTrade(
  tx: Tx,
  t: {
    buyerId: string;
    sellerId: string;
    priceCents: number;
    feeCents: number;
    referenceType: string;
    referenceId: string;
    actorId: string;
    /** Scoped to the buyer's wallet, like a debit's. */
    idempotencyKey?: string | null;
    memo?: string | null;
  },
): Promise<{ entryId: string; buyerBalanceCents: number; sellerBalanceCents: number }> {
  checkAmount(t.priceCents);
  if (!Number.isSafeInteger(t.feeCents) || t.feeCents < 0 || t.feeCents > t.priceCents) throw new RangeError(`A fee of ${t.feeCents} on ${t.priceCents}`);
  if (t.buyerId === t.sellerId) throw new RangeError('A trade needs two wallets');
  const proceeds = t.priceCents - t.feeCents;
  // The market_fees house account is made on first use: its account kind is a value the
  // migration added, which PostgreSQL does not let the same migration use.
  if (t.feeCents > 0) {
    await tx.execute(sql`
      insert into ${ledgerAccounts} ("kind", "code", "currency")
      select 'market_fees', 'market_fees', "currency" from ${ledgerAccounts} where "code" = 'pack_sales'
      on conflict ("code") do nothing`);
  }
  await ensureWallet(tx, t.sellerId);
  const [buyer] = rowsOf(
    await tx.execute(sql`
      update ${balances} set "cents" = "cents" - ${t.priceCents}::bigint, "updated_at" = now()
      where "user_id" = ${t.buyerId}::text and "cents" >= ${t.priceCents}::bigint
      returning "account_id" as "id", "cents" as "balance_after"`),
  );
  if (!buyer) throw insufficientFunds(t.priceCents);
  const [seller] = rowsOf(
    await tx.execute(sql`
      update ${balances} set "cents" = "cents" + ${proceeds}::bigint, "updated_at" = now()
      where "user_id" = ${t.sellerId}::text
      returning "account_id" as "id", "cents" as "balance_after"`),
  );
  if (!seller) throw new Error(`settleTrade found no balance row for ${t.sellerId}`);
  const key = t.idempotencyKey ? `${t.buyerId}:${t.idempotencyKey}` : null;
  const [entry] = await tx
    .insert(journalEntries)
    .values({ kind: 'market_sale', referenceType: t.referenceType, referenceId: t.referenceId, actorId: t.actorId, idempotencyKey: key, memo: t.memo ?? null })
    .returning({ id: journalEntries.id });
  const entryId = entry!.id;
  await tx.execute(sql`
    insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
    select ${entryId}::uuid, a."id", v.amount, a."currency", v.after
    from (values (${buyer.id}::uuid, ${-t.priceCents}::bigint, ${buyer.balance_after}::bigint),
                 (${seller.id}::uuid, ${proceeds}::bigint, ${seller.balance_after}::bigint)) as v(account_id, amount, after)
    join ${ledgerAccounts} a on a."id" = v.account_id
    where v.amount <> 0
    union all
    select ${entryId}::uuid, a."id", ${t.feeCents}::bigint, a."currency", null
    from ${ledgerAccounts} a where a."code" = 'market_fees' and ${t.feeCents}::bigint > 0`);
  const buyerBalanceCents = Number(buyer.balance_after);
  const sellerBalanceCents = Number(seller.balance_after);
  await remember(tx, t.buyerId, buyerBalanceCents);
  await remember(tx, t.sellerId, sellerBalanceCents);
  return { entryId, buyerBalanceCents, sellerBalanceCents };
}

// Holds (ADR 0028 part 2) ---------------------------------------------------------------------

export interface HoldMove {
  userId: string;
  amountCents: number;
  /** What the money is held for, e.g. 'market_offer' and its id. */
  referenceType: string;
  referenceId: string;
  actorId?: string | null;
  /** Scoped to the user's wallet, like a debit's. */
  idempotencyKey?: string | null;
  memo?: string | null;
}

/** Makes the user's hold account (and their wallet) if missing, and returns the balance row's hold account id. */
async function ensureHoldAccount(tx: DbOrTx, userId: string): Promise<void> {
  await ensureWallet(tx, userId);
  await tx.execute(sql`
    with acct as (
      insert into ${ledgerAccounts} ("kind", "user_id", "currency")
      select 'user_hold', ${userId}::text, "currency" from ${ledgerAccounts} where "code" = 'pack_sales'
      on conflict ("kind", "user_id") do nothing
      returning "id"
    )
    update ${balances} b set "hold_account_id" = coalesce(
      (select "id" from acct),
      (select "id" from ${ledgerAccounts} where "kind" = 'user_hold' and "user_id" = ${userId}::text))
    where b."user_id" = ${userId}::text and b."hold_account_id" is null`);
}

/**
 * Moves money between the wallet and the user's own hold account, with the cached figures, in one
 * statement: `signed` < 0 holds (only where the free balance covers it), > 0 releases (only where
 * that much is held). Returns no row when refused.
 */
async function holdMove(tx: DbOrTx, kind: 'market_hold' | 'market_release', m: HoldMove, signed: number): Promise<Row | undefined> {
  const rows = await tx.execute<Row>(sql`
    with b as (
      update ${balances} set "cents" = "cents" + ${signed}::bigint, "held_cents" = "held_cents" - ${signed}::bigint, "updated_at" = now()
      where "user_id" = ${m.userId}::text and "hold_account_id" is not null
        and "cents" + ${signed}::bigint >= 0 and "held_cents" - ${signed}::bigint >= 0
      returning "cents", "account_id", "hold_account_id"
    ),
    e as (
      insert into ${journalEntries} ("kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "memo")
      select ${kind}::ledger_kind, ${m.referenceType}::text, ${m.referenceId}::text, ${m.actorId ?? null}::text,
        ${m.idempotencyKey ? `${m.userId}:${m.idempotencyKey}` : null}::text, ${m.memo ?? null}::text
      from b
      returning "id"
    ),
    h as (
      insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency")
      select e."id", a."id", ${-signed}::bigint, a."currency" from e, b join ${ledgerAccounts} a on a."id" = b."hold_account_id"
      returning "currency"
    )
    insert into ${postings} ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
    select e."id", b."account_id", ${signed}::bigint, h."currency", b."cents" from e, b, h
    returning "entry_id" as "id", "balance_after"`);
  return rowsOf(rows)[0];
}

/**
 * Holds money for an offer (ADR 0028 part 2): one `market_hold` entry moves it from the wallet to
 * the user's hold account. The free balance (`balances.cents`) drops, so no other debit can spend
 * it (their conditional updates and the `>= 0` check see only free money); `held_cents` rises.
 * 409 insufficient_funds when the free balance is short (nothing moved).
 */
export async function holdFunds(tx: Tx | Db, m: HoldMove): Promise<MoveResult> {
  checkAmount(m.amountCents);
  let row = await holdMove(tx, 'market_hold', m, -m.amountCents);
  if (!row) {
    await ensureHoldAccount(tx, m.userId);
    row = await holdMove(tx, 'market_hold', m, -m.amountCents);
  }
  if (!row) throw insufficientFunds(m.amountCents);
  const balanceCents = Number(row.balance_after);
  await remember(tx, m.userId, balanceCents);
  return { entryId: row.id, balanceCents };
}

/**
 * Gives held money back to the wallet (`market_release`). Releasing more than is held is a
 * programming error (the offer's own held amount is what the caller releases), so it throws.
 */
export async function releaseHold(tx: Tx | Db, m: HoldMove): Promise<MoveResult> {
  checkAmount(m.amountCents);
  const row = await holdMove(tx, 'market_release', m, m.amountCents);
  if (!row) throw new Error(`releaseHold: ${m.userId} does not hold ${m.amountCents} (${m.referenceType} ${m.referenceId})`);
  const balanceCents = Number(row.balance_after);
  await remember(tx, m.userId, balanceCents);
  return { entryId: row.id, balanceCents };
}

/**
 * Locks the user's balance row (creating it at zero) and returns it. For the few flows that must
 * decide on the current balance, e.g. clawing back a refund only up to what is left, and to
 * serialize one user's deposit requests.
 */
export async function lockBalance(tx: Tx, userId: string): Promise<number> {
  let [row] = await tx.select({ cents: balances.cents }).from(balances).where(eq(balances.userId, userId)).for('update');
  if (row) return Number(row.cents);
  await ensureWallet(tx, userId);
  [row] = await tx
    .select({ cents: balances.cents })
    .from(balances)
    .where(eq(balances.userId, userId))
    .for('update');
  return Number(row!.cents);
}

// Reads ------------------------------------------------------------------------------------

/** The free balance (what can be spent) and what open offers hold (ADR 0028 part 2). */
export async function getBalance(db: DbOrTx, userId: string): Promise<{ balanceCents: number; heldCents: number; updatedAt: Date | null }> {
  const [row] = await db
    .select({ cents: balances.cents, held: balances.heldCents, updatedAt: balances.updatedAt })
    .from(balances)
    .where(eq(balances.userId, userId));
  return { balanceCents: row ? Number(row.cents) : 0, heldCents: row ? Number(row.held) : 0, updatedAt: row?.updatedAt ?? null };
}

/** A user's wallet movements summed per kind of entry (signed cents; kinds without any are absent). */
export async function totalsByKind(db: DbOrTx, userId: string): Promise<Partial<Record<LedgerKind, number>>> {
  const rows = await db
    .select({ kind: ledgerEntries.kind, total: sql<string>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .groupBy(ledgerEntries.kind);
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.total)]));
}

export interface HistoryFilter {
  kind?: LedgerKind[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  pageSize: number;
}

/** Dates are calendar days in UTC; `to` is inclusive. */
function historyWhere(userId: string, f: Omit<HistoryFilter, 'page' | 'pageSize'>): SQL {
  const conds: SQL[] = [eq(ledgerEntries.userId, userId)];
  if (f.kind?.length) conds.push(inArray(ledgerEntries.kind, f.kind));
  if (f.from) conds.push(gte(ledgerEntries.createdAt, new Date(`${f.from}T00:00:00Z`)));
  if (f.to) conds.push(lt(ledgerEntries.createdAt, dayEnd(f.to)));
  return and(...conds)!;
}

/**
 * A pack purchase's packs and the openings they became, read in the history's own query (one
 * correlated subquery per row of the page, on purchases' key and openings_purchase_idx).
 */
const purchaseRef = sql<PurchaseRef | string | null>`case when ${ledgerEntries.referenceType} = 'purchase'
  and ${ledgerEntries.referenceId} ~ '^[0-9a-fA-F-]{36}$' then (
    select json_build_object('packs', p.quantity, 'openingIds', coalesce(
      (select json_agg(o.id order by o.created_at, o.id) from ${openings} o where o.purchase_id = p.id), '[]'::json))
    from ${purchases} p where p.id = ${ledgerEntries.referenceId}::uuid
  ) end`;

function toPurchaseRef(v: PurchaseRef | string | null | undefined): PurchaseRef | null {
  if (v === null || v === undefined) return null;
  const o = (typeof v === 'string' ? JSON.parse(v) : v) as PurchaseRef;
  return { packs: Number(o.packs), openingIds: (o.openingIds ?? []).map(String) };
}

export function toLedgerEntry(row: typeof ledgerEntries.$inferSelect & { purchase?: PurchaseRef | string | null }): LedgerEntry {
  return {
    id: row.id,
    amountCents: Number(row.amountCents),
    kind: row.kind,
    referenceType: row.referenceType,
    referenceId: row.referenceId,
    actorId: row.actorId,
    balanceAfter: Number(row.balanceAfter),
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    purchase: toPurchaseRef(row.purchase),
  };
}

export async function listHistory(db: DbOrTx, userId: string, f: HistoryFilter): Promise<HistoryPage> {
  const where = historyWhere(userId, f);
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...getViewSelectedFields(ledgerEntries), purchase: purchaseRef })
      .from(ledgerEntries)
      .where(where)
      .orderBy(desc(ledgerEntries.seq))
      .limit(f.pageSize)
      .offset((f.page - 1) * f.pageSize),
    db.select({ n: count() }).from(ledgerEntries).where(where),
  ]);
  return { entries: rows.map(toLedgerEntry), page: f.page, pageSize: f.pageSize, total: Number(total?.n ?? 0) };
}

const CSV_MAX_ROWS = 50_000;

/** The whole filtered history as CSV (newest first, capped at 50,000 rows). */
export async function historyCsv(db: DbOrTx, userId: string, f: Omit<HistoryFilter, 'page' | 'pageSize'>, currency: string) {
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(historyWhere(userId, f))
    .orderBy(desc(ledgerEntries.seq))
    .limit(CSV_MAX_ROWS);
  const header = ['date', 'kind', `amount_${currency.toLowerCase()}`, `balance_after_${currency.toLowerCase()}`, 'reference_type', 'reference_id', 'memo', 'entry_id'];
  return toCsv([
    header,
    ...rows.map((r) => [
      r.createdAt.toISOString(),
      r.kind,
      centsToDecimal(Number(r.amountCents)),
      centsToDecimal(Number(r.balanceAfter)),
      r.referenceType,
      r.referenceId,
      r.memo,
      r.id,
    ]),
  ]);
}
