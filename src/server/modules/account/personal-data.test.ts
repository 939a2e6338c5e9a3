import { randomUUID } from 'node:crypto';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../db/schema/index.ts';
import { signInAdminWithMfa, signUpAndSignIn, totpCode, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { audit } from '../audit/service.ts';
import { personalDataSections } from '../personal-data.ts';
import { CLEAN, makeCatalog, shopInvariants, slots } from '../shop/test-support.ts';
import { ledgerInvariants } from '../wallet/test-support.ts';

/** Every table the schema barrel exports. */
const allTables: PgTable[] = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));

/**
 * Columns that hold a user's id or email, found from the schema alone: a foreign key to user.id,
 * the user table's own key and email, or a name that says so (user_id, owner_id, actor_id,
 * target_id, created_by, …_by, email).
 */
function userKeyedColumns(tables: PgTable[]): string[] {
  const out: string[] = [];
  for (const table of tables) {
    const cfg = getTableConfig(table);
    const fkColumns = new Set(
      cfg.foreignKeys
        .map((fk) => fk.reference())
        .filter((ref) => getTableConfig(ref.foreignTable).name === 'user')
        .flatMap((ref) => ref.columns.map((c) => c.name)),
    );
    for (const c of cfg.columns) {
      const isUserRow = cfg.name === 'user' && (c.name === 'id' || c.name === 'email');
      if (isUserRow || fkColumns.has(c.name) || /(^|_)(user|owner|actor|target)_id$|_by$|(^|_)email$/.test(c.name)) {
        out.push(`${cfg.name}.${c.name}`);
      }
    }
  }
  return out.sort();
}

const declared = personalDataSections.flatMap((s) => s.tables.map((p) => ({ section: s.name, ...p, name: getTableConfig(p.table).name })));
const declaredColumns = new Set(declared.flatMap((d) => d.keyedBy.map((c) => `${d.name}.${c}`)));

/** The user-keyed columns no personal-data section declares (with a deletion policy). */
function uncovered(tables: PgTable[]): string[] {
  return userKeyedColumns(tables).filter((c) => !declaredColumns.has(c));
}

describe('personal data coverage (schema walk)', () => {
  it('finds user-keyed columns in the schema', () => {
    const found = userKeyedColumns(allTables);
    for (const c of ['ledger_accounts.user_id', 'owned_cards.owner_id', 'audit_log.actor_id', 'user.email', 'session.user_id']) expect(found).toContain(c);
  });

  it('every user-keyed table has an export section and a deletion policy', () => {
    // On failure this names each `table.column`: add it to the section of the domain that owns the table.
    expect(uncovered(allTables)).toEqual([]);
  });

  it('fails, naming the table, when a new user-keyed table has no section', () => {
    const wishlist = pgTable('wishlists', {
      id: uuid('id').primaryKey(),
      userId: text('user_id').references(() => schema.user.id),
    });
    const notes = pgTable('staff_notes', { id: uuid('id').primaryKey(), writtenBy: text('written_by') });
    expect(uncovered([...allTables, wishlist, notes])).toEqual(['staff_notes.written_by', 'wishlists.user_id']);
  });

  it('declares real columns, each table once, with a policy', () => {
    const names = declared.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of declared) {
      const cols = getTableConfig(d.table).columns.map((c) => c.name);
      for (const k of d.keyedBy) expect(cols, `${d.name}.${k}`).toContain(k);
      expect(['delete', 'keep']).toContain(d.onDelete);
      expect(d.why.length).toBeGreaterThan(3);
    }
    expect(new Set(personalDataSections.map((s) => s.name)).size).toBe(personalDataSections.length);
  });
});

// ───────────────────────── a user active in every domain ─────────────────────────

let t: TestContext;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  owner = await signInAdminWithMfa(t);
});
afterAll(() => t.close());

