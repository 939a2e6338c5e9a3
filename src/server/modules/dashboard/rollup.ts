import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  dashboardActiveDaily,
  dashboardActiveHourly,
  dashboardDaily,
  dashboardHourly,
  dashboardRollupState,
  dashboardSeqMarks,
  dashboardUserDays,
} from '../../db/schema/dashboard.ts';
import type { Job } from '../../jobs/scheduler.ts';

/**
 * The dashboard's hourly rollups (issue 18), and the daily tier summed from them for whole UTC
 * days (read by long ranges). The job rolls whole hours that are safely over; the
 * dashboard answers with the rollups before `rolled_until` plus the raw rows after it (the tail),
 * both from the same fact queries below, so a rebuild from scratch gives the same numbers.
 *
 * Late commits. A row is stamped when its transaction starts (journal entries: now()) or just
 * before (openings: the app's clock), but becomes visible only at commit. The job rolls up to
 * H = min(now, start of the oldest transaction still running) − SAFETY, hour-floored: a row
 * stamped before H belongs to a transaction that had started before the oldest one still running,
 * so it has committed and is visible to the statements that follow (read after the horizon, each
 * with a newer snapshot). SAFETY (5 min) covers the app clock's lead on the database's. And each
 * run re-rolls the last REROLL hours from the raw rows (delete + insert, idempotent), which also
 * catches anything stamped further back that commits within that window.
 *
 * Access paths, with no index added to a write-hot table: ledger postings by the existing
 * (account_id, seq) index of the house accounts, from a sequence mark (dashboard_seq_marks)
 * taken before the range starts; openings through owned_cards' acquired_at index (a pulled
 * copy's acquired_at is its opening's time); users by user_created_idx. Only sessions (sign-ins,
 * for active users) are scanned, and that table is pruned of expired rows.
 */

export const SAFETY = sql`interval '5 minutes'`;
export const REROLL_HOURS = 3;
export const MARKS_KEPT = sql`interval '3 days'`;
const DAY_MS = 86_400_000;
export const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
/** A UTC day as `dashboard_user_days` numbers it: days since 1970-01-01. */
export const dayNumber = (d: Date) => Math.floor(d.getTime() / DAY_MS);

/**
 * House accounts. Same rows as `user_id is null` (the ledger_accounts_owner check), but answered
 * by the unique index on code instead of a scan of every wallet.
 */
const HOUSE = sql`la."code" is not null`;

const hourOf = (col: SQL) => sql`date_trunc('hour', ${col}, 'UTC')`;

/** The latest postings seq certainly below every posting of a transaction stamped at or after `a`. */
const seqFloor = (a: SQL) =>
  sql`(select coalesce(max(m."postings_seq"), 0) from "dashboard_seq_marks" m where m."taken_at" <= ${a} - ${SAFETY})`;

/**
 * What a copy handed out cost the house: its value when awarded (`owned_cards.value_cents`). No
 * cost is recorded anywhere today; when one is (a slab bought in, say), this is the one place that
 * prefers it — `coalesce(<recorded cost>, oc."value_cents")` — and every figure and the rollups
 * (after `rebuildRollup`) follow. `oc` is the owned copy.
 */
export const AWARD_COST = sql`oc."value_cents"`;

/**
 * How far around a range the drop and audit rows that lead to awarded copies are looked for: a
 * drop's `drawn_at` and a grant's or revoke's audit row are stamped in the same transaction as the
 * copy (so they are equal); the copy's own time then decides the range.
 */
const NEAR = sql`interval '1 day'`;

