import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit.ts';
import { balances, ledgerEntries } from '../../db/schema/wallet.ts';
import { AppError } from '../../http/errors.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { credit, debit, getBalance } from './service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from './test-support.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const deposit = (userId: string, cents: number) =>
  t.deps.db.transaction((tx) => credit(tx, { userId, amountCents: cents, kind: 'deposit', referenceType: 'deposit', referenceId: randomUUID() }));

describe('wallet service', () => {
  it('credits and debits with a balance_after on every entry', async () => {
    const u = await t.makeUser();
    await deposit(u, 1000);
    const r = await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 300, kind: 'pack_purchase', actorId: u }));
    expect(r.balanceCents).toBe(700);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(700);
    const rows = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u)).orderBy(ledgerEntries.seq);
    expect(rows.map((e) => [e.amountCents, e.balanceAfter, e.kind])).toEqual([
      [1000, 1000, 'deposit'],
      [-300, 700, 'pack_purchase'],
    ]);
  });

  it('refuses a debit larger than the balance with insufficient_funds and writes nothing', async () => {
    const u = await t.makeUser();
    await deposit(u, 500);
    const err = await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 501, kind: 'pack_purchase' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(409);
    expect((err as AppError).code).toBe('insufficient_funds');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(500);
    const err2 = await t.deps.db.transaction((tx) => debit(tx, { userId: 'nobody', amountCents: 1, kind: 'pack_purchase' })).catch((e: unknown) => e);
    expect((err2 as AppError).code).toBe('insufficient_funds');
  });

  it('rolls the money back with the rest of the transaction', async () => {
    const u = await t.makeUser();
    await deposit(u, 500);
    await expect(
      t.deps.db.transaction(async (tx) => {
        await debit(tx, { userId: u, amountCents: 200, kind: 'pack_purchase' });
        throw new Error('the opening failed');
      }),
    ).rejects.toThrow('the opening failed');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(500);
    expect(await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u))).toHaveLength(1);
  });

  it('has a database CHECK that keeps balances at or above zero', async () => {
    const u = await t.makeUser();
    await deposit(u, 100);
    await expect(t.deps.db.update(balances).set({ cents: -1 }).where(eq(balances.userId, u))).rejects.toThrow();
  });

  it('rejects a second ledger entry with the same idempotency key for a user', async () => {
    const u = await t.makeUser();
    await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 100, kind: 'deposit', idempotencyKey: 'dep-1' }));
    await expect(
      t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 100, kind: 'deposit', idempotencyKey: 'dep-1' })),
    ).rejects.toThrow();
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(100);
  });

  it('publishes balance.changed to the user after the commit, not on rollback', async () => {
    const u = await t.makeUser();
    const seen: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => {
      if (e.topic === `user:${u}`) seen.push(e);
    });
    await deposit(u, 250);
    await t.deps.db.transaction(async (tx) => {
      await debit(tx, { userId: u, amountCents: 50, kind: 'pack_purchase' });
      throw new Error('nope');
    }).catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    off();
    expect(seen.map((e) => [e.type, e.data])).toEqual([['balance.changed', { balanceCents: 250 }]]);
  });

  it('50 parallel spends against a balance covering exactly 10 → exactly 10 succeed', async () => {
    const users = [await t.makeUser(), await t.makeUser(), await t.makeUser()];
    const price = 137;
    for (const u of users) await deposit(u, price * 10);
    const before = await ledgerInvariants(t);
    const attempts = users.flatMap((u) =>
      Array.from({ length: 50 }, () =>
        t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: price, kind: 'pack_purchase', actorId: u })),
      ),
    );
    const results = await Promise.allSettled(attempts);
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter(
      (r) => r.status === 'rejected' && r.reason instanceof AppError && r.reason.code === 'insufficient_funds',
    ).length;
    expect(ok).toBe(30);
    expect(refused).toBe(120);
    for (const u of users) expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances).toBe(0);
    expect(inv.negativeAfter).toBe(0);
    expect(inv.orphanLedgers).toBe(0);
    // Total over all users = deposits − spends.
    const [sums] = await t.deps.dbh.query<{ deposits: string; spends: string }>(sql`
      select coalesce(sum(amount_cents) filter (where amount_cents > 0), 0) as deposits,
             coalesce(-sum(amount_cents) filter (where amount_cents < 0), 0) as spends from ledger_entries`);
    expect(inv.total).toBe(Number(sums!.deposits) - Number(sums!.spends));
    expect(before.total - inv.total).toBe(30 * price);
  });
});

