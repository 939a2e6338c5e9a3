import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminBuybackList, BuybackQuote, BuybackRates, BuybackResult } from '../../../shared/contracts/collection.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { buybackLines, buybacks } from '../../db/schema/buyback.ts';
import { appSettings } from '../../db/schema/settings.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { DEFAULT_RATE_KEY } from './rates.ts';
import { giveCards, makeCard, makeClass, statusesOf, stockOf } from './test-support.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const sellAs = (userId: string, body: unknown, key = randomUUID()) =>
  t.as(userId).post('/api/buyback', body, { 'Idempotency-Key': key });

async function setup(opts: { valueCents?: number; rateBp?: number | null; stock?: number } = {}) {
  const cls = await makeClass(t, { buybackRateBp: opts.rateBp ?? null });
  const card = await makeCard(t, { classId: cls.id, valueCents: opts.valueCents ?? 1000, stock: opts.stock ?? 10 });
  return { cls, card };
}

describe('quote', () => {
  it('pays 85% of the current market value by default and a class override where set, rounded down', async () => {
    const u = await t.makeUser();
    const a = await setup({ valueCents: 999 });
    const b = await setup({ valueCents: 2000, rateBp: 9000 });
    const [oa] = await giveCards(t, u, a.card.id);
    const [ob] = await giveCards(t, u, b.card.id);
    const res = await t.as(u).post('/api/buyback/quote', { ownedCardIds: [oa, ob] });
    expect(res.status).toBe(200);
    const q = (await res.json()) as BuybackQuote;
    expect(q.defaultRateBp).toBe(8500);
    const byId = Object.fromEntries(q.lines.map((l) => [l.ownedCardId, l]));
    expect(byId[oa!]).toMatchObject({ marketValueCents: 999, rateBp: 8500, amountCents: 849 }); // 849.15 → 849
    expect(byId[ob!]).toMatchObject({ marketValueCents: 2000, rateBp: 9000, amountCents: 1800 });
    expect(q.totalCents).toBe(849 + 1800);
    expect(q.marketValueCents).toBe(2999);
  });

  it('uses the current market value, not the value when pulled', async () => {
    const u = await t.makeUser();
    const { card } = await setup({ valueCents: 1000 });
    const [o] = await giveCards(t, u, card.id);
    await t.deps.dbh.query(sql`update cards set value_cents = 2000 where id = ${card.id}`);
    const q = (await (await t.as(u).post('/api/buyback/quote', { ownedCardIds: [o] })).json()) as BuybackQuote;
    expect(q.totalCents).toBe(1700);
  });

  it('validates the body with field messages', async () => {
    const u = await t.makeUser();
    const res = await t.as(u).post('/api/buyback/quote', {});
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { fields: Record<string, string[]> } };
    expect(body.error.fields.ownedCardIds).toBeTruthy();
    const dup = randomUUID();
    expect((await t.as(u).post('/api/buyback/quote', { ownedCardIds: [dup, dup] })).status).toBe(400);
    expect((await t.as(u).post('/api/buyback/quote', { ownedCardIds: ['nope'] })).status).toBe(400);
    expect((await t.as(null).post('/api/buyback/quote', { ownedCardIds: [dup] })).status).toBe(401);
  });
});