/**
 * Hourly sums in [a, b) as rows (hour, metric, k1, k2, n, sum, sum2): house-account postings by
 * account kind and entry kind; openings by product (count, pulled value, price paid); sign-ups;
 * and the cards behind the gross margin (issue 38):
 * - 'awarded':  k1 = acquired_via (opening | drop | grant), k2 = product id (openings) or '';
 *               n = copies, sum = their cost (AWARD_COST), by the copy's acquired_at.
 * - 'buyback':  k1 = the sold copy's acquired_via, k2 = its product id or ''; n = copies,
 *               sum = market value back in stock, sum2 = paid; by the sale's time.
 * - 'revoked':  k1, k2 as buyback; n = copies, sum = AWARD_COST back in stock; by the revoke's time.
 * Access paths without a new index on a write-hot table: pulls by owned_cards' acquired_at index;
 * drop prizes from drops by drawn_at; grants and revokes from their audit rows (action, created_at);
 * sales by buybacks_created_idx; each then reaches the copy by its primary key.
 */
export function hourlyFacts(a: SQL, b: SQL): SQL {
  return sql`
    select ${hourOf(sql`e."created_at"`)} as "hour", 'ledger'::text as "metric", la."kind"::text as "k1", e."kind"::text as "k2",
      count(*)::bigint as "n", sum(p."amount_cents")::bigint as "sum", 0::bigint as "sum2"
    from "ledger_accounts" la
    join "postings" p on p."account_id" = la."id" and p."seq" > ${seqFloor(a)}
    join "journal_entries" e on e."id" = p."entry_id"
    where ${HOUSE} and e."created_at" >= ${a} and e."created_at" < ${b}
    group by 1, 3, 4
    union all
    select ${hourOf(sql`o."created_at"`)}, 'opens', o."product_id"::text, '', count(*)::bigint, sum(o."total_value_cents")::bigint, sum(pu."unit_price_cents")::bigint
    from "openings" o join "purchases" pu on pu."id" = o."purchase_id"
    where o."id" in (select oc."opening_id" from "owned_cards" oc
        where oc."opening_id" is not null and oc."acquired_at" >= ${a} and oc."acquired_at" < ${b})
      and o."created_at" >= ${a} and o."created_at" < ${b}
    group by 1, 3
    union all
    select ${hourOf(sql`u."created_at"`)}, 'signups', '', '', count(*)::bigint, 0::bigint, 0::bigint
    from "user" u where u."created_at" >= ${a} and u."created_at" < ${b}
    group by 1
    union all
    select ${hourOf(sql`oc."acquired_at"`)}, 'awarded', 'opening', oc."product_id"::text, count(*)::bigint, sum(${AWARD_COST})::bigint, 0::bigint
    from "owned_cards" oc
    where oc."opening_id" is not null and oc."acquired_at" >= ${a} and oc."acquired_at" < ${b}
    group by 1, 4
    union all
    select ${hourOf(sql`oc."acquired_at"`)}, 'awarded', 'drop', '', count(*)::bigint, sum(${AWARD_COST})::bigint, 0::bigint
    from "drops" d
    join "drop_winners" w on w."drop_id" = d."id"
    join "owned_cards" oc on oc."id" = w."owned_card_id"
    where d."drawn_at" >= ${a} - ${NEAR} and d."drawn_at" < ${b} + ${NEAR}
      and oc."acquired_via" = 'drop' and oc."acquired_at" >= ${a} and oc."acquired_at" < ${b}
    group by 1
    union all
    select ${hourOf(sql`oc."acquired_at"`)}, 'awarded', 'grant', '', count(*)::bigint, sum(${AWARD_COST})::bigint, 0::bigint
    from "audit_log" al
    join "owned_cards" oc on oc."id" = al."target_id"::uuid
    where al."action" = 'owned.grant' and al."target_type" = 'owned_card'
      and al."created_at" >= ${a} - ${NEAR} and al."created_at" < ${b} + ${NEAR}
      and oc."acquired_via" = 'grant' and oc."acquired_at" >= ${a} and oc."acquired_at" < ${b}
    group by 1
    union all
    select ${hourOf(sql`bb."created_at"`)}, 'buyback', oc."acquired_via"::text, coalesce(oc."product_id"::text, ''), count(*)::bigint,
      sum(l."market_value_cents")::bigint, sum(l."amount_cents")::bigint
    from "buybacks" bb
    join "buyback_lines" l on l."buyback_id" = bb."id"
    join "owned_cards" oc on oc."id" = l."owned_card_id"
    where bb."created_at" >= ${a} and bb."created_at" < ${b}
    group by 1, 3, 4
    union all
    select ${hourOf(sql`al."created_at"`)}, 'revoked', oc."acquired_via"::text, coalesce(oc."product_id"::text, ''), count(*)::bigint,
      sum(${AWARD_COST})::bigint, 0::bigint
    from "audit_log" al
    join "owned_cards" oc on oc."id" = al."target_id"::uuid
    where al."action" = 'owned.revoke' and al."target_type" = 'owned_card' and al."created_at" >= ${a} and al."created_at" < ${b}
      and oc."status" = 'revoked'
    group by 1, 3, 4`;
}