describe('balance and history API', () => {
  it('needs a signed-in user', async () => {
    expect((await t.as(null).get('/api/wallet/balance')).status).toBe(401);
    expect((await t.as(null).get('/api/wallet/history')).status).toBe(401);
    expect((await t.as(null).get('/api/wallet/history.csv')).status).toBe(401);
  });

  it('answers the balance as balanceCents', async () => {
    const u = await t.makeUser();
    expect(await (await t.as(u).get('/api/wallet/balance')).json()).toMatchObject({ balanceCents: 0, currency: 'USD' });
    await deposit(u, 1234);
    expect(await (await t.as(u).get('/api/wallet/balance')).json()).toMatchObject({ balanceCents: 1234 });
  });

  it('filters history by kind and date, paginates, and never shows another user', async () => {
    const u = await t.makeUser();
    const other = await t.makeUser();
    await deposit(other, 999);
    for (let i = 0; i < 5; i++) await deposit(u, 100 + i);
    await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 50, kind: 'pack_purchase', referenceType: 'opening', referenceId: 'op1' }));
    const all = await (await t.as(u).get('/api/wallet/history?pageSize=4')).json();
    expect(all.total).toBe(6);
    expect(all.entries).toHaveLength(4);
    expect(all.entries[0]).toMatchObject({ kind: 'pack_purchase', amountCents: -50, referenceType: 'opening', referenceId: 'op1' });
    const page2 = await (await t.as(u).get('/api/wallet/history?pageSize=4&page=2')).json();
    expect(page2.entries).toHaveLength(2);
    const deposits = await (await t.as(u).get('/api/wallet/history?kind=deposit')).json();
    expect(deposits.total).toBe(5);
    const both = await (await t.as(u).get('/api/wallet/history?kind=deposit,pack_purchase')).json();
    expect(both.total).toBe(6);
    const today = new Date().toISOString().slice(0, 10);
    expect((await (await t.as(u).get(`/api/wallet/history?from=${today}&to=${today}`)).json()).total).toBe(6);
    expect((await (await t.as(u).get('/api/wallet/history?to=2000-01-01')).json()).total).toBe(0);
    const bad = await t.as(u).get('/api/wallet/history?kind=nope&from=yesterday');
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.fields.kind).toBeDefined();
    expect(body.error.fields.from).toBeDefined();
  });

  it('exports the filtered history as CSV', async () => {
    const u = await t.makeUser();
    await deposit(u, 2500);
    await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 1, kind: 'pack_purchase', memo: '=HYPERLINK("x")' }));
    const res = await t.as(u).get('/api/wallet/history.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('date,kind,amount_usd,balance_after_usd,reference_type,reference_id,memo,entry_id');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',pack_purchase,-0.01,24.99,');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toContain(',deposit,25.00,25.00,');
    const only = await (await t.as(u).get('/api/wallet/history.csv?kind=deposit')).text();
    expect(only.trim().split('\r\n')).toHaveLength(2);
  });
});