const call = (u: TestUser | null, method: string, path: string, json?: unknown, extra: Record<string, string> = {}) =>
  t.request(path, { method, ...(json === undefined ? {} : { json }), headers: { ...(u ? u.headers : {}), ...extra } });
const idem = () => ({ 'Idempotency-Key': randomUUID() });

/** The body of a 2xx answer (any 2xx; the exact status is each route's own test's business). */
async function ok(res: Promise<Response>) {
  const r = await res;
  const body = await r.text();
  if (r.status < 200 || r.status > 299) throw new Error(`${r.status}: ${body}`);
  return body ? JSON.parse(body) : null;
}

async function liveProduct(): Promise<string> {
  const cat = await makeCatalog(t, [{ name: `Common ${randomUUID().slice(0, 6)}`, cards: [{ value: 40, stock: 50 }, { value: 60, stock: 50 }] }]);
  const classId = Object.values(cat.classes)[0]!;
  const created = await ok(call(owner, 'POST', '/api/admin/products', { name: 'Export Pack', priceCents: 300, description: 'Two cards.' }));
  const { id, packId } = created.product as { id: string; packId: string };
  await ok(call(owner, 'PUT', `/api/admin/packs/${packId}`, { name: 'Export Pack', slots: slots(2, [{ classId, weight: 1 }]), pool: { mode: 'classes' } }));
  await ok(call(owner, 'PATCH', `/api/admin/products/${id}`, { status: 'live' }));
  return id;
}

async function deposit(u: TestUser, amountCents: number) {
  const d = await ok(call(u, 'POST', '/api/wallet/deposits', { amountCents }, idem()));
  await ok(call(u, 'POST', `/api/payments/sandbox/deposits/${d.deposit.id}/pay`, {}, idem()));
}

/**
 * Every (table, column) of the public schema whose text holds `needle` (case-insensitive). Views
 * (the `ledger_entries` view of the books) only show what their tables hold, so they are skipped.
 */