describe('selling back', () => {
  it('credits the ledger once, returns the copy to stock, marks the card sold back and pushes balance.changed', async () => {
    const u = await t.makeUser();
    const { card } = await setup({ valueCents: 1000, stock: 5 });
    const [o] = await giveCards(t, u, card.id);
    expect(await stockOf(t, card.id)).toBe(4);
    const events: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => events.push(e));
    const res = await sellAs(u, { ownedCardIds: [o], expectedTotalCents: 850 });
    // On PostgreSQL the event comes back through LISTEN/NOTIFY.
    // The sale's notification.created may arrive first: wait for the balance event itself.
    for (let i = 0; i < 40 && !events.some((e) => e.topic === `user:${u}` && e.type === 'balance.changed'); i++) await new Promise((r) => setTimeout(r, 50));
    off();
    expect(res.status).toBe(201);
    const r = (await res.json()) as BuybackResult;
    expect(r.buyback.totalCents).toBe(850);
    expect(r.balanceCents).toBe(850);
    expect(await stockOf(t, card.id)).toBe(5);
    expect(await statusesOf(t, [o!])).toEqual({ [o!]: 'sold_back' });
    const entries = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'buyback', amountCents: 850, referenceType: 'buyback', referenceId: r.buyback.id });
    expect(r.buyback.ledgerEntryId).toBe(entries[0]!.id);
    expect(events.some((e) => e.topic === `user:${u}` && e.type === 'balance.changed' && (e.data as { balanceCents: number }).balanceCents === 850)).toBe(true);

    // It shows in the user's history, filtered by kind.
    const hist = (await (await t.as(u).get('/api/wallet/history?kind=buyback')).json()) as { entries: Array<{ referenceId: string }> };
    expect(hist.entries.map((e) => e.referenceId)).toEqual([r.buyback.id]);
    // The card view tells when it was sold.
    const detail = (await (await t.as(u).get(`/api/collection/${o}`)).json()) as { buyback: { id: string; amountCents: number } };
    expect(detail.buyback).toMatchObject({ id: r.buyback.id, amountCents: 850 });
  });

  it('refuses a card that is not in the vault with 409 and changes nothing', async () => {
    const u = await t.makeUser();
    const { card } = await setup({ valueCents: 1000 });
    const [sold, shipped, kept] = await giveCards(t, u, card.id, 3);
    expect((await sellAs(u, { ownedCardIds: [sold] })).status).toBe(201);
    await t.deps.dbh.query(sql`update owned_cards set status = 'in_shipment' where id = ${shipped}`);
    const stock = await stockOf(t, card.id);
    const balance = (await getBalance(t.deps.db, u)).balanceCents;

    const again = await sellAs(u, { ownedCardIds: [sold] });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('not_in_vault');
    const mixed = await sellAs(u, { ownedCardIds: [kept, shipped] });
    expect(mixed.status).toBe(409);
    const err = (await mixed.json()) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('not_in_vault');
    expect(err.error.message).toMatch(/not in your vault/);

    expect(await statusesOf(t, [kept!, shipped!])).toEqual({ [kept!]: 'in_vault', [shipped!]: 'in_shipment' });
    expect(await stockOf(t, card.id)).toBe(stock);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(balance);
    // The quote says the same before anything is confirmed.
    expect((await t.as(u).post('/api/buyback/quote', { ownedCardIds: [shipped] })).status).toBe(409);
  });

  it("answers 404 for another user's card, in the quote, the sale and the card view", async () => {
    const owner = await t.makeUser();
    const thief = await t.makeUser();
    const { card } = await setup();
    const [o] = await giveCards(t, owner, card.id);
    expect((await t.as(thief).post('/api/buyback/quote', { ownedCardIds: [o] })).status).toBe(404);
    expect((await sellAs(thief, { ownedCardIds: [o] })).status).toBe(404);
    expect((await t.as(thief).get(`/api/collection/${o}`)).status).toBe(404);
    expect(await statusesOf(t, [o!])).toEqual({ [o!]: 'in_vault' });
    expect((await getBalance(t.deps.db, thief)).balanceCents).toBe(0);
  });

  it('needs a verified email and an Idempotency-Key, and replays a retried request', async () => {
    const unverified = await t.makeUser({ verified: false });
    const { card } = await setup({ valueCents: 400 });
    const [x] = await giveCards(t, unverified, card.id);
    const r403 = await sellAs(unverified, { ownedCardIds: [x] });
    expect(r403.status).toBe(403);
    expect(((await r403.json()) as { error: { code: string } }).error.code).toBe('email_not_verified');

    const u = await t.makeUser();
    const [o] = await giveCards(t, u, card.id);
    expect((await t.as(u).post('/api/buyback', { ownedCardIds: [o] })).status).toBe(400);
    const key = randomUUID();
    const first = await sellAs(u, { ownedCardIds: [o] }, key);
    const second = await sellAs(u, { ownedCardIds: [o] }, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(340);
  });

  it('refuses when prices moved since the confirmed quote', async () => {
    const u = await t.makeUser();
    const { card } = await setup({ valueCents: 1000 });
    const [o] = await giveCards(t, u, card.id);
    await t.deps.dbh.query(sql`update cards set value_cents = 500 where id = ${card.id}`);
    const res = await sellAs(u, { ownedCardIds: [o], expectedTotalCents: 850 });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('quote_changed');
    expect(await statusesOf(t, [o!])).toEqual({ [o!]: 'in_vault' });
  });

  it('sells everything below an amount (the whole vault, or among given cards)', async () => {
    const u = await t.makeUser();
    const cheap = await setup({ valueCents: 100 });
    const mid = await setup({ valueCents: 499 });
    const dear = await setup({ valueCents: 5000 });
    const [c1, c2] = await giveCards(t, u, cheap.card.id, 2);
    const [m1] = await giveCards(t, u, mid.card.id);
    const [d1] = await giveCards(t, u, dear.card.id);

    // Among given cards: c2 is already gone, it simply drops out of the filter.
    expect((await sellAs(u, { ownedCardIds: [c2] })).status).toBe(201);
    const some = await sellAs(u, { ownedCardIds: [c1, c2, d1], belowCents: 500 });
    expect(some.status).toBe(201);
    expect(((await some.json()) as BuybackResult).lines.map((l) => l.ownedCardId)).toEqual([c1]);

    const rest = await sellAs(u, { belowCents: 500 });
    expect(rest.status).toBe(201);
    expect(((await rest.json()) as BuybackResult).lines.map((l) => l.ownedCardId)).toEqual([m1]);
    expect(await statusesOf(t, [d1!])).toEqual({ [d1!]: 'in_vault' });
    const none = await sellAs(u, { belowCents: 500 });
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('nothing_to_sell');
  });

  it('records a worthless card with no ledger entry (entries are never zero)', async () => {
    const u = await t.makeUser();
    const { card } = await setup({ valueCents: 1 });
    const [o] = await giveCards(t, u, card.id);
    const res = await sellAs(u, { ownedCardIds: [o] });
    expect(res.status).toBe(201);
    const r = (await res.json()) as BuybackResult;
    expect(r.buyback).toMatchObject({ totalCents: 0, ledgerEntryId: null });
    expect(await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u))).toHaveLength(0);
  });
});