/**
 * The public returns page's sums per odds revision (issue 44), hourly in [a, b), as rows like
 * hourlyFacts' (only the rollup writes them; the admin dashboard's tail never needs them):
 * - 'rev_opens': k1 = revision hash, k2 = product id; n = openings, sum = card value pulled,
 *                sum2 = price paid.
 * - 'rev_class': k1 = revision hash, k2 = class id; n = cards of that class pulled.
 * Openings before revisions existed (revision_hash null) are left out. Same access path as
 * 'opens': openings through owned_cards' acquired_at index.
 */
export function revisionFacts(a: SQL, b: SQL): SQL {
  const opened = sql`o."id" in (select oc."opening_id" from "owned_cards" oc
        where oc."opening_id" is not null and oc."acquired_at" >= ${a} and oc."acquired_at" < ${b})
      and o."created_at" >= ${a} and o."created_at" < ${b} and o."revision_hash" is not null`;
  return sql`
    select ${hourOf(sql`o."created_at"`)} as "hour", 'rev_opens'::text as "metric", o."revision_hash" as "k1", o."product_id"::text as "k2",
      count(*)::bigint as "n", sum(o."total_value_cents")::bigint as "sum", sum(pu."unit_price_cents")::bigint as "sum2"
    from "openings" o join "purchases" pu on pu."id" = o."purchase_id"
    where ${opened}
    group by 1, 3, 4
    union all
    select ${hourOf(sql`o."created_at"`)}, 'rev_class', o."revision_hash", d->>'classId', count(*)::bigint, 0::bigint, 0::bigint
    from "openings" o cross join lateral jsonb_array_elements(o."draws") d
    where ${opened}
    group by 1, 3, 4`;
}

/**
 * (hour, user_id) of everyone who deposited, bought, opened or signed in during [a, b). With
 * `usersOnly`, just the user ids, duplicates kept (the caller groups them anyway).
 */
export function activeFacts(a: SQL, b: SQL, opts: { usersOnly?: boolean } = {}): SQL {
  const col = (at: SQL, user: SQL) => (opts.usersOnly ? user : sql`${hourOf(at)} as "hour", ${user} as "user_id"`);
  const union = opts.usersOnly ? sql`union all` : sql`union`;
  return sql`
    select ${col(sql`e."created_at"`, sql`w."user_id"`)}
    from "ledger_accounts" la
    join "postings" p on p."account_id" = la."id" and p."seq" > ${seqFloor(a)}
    join "journal_entries" e on e."id" = p."entry_id"
    join "postings" p2 on p2."entry_id" = e."id" and p2."account_id" <> la."id"
    join "ledger_accounts" w on w."id" = p2."account_id" and w."user_id" is not null
    where ${HOUSE} and e."kind" in ('deposit', 'pack_purchase') and e."created_at" >= ${a} and e."created_at" < ${b}
    ${union}
    select ${col(sql`oc."acquired_at"`, sql`oc."owner_id"`)} from "owned_cards" oc
    where oc."opening_id" is not null and oc."acquired_at" >= ${a} and oc."acquired_at" < ${b}
    ${union}
    select ${col(sql`s."created_at"`, sql`s."user_id"`)} from "session" s where s."created_at" >= ${a} and s."created_at" < ${b}`;
}

