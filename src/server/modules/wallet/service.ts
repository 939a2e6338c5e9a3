import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { dayEnd } from '../../../shared/contracts/dates.ts';
import type { HistoryPage, LedgerEntry, LedgerKind } from '../../../shared/contracts/wallet.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { balances, ledgerEntries } from '../../db/schema/wallet.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';

/**
 * The only code that moves money. Every other module (deposits, promo codes, pack purchases,
 * buyback, shipping) calls credit()/debit() inside its own transaction, so the money moves
 * atomically with that module's writes:
 *
 *   await moneyTransaction(deps, async (tx) => {
 *     await assertCanSpend(tx, userId);            // responsible play
 *     await debit(tx, { userId, amountCents, kind: 'pack_purchase', referenceType: 'opening', … });
 *     …insert the opening…
 *   });
 *
 * Insufficient funds is a 409 with code 'insufficient_funds' (the whole transaction rolls back).
 * `moneyTransaction` publishes 'balance.changed' to `user:<id>` after the commit; a plain
 * db.transaction works too but then nothing is pushed to the user's open pages.
 */

export interface MoneyMove {
  userId: string;
  /** Positive whole cents; the sign comes from credit/debit. */
  amountCents: number;
  kind: LedgerKind;
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

/** Balance changes per transaction, published by moneyTransaction once it commits. */
const touched = new WeakMap<object, Map<string, number>>();

function remember(tx: DbOrTx, userId: string, balanceCents: number) {
  let m = touched.get(tx);
  if (!m) touched.set(tx, (m = new Map()));
  m.set(userId, balanceCents);
}

async function writeEntry(tx: DbOrTx, move: MoneyMove, signed: number, balanceAfter: number): Promise<MoveResult> {
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({
      userId: move.userId,
      amountCents: signed,
      kind: move.kind,
      referenceType: move.referenceType ?? null,
      referenceId: move.referenceId ?? null,
      actorId: move.actorId ?? null,
      idempotencyKey: move.idempotencyKey ?? null,
      balanceAfter,
      memo: move.memo ?? null,
    })
    .returning({ id: ledgerEntries.id });
  remember(tx, move.userId, balanceAfter);
  return { entryId: entry!.id, balanceCents: balanceAfter };
}

/** Adds money. The balance row is created on first use and stays locked until the commit. */
export async function credit(tx: Tx | Db, move: MoneyMove): Promise<MoveResult> {
  checkAmount(move.amountCents);
  const [row] = await tx
    .insert(balances)
    .values({ userId: move.userId, cents: move.amountCents })
    .onConflictDoUpdate({
      target: balances.userId,
      set: { cents: sql`"balances"."cents" + ${move.amountCents}`, updatedAt: sql`now()` },
    })
    .returning({ cents: balances.cents });
  return writeEntry(tx, move, move.amountCents, Number(row!.cents));
}

/**
 * Takes money with one conditional UPDATE (never read-then-write): it either finds enough and
 * subtracts under the row lock, or matches nothing and we answer insufficient funds. The ledger
 * entry is written by the same statement (a data-modifying CTE): a pack opening pays one round
 * trip for the money, not two.
 */
export async function debit(tx: Tx | Db, move: MoneyMove): Promise<MoveResult> {
  checkAmount(move.amountCents);
  const rows = await tx.execute<{ id: string; balance_after: string | number }>(sql`
    with b as (
      update ${balances} set "cents" = "cents" - ${move.amountCents}::bigint, "updated_at" = now()
      where "user_id" = ${move.userId} and "cents" >= ${move.amountCents}::bigint
      returning "cents"
    )
    insert into ${ledgerEntries} ("user_id", "amount_cents", "kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "balance_after", "memo")
    select ${move.userId}::text, ${-move.amountCents}::bigint, ${move.kind}::ledger_kind, ${move.referenceType ?? null}::text,
      ${move.referenceId ?? null}::text, ${move.actorId ?? null}::text, ${move.idempotencyKey ?? null}::text, b."cents", ${move.memo ?? null}::text
    from b
    returning "id", "balance_after"`);
  const row = (Array.isArray(rows) ? rows : (rows as unknown as { rows: Array<{ id: string; balance_after: string | number }> }).rows)[0];
  if (!row) throw insufficientFunds(move.amountCents);
  const balanceCents = Number(row.balance_after);
  remember(tx, move.userId, balanceCents);
  return { entryId: row.id, balanceCents };
}

/**
 * The same debit as two CTEs, for a caller that settles a whole purchase in one statement built
 * once (shop/one-statement-open.ts): `debit_balance` takes the money where enough is left and
 * `debit` writes the ledger entry, returning "id" and "balance_after". The values are drizzle
 * placeholders, filled from `debitValues(move)`. `debit` returning no row means insufficient
 * funds: the caller must then fail its statement (nothing is taken). After the commit the caller
 * publishes the balance (`publishBalance`, or a NOTIFY in the same statement).
 */
export function debitCtes(): SQL {
  const v = (name: keyof ReturnType<typeof debitValues>) => sql.placeholder(name);
  return sql`debit_balance as (
      update ${balances} set "cents" = "cents" - ${v('debit_amount')}::bigint, "updated_at" = now()
      where "user_id" = ${v('debit_user')}::text and "cents" >= ${v('debit_amount')}::bigint
      returning "cents"
    ),
    debit as (
      insert into ${ledgerEntries} ("id", "user_id", "amount_cents", "kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "balance_after", "memo")
      select ${v('debit_entry')}::uuid, ${v('debit_user')}::text, -${v('debit_amount')}::bigint, ${v('debit_kind')}::ledger_kind, ${v('debit_ref_type')}::text,
        ${v('debit_ref_id')}::text, ${v('debit_actor')}::text, ${v('debit_key')}::text, b."cents", ${v('debit_memo')}::text
      from debit_balance b
      returning "id", "balance_after"
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
    debit_ref_type: move.referenceType ?? null,
    debit_ref_id: move.referenceId ?? null,
    debit_actor: move.actorId ?? null,
    debit_key: move.idempotencyKey ?? null,
    debit_memo: move.memo ?? null,
  };
}

/**
 * Locks the user's balance row (creating it at zero) and returns it. For the few flows that must
 * decide on the current balance, e.g. clawing back a refund only up to what is left, and to
 * serialize one user's deposit requests.
 */
export async function lockBalance(tx: Tx, userId: string): Promise<number> {
  await tx.insert(balances).values({ userId, cents: 0 }).onConflictDoNothing({ target: balances.userId });
  const [row] = await tx
    .select({ cents: balances.cents })
    .from(balances)
    .where(eq(balances.userId, userId))
    .for('update');
  return Number(row!.cents);
}

type MoneyDeps = Pick<Deps, 'db' | 'bus' | 'log'>;

/** Publishes 'balance.changed' for every balance the committed transaction touched. */
async function publishTouched(deps: MoneyDeps, tx: object | undefined) {
  const m = tx && touched.get(tx);
  if (!m) return;
  touched.delete(tx);
  for (const [userId, balanceCents] of m) await publishBalance(deps, userId, balanceCents);
}

/** Pushes a committed balance to the user's open pages ('balance.changed'); never throws. */
export async function publishBalance(deps: MoneyDeps, userId: string, balanceCents: number): Promise<void> {
  await deps.bus
    .publish(`user:${userId}`, 'balance.changed', { balanceCents })
    .then(
      () => undefined,
      (err: unknown) => deps.log.warn('balance.changed publish failed', { err, userId }),
    );
}

/** db.transaction that pushes 'balance.changed' to each touched user after the commit. */
export async function moneyTransaction<T>(deps: MoneyDeps, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let txRef: Tx | undefined;
  const result = await deps.db.transaction(async (tx) => {
    txRef = tx;
    return fn(tx);
  });
  await publishTouched(deps, txRef);
  return result;
}

// Reads ------------------------------------------------------------------------------------

export async function getBalance(db: DbOrTx, userId: string): Promise<{ balanceCents: number; updatedAt: Date | null }> {
  const [row] = await db
    .select({ cents: balances.cents, updatedAt: balances.updatedAt })
    .from(balances)
    .where(eq(balances.userId, userId));
  return { balanceCents: row ? Number(row.cents) : 0, updatedAt: row?.updatedAt ?? null };
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

export function toLedgerEntry(row: typeof ledgerEntries.$inferSelect): LedgerEntry {
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
  };
}

export async function listHistory(db: DbOrTx, userId: string, f: HistoryFilter): Promise<HistoryPage> {
  const where = historyWhere(userId, f);
  const [rows, [total]] = await Promise.all([
    db
      .select()
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

function csvCell(v: string): string {
  // Cells starting with = + - @ would run as formulas in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The whole filtered history as CSV (newest first, capped at 50,000 rows). */
export async function historyCsv(db: DbOrTx, userId: string, f: Omit<HistoryFilter, 'page' | 'pageSize'>, currency: string) {
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(historyWhere(userId, f))
    .orderBy(desc(ledgerEntries.seq))
    .limit(CSV_MAX_ROWS);
  const header = ['date', 'kind', `amount_${currency.toLowerCase()}`, `balance_after_${currency.toLowerCase()}`, 'reference_type', 'reference_id', 'memo', 'entry_id'];
  const lines = [header.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.createdAt.toISOString(),
        r.kind,
        centsToDecimal(Number(r.amountCents)),
        centsToDecimal(Number(r.balanceAfter)),
        r.referenceType ?? '',
        r.referenceId ?? '',
        r.memo ?? '',
        r.id,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