describe('concurrency', () => {
  it('sell vs sell on one card: exactly one wins, paid once', async () => {
    for (let round = 0; round < 5; round++) {
      const u = await t.makeUser();
      const { card } = await setup({ valueCents: 1000, stock: 3 });
      const [o] = await giveCards(t, u, card.id);
      const results = await Promise.all([sellAs(u, { ownedCardIds: [o] }), sellAs(u, { ownedCardIds: [o] }), sellAs(u, { belowCents: 5000 })]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409, 409]);
      expect((await getBalance(t.deps.db, u)).balanceCents).toBe(850);
      expect(await stockOf(t, card.id)).toBe(3);
      const lines = await t.deps.db.select().from(buybackLines).where(eq(buybackLines.ownedCardId, o!));
      expect(lines).toHaveLength(1);
    }
  });

  it('many sales at once: money, stock, cards and ledger agree', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => t.makeUser()));
    const a = await setup({ valueCents: 1234, stock: 40 });
    const b = await setup({ valueCents: 777, rateBp: 9500, stock: 40 });
    const owned = new Map<string, string[]>();
    for (const u of users) owned.set(u, [...(await giveCards(t, u, a.card.id, 5)), ...(await giveCards(t, u, b.card.id, 5))]);
    const stockBefore = (await stockOf(t, a.card.id)) + (await stockOf(t, b.card.id));

    // Each user fires overlapping sales: single cards, pairs and "everything below".
    const requests: Array<Promise<Response>> = [];
    for (const u of users) {
      const ids = owned.get(u)!;
      for (let i = 0; i < ids.length; i++) requests.push(sellAs(u, { ownedCardIds: [ids[i]] }));
      for (let i = 0; i + 1 < ids.length; i += 2) requests.push(sellAs(u, { ownedCardIds: [ids[i + 1], ids[i]] }));
      requests.push(sellAs(u, { belowCents: 100_000 }));
    }
    const responses = await Promise.all(requests);
    for (const r of responses) expect([201, 409]).toContain(r.status);

    const allIds = [...owned.values()].flat();
    const statuses = await statusesOf(t, allIds);
    expect(Object.values(statuses).every((s) => s === 'sold_back')).toBe(true);
    const lines = await t.deps.dbh.query<{ owned_card_id: string; n: string }>(
      sql`select owned_card_id, count(*) as n from buyback_lines where owned_card_id in ${allIds} group by owned_card_id`,
    );
    expect(lines).toHaveLength(allIds.length);
    expect(lines.every((l) => Number(l.n) === 1)).toBe(true);
    expect((await stockOf(t, a.card.id)) + (await stockOf(t, b.card.id))).toBe(stockBefore + allIds.length);

    for (const u of users) {
      const expected = 5 * Math.floor((1234 * 8500) / 10000) + 5 * Math.floor((777 * 9500) / 10000);
      expect((await getBalance(t.deps.db, u)).balanceCents).toBe(expected);
      const [sums] = await t.deps.dbh.query<{ ledger: string; bb: string }>(sql`
        select (select coalesce(sum(amount_cents), 0) from ledger_entries where user_id = ${u} and kind = 'buyback') as ledger,
               (select coalesce(sum(total_cents), 0) from buybacks where user_id = ${u}) as bb`);
      expect(Number(sums!.ledger)).toBe(expected);
      expect(Number(sums!.bb)).toBe(expected);
    }
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeAfter).toBe(0);
  });
});