type Rows<T> = T[] | { rows: T[] };
export async function rows<T>(db: DbOrTx, q: SQL): Promise<T[]> {
  const r = (await db.execute(q)) as unknown as Rows<T>;
  return Array.isArray(r) ? r : r.rows;
}

export async function rolledUntil(db: DbOrTx): Promise<Date | null> {
  const [r] = await rows<{ rolled_until: string | Date | null }>(db, sql`select "rolled_until" from ${dashboardRollupState} where "id" = 1`);
  return r?.rolled_until ? new Date(r.rolled_until) : null;
}

export interface RollupResult {
  from: Date | null;
  until: Date | null;
}

/**
 * One run of the rollup. `horizon` replaces the database's (tests, to stop at a chosen hour).
 * Serialised by an advisory lock, so a manual rebuild and the job never interleave.
 */
export async function rollUp(db: Db, opts: { horizon?: Date } = {}): Promise<RollupResult> {
  // The mark first: a postings seq read before the clock, so every later transaction is above it.
  const [seq] = await rows<{ s: string | null }>(db, sql`select pg_sequence_last_value(pg_get_serial_sequence('postings', 'seq')::regclass)::text as "s"`);
  await db.execute(sql`insert into ${dashboardSeqMarks} ("taken_at", "postings_seq") values (clock_timestamp(), ${Number(seq?.s ?? 0)})
    on conflict do nothing`);
  // The horizon in its own statement, before the rollup's: see the comment at the top.
  const [h] = await rows<{ h: string }>(
    db,
    opts.horizon
      ? sql`select date_trunc('hour', ${opts.horizon.toISOString()}::timestamptz, 'UTC')::text as "h"`
      : sql`select date_trunc('hour', least(clock_timestamp(), coalesce((select min("xact_start") from pg_stat_activity
            where "xact_start" is not null and "pid" <> pg_backend_pid()), clock_timestamp())) - ${SAFETY}, 'UTC')::text as "h"`,
  );
  const target = new Date(h!.h);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('packvault:dashboard-rollup'))`);
    const prev = await rolledUntil(tx);
    if (prev && target <= prev) return { from: null, until: prev };
    const from = prev ? new Date(prev.getTime() - REROLL_HOURS * 3_600_000) : null;
    const a = from ? sql`${from.toISOString()}::timestamptz` : sql`'-infinity'::timestamptz`;
    const b = sql`${target.toISOString()}::timestamptz`;
    await tx.execute(sql`delete from ${dashboardHourly} where "hour" >= ${a} and "hour" < ${b}`);
    await tx.execute(sql`insert into ${dashboardHourly} ("hour", "metric", "k1", "k2", "n", "sum", "sum2") ${hourlyFacts(a, b)}`);
    await tx.execute(sql`insert into ${dashboardHourly} ("hour", "metric", "k1", "k2", "n", "sum", "sum2") ${revisionFacts(a, b)}`);
    await tx.execute(sql`delete from ${dashboardActiveHourly} where "hour" >= ${a} and "hour" < ${b}`);
    await tx.execute(sql`insert into ${dashboardActiveHourly} ("hour", "user_id") ${activeFacts(a, b)}`);
    // The daily tier: every UTC day touched by this run that is now wholly rolled, again from the
    // hourly rows (those before `from` are unchanged and still there), so days = Σ their hours.
    const dayA = from ? sql`${floorDay(from).toISOString()}::timestamptz` : sql`'-infinity'::timestamptz`;
    const dayB = sql`${floorDay(target).toISOString()}::timestamptz`;
    await tx.execute(sql`delete from ${dashboardDaily} where "day" >= ${dayA}`);
    await tx.execute(sql`insert into ${dashboardDaily} ("day", "metric", "k1", "k2", "n", "sum", "sum2")
      select date_trunc('day', "hour", 'UTC'), "metric", "k1", "k2", sum("n"), sum("sum"), sum("sum2") from ${dashboardHourly}
      where "hour" >= ${dayA} and "hour" < ${dayB} group by 1, 2, 3, 4`);
    await tx.execute(sql`delete from ${dashboardActiveDaily} where "day" >= ${dayA}`);
    await tx.execute(sql`insert into ${dashboardActiveDaily} ("day", "user_id")
      select distinct date_trunc('day', "hour", 'UTC'), "user_id" from ${dashboardActiveHourly} where "hour" >= ${dayA} and "hour" < ${dayB}`);
    await refreshUserDays(tx, from ? dayNumber(floorDay(from)) : null, dayA);
    await tx.execute(sql`insert into ${dashboardRollupState} ("id", "rolled_until", "updated_at") values (1, ${b}, now())
      on conflict ("id") do update set "rolled_until" = excluded."rolled_until", "updated_at" = now()`);
    await tx.execute(sql`delete from ${dashboardSeqMarks} where "taken_at" < now() - ${MARKS_KEPT}`);
    return { from, until: target };
  });
}

/**
 * Brings each user's active-day array in line with `dashboard_active_daily` after the days from
 * `fromDay` on were rolled again: those days are cut from every array that reaches them (found by
 * `last_day`), then appended again from the fresh daily rows. Everything before `fromDay` is
 * unchanged, so appending keeps each array sorted.
 */
async function refreshUserDays(tx: DbOrTx, fromDay: number | null, dayA: SQL) {
  if (fromDay === null) await tx.execute(sql`delete from ${dashboardUserDays}`);
  else {
    await tx.execute(sql`update ${dashboardUserDays} set "days" = array(select x from unnest("days") x where x < ${fromDay} order by x)
      where "last_day" >= ${fromDay}`);
    await tx.execute(sql`delete from ${dashboardUserDays} where cardinality("days") = 0`);
    await tx.execute(sql`update ${dashboardUserDays} set "last_day" = "days"[cardinality("days")] where "last_day" >= ${fromDay}`);
  }
  await tx.execute(sql`insert into ${dashboardUserDays} ("user_id", "last_day", "days")
    select "user_id", max(d), array_agg(d order by d) from (
      select "user_id", (("day" at time zone 'UTC')::date - date '1970-01-01') as d from ${dashboardActiveDaily} where "day" >= ${dayA}) x
    group by "user_id"
    on conflict ("user_id") do update set "days" = ${dashboardUserDays}."days" || excluded."days", "last_day" = excluded."last_day"`);
}

/** Forgets the rollups and rolls everything again from the raw rows. */
export async function rebuildRollup(db: Db, opts: { horizon?: Date } = {}): Promise<RollupResult> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('packvault:dashboard-rollup'))`);
    await tx.execute(sql`delete from ${dashboardHourly}`);
    await tx.execute(sql`delete from ${dashboardActiveHourly}`);
    await tx.execute(sql`delete from ${dashboardDaily}`);
    await tx.execute(sql`delete from ${dashboardActiveDaily}`);
    await tx.execute(sql`delete from ${dashboardUserDays}`);
    await tx.execute(sql`delete from ${dashboardRollupState}`);
  });
  return rollUp(db, opts);
}

export const DASHBOARD_ROLLUP_EVERY_MS = 5 * 60_000;

export function dashboardRollupJob(): Job {
  return {
    name: 'dashboard-rollup',
    everyMs: DASHBOARD_ROLLUP_EVERY_MS,
    async run(deps) {
      await rollUp(deps.db);
    },
  };
}