async function columnsHolding(needle: string): Promise<string[]> {
  const cols = await t.deps.dbh.query<{ table_name: string; column_name: string }>(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')
      and table_name in (select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE')
    order by table_name, column_name`);
  const hits: string[] = [];
  for (const c of cols) {
    const [row] = await t.deps.dbh.query<{ n: string }>(
      sql`select count(*) as n from ${sql.identifier(c.table_name)} where strpos(lower(${sql.identifier(c.column_name)}::text), lower(${needle})) > 0`,
    );
    if (Number(row!.n) > 0) hits.push(`${c.table_name}.${c.column_name}`);
  }
  return hits;
}

/** Primary-key ids of the rows each declared table holds about `userId` (tables with an `id`). */
async function rowIdsOf(userId: string, email: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const d of declared) {
    if (!getTableConfig(d.table).columns.some((c) => c.name === 'id') || d.name === 'user') continue;
    const cond = sql.join(
      d.keyedBy.map((k) => sql`strpos(lower(${sql.identifier(k)}::text), lower(${k === 'to' ? email : userId})) > 0`),
      sql` or `,
    );
    const rows = await t.deps.dbh.query<{ id: string }>(sql`select id::text as id from ${sql.identifier(d.name)} where ${cond}`);
    if (rows.length) out.set(d.name, rows.map((r) => r.id));
  }
  return out;
}

async function stockPlusOwned(): Promise<number> {
  const [row] = await t.deps.dbh.query<{ n: string }>(sql`
    select (select coalesce(sum(stock), 0) from cards) + (select count(*) from owned_cards where status not in ('sold_back', 'revoked')) as n`);
  return Number(row!.n);
}

describe('export and deletion of a user active in every domain', () => {
  let a: TestUser;
  let b: TestUser;
  let productId: string;
  let exported: Record<string, unknown> & { data: Record<string, Record<string, unknown[]>> };
  let json: string;

  beforeAll(async () => {
    productId = await liveProduct();
    a = await signUpAndSignIn(t, { twoFactor: true });
    b = await signUpAndSignIn(t);
    const promo = `EXPORT${randomUUID().slice(0, 6).toUpperCase()}`;
    await ok(call(owner, 'POST', '/api/admin/promo', { code: promo, kind: 'credit', amountCents: 250 }));

    // A: deposit, promo, limits, buy-and-open, an unopened pack, seed rotation, buyback.
    await deposit(a, 5_000);
    await ok(call(a, 'POST', '/api/wallet/promo/redeem', { code: promo }, idem()));
    await ok(call(a, 'PUT', '/api/wallet/limits', { day: 100_000 }));
    const opened = await ok(call(a, 'POST', '/api/shop/open', { productId, quantity: 1 }, idem()));
    expect(JSON.stringify(opened)).toContain('draws');
    await ok(call(a, 'POST', '/api/shop/purchases', { productId, quantity: 1 }, idem()));
    await ok(call(a, 'POST', '/api/fairness/seeds/rotate', {}));
    const vault = await ok(call(a, 'GET', '/api/collection'));
    const firstCard = (vault.items as Array<{ id: string }>)[0]!.id;
    await ok(call(a, 'POST', '/api/buyback', { ownedCardIds: [firstCard] }, idem()));
    // Auth traces: a wrong password (rate-limit counter by email), a reset link (mail, pending link).
    expect((await call(null, 'POST', '/api/auth/sign-in/email', { email: a.email, password: 'not-the-password' })).status).toBe(401);
    expect((await call(null, 'POST', '/api/auth/request-password-reset', { email: a.email, redirectTo: '/update-password' })).status).toBe(200);
    // Staff wrote about A, and A acted (an admin action by someone else naming A's email).
    await audit(t.deps.db, { actorId: owner.userId, action: 'user.note', targetType: 'user', targetId: a.userId, after: { email: a.email, username: a.username }, ip: '10.0.0.9' });
    await audit(t.deps.db, { actorId: a.userId, action: 'account.test', targetType: 'user', targetId: a.userId, ip: '10.0.0.7' });
    await ok(call(a, 'POST', '/api/wallet/self-exclusion', { duration: '24h', confirm: true }));

    // B: enough activity that B's rows exist in the same tables.
    await deposit(b, 2_000);
    await ok(call(b, 'POST', '/api/shop/open', { productId, quantity: 1 }, idem()));
    expect((await call(null, 'POST', '/api/auth/sign-in/email', { email: b.email, password: 'not-the-password' })).status).toBe(401);

    exported = await ok(call(a, 'GET', '/api/account/export'));
    json = JSON.stringify(exported);
  });

  it('exports every section with the rows', () => {
    const d = exported.data;
    expect(Object.keys(d).sort()).toEqual(personalDataSections.map((s) => s.name).sort());
    expect(d.wallet!.balanceCents).toBeGreaterThan(0);
    expect(d.wallet!.ledger!.length).toBeGreaterThanOrEqual(4); // deposit, promo, purchase ×2, buyback
    expect(d.payments!.deposits).toHaveLength(1);
    expect(d.payments!.deposits![0]).toMatchObject({ amountCents: 5_000, status: 'succeeded' });
    expect(d.promo!.redemptions).toHaveLength(1);
    expect(d.responsiblePlay!.depositLimits).toHaveLength(1);
    expect(d.responsiblePlay!.selfExclusions).toHaveLength(1);
    expect(d.shop!.purchases).toHaveLength(2);
    expect(d.shop!.packs).toHaveLength(2);
    expect(d.shop!.openings).toHaveLength(1);
    expect(d.fairness!.seeds).toHaveLength(2);
    expect(d.collection!.ownedCards).toHaveLength(2);
    expect(d.buyback!.sales).toHaveLength(1);
    expect(d.audit!.actionsByYou).toHaveLength(1);
    expect(d.audit!.entriesAboutYou).toHaveLength(2);
    expect(d.mail!.messages!.length).toBeGreaterThanOrEqual(1);
    expect(d.rateLimits!.counters!.length).toBeGreaterThanOrEqual(1);
    expect(d.account!.sessions).toHaveLength(1);
    expect(d.account!.signInMethods).toHaveLength(1);
    expect(d.account!.pendingLinks).toEqual([expect.objectContaining({ purpose: 'reset-password' })]);
  });

  it('holds every row the declared tables keep about the user', async () => {
    const ids = await rowIdsOf(a.userId, a.email);
    // Credential rows are exported as summaries (provider, dates), not by their internal ids.
    for (const skip of ['account', 'two_factor', 'verification']) ids.delete(skip);
    for (const name of ['ledger_accounts', 'journal_entries', 'deposits', 'purchases', 'user_packs', 'openings', 'owned_cards', 'buybacks', 'promo_redemptions', 'user_seeds', 'session', 'audit_log']) {
      expect(ids.get(name)?.length ?? 0, name).toBeGreaterThan(0);
    }
    for (const [table, rows] of ids) for (const id of rows) expect(json, `${table} ${id}`).toContain(id);
  });

  it('finds the user only in declared columns (data walk)', async () => {
    const byId = await columnsHolding(a.userId);
    const byEmail = await columnsHolding(a.email);
    for (const c of [...byId, ...byEmail]) expect(declaredColumns.has(c), `${c} holds the user but no section declares it`).toBe(true);
    expect(byEmail).toEqual(expect.arrayContaining(['mail_messages.to', 'rate_limits.key', 'user.email']));
  });

  it('exports no secret', async () => {
    const secrets: string[] = [];
    const q = (s: ReturnType<typeof sql>) => t.deps.dbh.query<{ v: string }>(s);
    for (const r of await q(sql`select password as v from account where user_id = ${a.userId} and password is not null`)) secrets.push(r.v);
    for (const r of await q(sql`select secret as v from two_factor where user_id = ${a.userId} union all select backup_codes from two_factor where user_id = ${a.userId}`)) secrets.push(r.v);
    for (const r of await q(sql`select token as v from session where user_id = ${a.userId}`)) secrets.push(r.v);
    for (const r of await q(sql`select identifier as v from verification where value = ${a.userId}`)) secrets.push(r.v, r.v.split(':')[1]!);
    for (const r of await q(sql`select jsonb_array_elements_text(links) as v from mail_messages where lower("to") = lower(${a.email})`)) secrets.push(r.v);
    const active = await q(sql`select server_seed as v from user_seeds where user_id = ${a.userId} and revealed_at is null`);
    expect(active).toHaveLength(1);
    secrets.push(active[0]!.v, a.totpSecret!, ...a.backupCodes);
    expect(secrets.length).toBeGreaterThan(8);
    for (const s of secrets) expect(json.includes(s), `secret ${s.slice(0, 12)}…`).toBe(false);
    // The active seed's hash is there, and the rotated (revealed) seed itself.
    const [activeHash] = await q(sql`select server_seed_hash as v from user_seeds where user_id = ${a.userId} and revealed_at is null`);
    const [revealed] = await q(sql`select server_seed as v from user_seeds where user_id = ${a.userId} and revealed_at is not null`);
    expect(json).toContain(activeHash!.v);
    expect(json).toContain(revealed!.v);
  });

  it("never shows another user's rows", async () => {
    const others = await rowIdsOf(b.userId, b.email);
    expect(others.get('openings')?.length).toBe(1);
    for (const [table, rows] of others) for (const id of rows) expect(json.includes(id), `${table} ${id} of another user`).toBe(false);
    expect(json).not.toContain(b.userId);
    expect(json).not.toContain(b.email);
  });

  it('deletes or pseudonymises per policy, in one go, keeping the books', async () => {
    const before = await ledgerInvariants(t);
    const stockBefore = await stockPlusOwned();
    const [seedsBefore] = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from user_seeds where user_id = ${a.userId}`);
    expect(Number(seedsBefore!.n)).toBe(2);
    // A counter for an address that merely contains A's must survive.
    await t.deps.dbh.query(sql`insert into rate_limits (key, count, window_start) values (${`auth:sign-in:email:x${a.email}`}, 1, now())`);

    const del = await call(a, 'POST', '/api/account/delete', { password: a.password, code: totpCode(a.totpSecret!), confirm: 'DELETE' });
    expect(del.status).toBe(200);
    const q = <T>(s: ReturnType<typeof sql>) => t.deps.dbh.query<T>(s);

    // Rate limits: A's counters gone, B's and the look-alike address's kept.
    const keys = (await q<{ key: string }>(sql`select key from rate_limits`)).map((r) => r.key);
    expect(keys).toContain(`auth:sign-in:email:${b.email}`);
    expect(keys).toContain(`auth:sign-in:email:x${a.email}`);
    expect(keys).not.toContain(`auth:sign-in:email:${a.email}`);
    await t.deps.dbh.query(sql`delete from rate_limits where key = ${`auth:sign-in:email:x${a.email}`}`);

    // Nothing names the person any more: not their email, username or name, anywhere.
    expect(await columnsHolding(a.email)).toEqual([]);
    expect(await columnsHolding(a.username)).toEqual([]);
    // Their id remains only where the policy keeps rows (pseudonymous money/ownership/security records).
    const kept = new Set(declared.filter((d) => d.onDelete === 'keep').map((d) => d.name));
    const stillKeyed = await columnsHolding(a.userId);
    for (const c of stillKeyed) expect(kept.has(c.split('.')[0]!), `${c} still holds the deleted user`).toBe(true);
    for (const d of declared.filter((x) => x.onDelete === 'delete')) {
      expect(stillKeyed.filter((c) => c.startsWith(`${d.name}.`)), d.name).toEqual([]);
    }
    // Kept rows: still there.
    for (const table of ['ledger_accounts', 'journal_entries', 'deposits', 'purchases', 'openings', 'owned_cards', 'buybacks', 'promo_redemptions']) {
      expect(stillKeyed.some((c) => c.startsWith(`${table}.`)), table).toBe(true);
    }

    // Seeds: the unused active pair is gone; the used one stays, revealed, as the openings' proof.
    const seeds = await q<{ active: boolean; revealed_at: Date | null }>(sql`select active, revealed_at from user_seeds where user_id = ${a.userId}`);
    expect(seeds).toHaveLength(1);
    expect(seeds[0]!.active).toBe(false);
    expect(seeds[0]!.revealed_at).not.toBeNull();
    // The audit log keeps A's actions without their IP (the deletion entry keeps the one that asked).
    const ips = await q<{ action: string; ip: string | null }>(sql`select action, ip from audit_log where actor_id = ${a.userId} order by created_at`);
    expect(ips.map((r) => r.action)).toEqual(['account.test', 'account.delete']);
    expect(ips[0]!.ip).toBeNull();
    const [note] = await q<{ after: { email: string; username: string } }>(sql`select after from audit_log where action = 'user.note' and target_id = ${a.userId}`);
    expect(note!.after.email).toMatch(/@deleted\.invalid$/);
    expect(note!.after.username).toMatch(/^deleted-/);
    // The books: every balance equals its ledger, nothing moved; stock plus owned copies unchanged.
    const after = await ledgerInvariants(t);
    expect(after.mismatched).toEqual([]);
    expect(after.orphanLedgers).toBe(0);
    expect(after.total).toBe(before.total);
    expect(await shopInvariants(t)).toEqual(CLEAN);
    expect(await stockPlusOwned()).toBe(stockBefore);

    // B is untouched and can still export.
    const bExport = await ok(call(b, 'GET', '/api/account/export'));
    expect(bExport.data.shop.openings).toHaveLength(1);
    // A is signed out.
    expect((await call(a, 'GET', '/api/account')).status).toBe(401);
  });
});