describe('admin', () => {
  it('reads and sets the default and per-class rates, audited; sales use them', async () => {
    // Rates move money: the owner's (ADR 0024).
    const admin = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    const { cls, card } = await setup({ valueCents: 1000 });
    const other = await setup({ valueCents: 1000 });
    const get = (await (await t.as(admin).get('/api/admin/buyback/rates')).json()) as BuybackRates;
    expect(get.defaultRateBp).toBe(8500);
    expect(get.classes.find((c) => c.id === cls.id)).toMatchObject({ rateBp: null, effectiveRateBp: 8500 });

    const put = await t.as(admin).put('/api/admin/buyback/rates', { defaultRateBp: 8000, classes: [{ classId: cls.id, rateBp: 9250 }] });
    expect(put.status).toBe(200);
    const rates = (await put.json()) as BuybackRates;
    expect(rates.defaultRateBp).toBe(8000);
    expect(rates.classes.find((c) => c.id === cls.id)).toMatchObject({ rateBp: 9250, effectiveRateBp: 9250 });
    expect(rates.classes.find((c) => c.id === other.cls.id)).toMatchObject({ rateBp: null, effectiveRateBp: 8000 });
    const [row] = await t.deps.db.select().from(appSettings).where(eq(appSettings.key, DEFAULT_RATE_KEY));
    expect(row!.value).toBe(8000);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'buyback.rates.update'), eq(auditLog.actorId, admin)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.before).toMatchObject({ defaultRateBp: 8500 });

    const [o1] = await giveCards(t, u, card.id);
    const [o2] = await giveCards(t, u, other.card.id);
    const q = (await (await t.as(u).post('/api/buyback/quote', { ownedCardIds: [o1, o2] })).json()) as BuybackQuote;
    expect(q.totalCents).toBe(925 + 800);

    const bad = await t.as(admin).put('/api/admin/buyback/rates', { defaultRateBp: 10_001, classes: [{ classId: cls.id, rateBp: -1 }] });
    expect(bad.status).toBe(400);
    const fields = ((await bad.json()) as { error: { fields: Record<string, string[]> } }).error.fields;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['defaultRateBp', 'classes.0.rateBp']));
    const unknown = await t.as(admin).put('/api/admin/buyback/rates', { defaultRateBp: 8500, classes: [{ classId: randomUUID(), rateBp: 1 }] });
    expect(unknown.status).toBe(400);

    // Back to the default for the other suites in this file.
    await t.as(admin).put('/api/admin/buyback/rates', { defaultRateBp: 8500, classes: [{ classId: cls.id, rateBp: null }] });
  });

  it('shows the configured rate of a sale, not paid ÷ value (85%, not 84.98%), and null for mixed rates', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const u = await t.makeUser();
    const a = await setup({ valueCents: 999 }); // 85% of 999 = 849.15 → 849; 849/999 = 84.98%
    const b = await setup({ valueCents: 2000, rateBp: 9000 });
    const [oa] = await giveCards(t, u, a.card.id);
    const [oa2] = await giveCards(t, u, a.card.id);
    const [ob] = await giveCards(t, u, b.card.id);
    expect((await sellAs(u, { ownedCardIds: [oa] })).status).toBe(201);
    expect((await sellAs(u, { ownedCardIds: [oa2, ob] })).status).toBe(201);
    const list = (await (await t.as(admin).get(`/api/admin/buybacks?userId=${u}`)).json()) as AdminBuybackList;
    const single = list.items.find((i) => i.cardCount === 1)!;
    expect(single).toMatchObject({ marketValueCents: 999, totalCents: 849, rateBp: 8500 });
    const mixed = list.items.find((i) => i.cardCount === 2)!;
    expect(mixed.rateBp).toBeNull();
    expect(mixed.lines.map((l) => l.rateBp).sort()).toEqual([8500, 9000]);
  });

  it('lists every buyback with lines, filters and daily totals', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const u = await t.makeUser();
    const { cls, card } = await setup({ valueCents: 2000 });
    const [o1, o2] = await giveCards(t, u, card.id, 2);
    await sellAs(u, { ownedCardIds: [o1] });
    await sellAs(u, { ownedCardIds: [o2] });
    const res = await t.as(admin).get(`/api/admin/buybacks?userId=${u}`);
    expect(res.status).toBe(200);
    const list = (await res.json()) as AdminBuybackList;
    expect(list.total).toBe(2);
    expect(list.items[0]).toMatchObject({ userId: u, cardCount: 1, totalCents: 1700, rateBp: 8500 });
    expect(list.items[0]!.lines[0]).toMatchObject({ classId: cls.id, amountCents: 1700 });
    expect(list.summary).toMatchObject({ count: 2, cardCount: 2, totalCents: 3400 });
    const today = new Date().toISOString().slice(0, 10);
    expect(list.daily).toEqual([{ day: today, count: 2, cardCount: 2, totalCents: 3400 }]);

    const byClass = (await (await t.as(admin).get(`/api/admin/buybacks?classId=${cls.id}`)).json()) as AdminBuybackList;
    expect(byClass.total).toBe(2);
    const byName = (await (await t.as(admin).get(`/api/admin/buybacks?user=${u.slice(0, 10)}`)).json()) as AdminBuybackList;
    expect(byName.items.every((i) => i.userId === u)).toBe(true);
    const past = (await (await t.as(admin).get(`/api/admin/buybacks?userId=${u}&to=2000-01-01`)).json()) as AdminBuybackList;
    expect(past.total).toBe(0);
    expect((await t.as(admin).get('/api/admin/buybacks?from=yesterday')).status).toBe(400);
    const total = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(buybacks);
    expect(total[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it('is for admins with a second factor only', async () => {
    const user = await t.makeUser();
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    for (const path of ['/api/admin/buybacks', '/api/admin/buyback/rates']) {
      expect((await t.as(null).get(path)).status).toBe(401);
      expect((await t.as(user).get(path)).status).toBe(403);
      const r = await t.as(noMfa).get(path);
      expect(r.status).toBe(403);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('mfa_required');
    }
    expect((await t.as(user).put('/api/admin/buyback/rates', { defaultRateBp: 1 })).status).toBe(403);
  });
});