describe('admin balance', () => {
  let admin: string;
  let noMfa: string;
  beforeAll(async () => {
    admin = await t.makeUser({ role: 'admin' });
    noMfa = await t.makeUser({ role: 'admin', mfa: false });
  });

  it('is admin-only with a second factor', async () => {
    const u = await t.makeUser();
    expect((await t.as(null).get(`/api/admin/users/${u}/balance`)).status).toBe(401);
    expect((await t.as(u).get(`/api/admin/users/${u}/balance`)).status).toBe(403);
    const r = await t.as(noMfa).get(`/api/admin/users/${u}/balance`);
    expect(r.status).toBe(403);
    expect((await r.json()).error.code).toBe('mfa_required');
    expect((await t.as(u).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 100, reason: 'gift' }, idem())).status).toBe(403);
    expect((await t.as(u).get(`/api/admin/users/${u}/history`)).status).toBe(403);
  });

  it('shows balance and recent entries, 404 for an unknown user', async () => {
    const u = await t.makeUser();
    await deposit(u, 700);
    const body = await (await t.as(admin).get(`/api/admin/users/${u}/balance`)).json();
    expect(body).toMatchObject({ userId: u, balanceCents: 700 });
    expect(body.recent).toHaveLength(1);
    expect((await t.as(admin).get('/api/admin/users/nobody/balance')).status).toBe(404);
  });

  it('adjusts with a required reason, audited, never below zero', async () => {
    const u = await t.makeUser();
    const noReason = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 100, reason: '' }, idem());
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).error.fields.reason).toBeDefined();
    const noKey = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 100, reason: 'goodwill' });
    expect(noKey.status).toBe(400);
    expect((await noKey.json()).error.code).toBe('idempotency_key_required');

    const up = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 1500, reason: 'goodwill for a late shipment' }, idem());
    expect(up.status).toBe(200);
    expect((await up.json()).balanceCents).toBe(1500);
    const tooMuch = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: -1501, reason: 'correction' }, idem());
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).error.code).toBe('insufficient_funds');
    const down = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: -500, reason: 'correction' }, idem());
    expect((await down.json()).balanceCents).toBe(1000);

    const entries = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u)).orderBy(ledgerEntries.seq);
    expect(entries.map((e) => [e.kind, e.amountCents, e.actorId, e.memo])).toEqual([
      ['admin_adjustment', 1500, admin, 'goodwill for a late shipment'],
      ['admin_adjustment', -500, admin, 'correction'],
    ]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.targetId, u));
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => a.action)).toEqual(['wallet.adjust', 'wallet.adjust']);
    expect(audits.map((a) => (a.before as { balanceCents: number }).balanceCents).sort()).toEqual([0, 1500]);

    const hist = await (await t.as(admin).get(`/api/admin/users/${u}/history?kind=admin_adjustment`)).json();
    expect(hist.total).toBe(2);
    const csv = await t.as(admin).get(`/api/admin/users/${u}/history.csv`);
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(3);
  });

  it('50 parallel retries with one idempotency key → one effect, every answer the same', async () => {
    const u = await t.makeUser();
    const key = { 'Idempotency-Key': randomUUID() };
    const res = await Promise.all(
      Array.from({ length: 50 }, () => t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 321, reason: 'promo make-good' }, key)),
    );
    expect(res.map((r) => r.status)).toEqual(Array(50).fill(200));
    const bodies = await Promise.all(res.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.entryId)).size).toBe(1);
    expect(res.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(321);
    expect(await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u))).toHaveLength(1);

    // Same key, different body → 409; a replay later still answers the first result.
    const other = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: 999, reason: 'promo make-good' }, key);
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe('idempotency_conflict');
    const again = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { reason: 'promo make-good', amountCents: 321 }, key);
    expect(again.status).toBe(200);
    expect((await again.json()).entryId).toBe(bodies[0].entryId);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(321);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
  });

  it('replays a refused request with the same key instead of running it again', async () => {
    const u = await t.makeUser();
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: -100, reason: 'test' }, key);
    expect(first.status).toBe(409);
    await deposit(u, 500);
    const retry = await t.as(admin).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: -100, reason: 'test' }, key);
    expect(retry.status).toBe(409);
    expect((await retry.json()).error.code).toBe('insufficient_funds');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(500);
  });
});
