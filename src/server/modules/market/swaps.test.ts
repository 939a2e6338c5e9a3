import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMarketSummaryQuerySchema, adminMarketTradesQuerySchema } from '../../../shared/contracts/market-admin.ts';
import type { BinderItem, BinderPage, MarketSwap, MarketSwapPage } from '../../../shared/contracts/market.ts';
import { ownedCards, stockMovements } from '../../db/schema/inventory.ts';
import { marketSwaps } from '../../db/schema/market.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { referrals } from '../../db/schema/referrals.ts';
import { selfExclusions } from '../../db/schema/responsible-play.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { fund } from '../shipping/test-support.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { adminTrades, marketSummary } from './admin.ts';
import { marketExpiryJob } from './expiry-job.ts';
import { marketPersonalData } from './personal-data.ts';
import { buyerWith, codeOf, errOf, json, listOk } from './test-support.ts';

/** Trade binders and swaps (issue 43 item 4, ADR 0032), over HTTP, with the books checked by SQL. */

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const idem = () => ({ 'Idempotency-Key': randomUUID() });

/** A collector with `cards` vault copies (one card each, of `valueCents`) and `cents` deposited. */
async function collector(cards = 1, cents = 0, valueCents = 1000) {
  const userId = await buyerWith(t, cents);
  const cls = await makeClass(t);
  const copies: string[] = [];
  for (let i = 0; i < cards; i++) {
    const card = await makeCard(t, { classId: cls.id, valueCents, stock: 20, name: `Swap card ${randomUUID().slice(0, 8)}` });
    copies.push(...(await giveCards(t, userId, card.id)));
  }
  return { userId, copies };
}

const addBinder = (userId: string, copyId: string) => t.as(userId).put(`/api/market/binder/${copyId}`, {});
async function inBinder(userId: string, copyIds: string[]) {
  for (const id of copyIds) {
    const res = await addBinder(userId, id);
    if (res.status !== 200) throw new Error(`binder: ${res.status} ${await res.text()}`);
  }
}
const propose = (userId: string, body: Record<string, unknown>, headers: Record<string, string> = idem()) => t.as(userId).post('/api/market/swaps', body, headers);
async function proposeOk(userId: string, body: Record<string, unknown>) {
  const res = await propose(userId, body);
  if (res.status !== 201) throw new Error(`propose: ${res.status} ${await res.text()}`);
  return json<MarketSwap>(res);
}
const accept = (userId: string, swapId: string, headers: Record<string, string> = idem()) => t.as(userId).post(`/api/market/swaps/${swapId}/accept`, {}, headers);
const answer = (userId: string, swapId: string, action: 'decline' | 'cancel') => t.as(userId).post(`/api/market/swaps/${swapId}/${action}`, {});

const bal = (userId: string) => getBalance(t.deps.db, userId);
async function ownersOf(ids: string[]) {
  const rows = await t.deps.db.select({ id: ownedCards.id, ownerId: ownedCards.ownerId, status: ownedCards.status }).from(ownedCards).where(inArray(ownedCards.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, `${r.ownerId}:${r.status}`]));
}
const swapRow = async (id: string) => (await t.deps.db.select().from(marketSwaps).where(eq(marketSwaps.id, id)))[0]!;

/** The books: every entry balances, balances and holds match their postings, each user's held money is what their open offers and swaps hold. */
async function expectBooks() {
  const inv = await ledgerInvariants(t);
  expect(inv.mismatched).toEqual([]);
  expect(inv.negativeBalances).toBe(0);
  const [unbalanced] = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from (select entry_id from postings group by entry_id having sum(amount_cents) <> 0) x`);
  expect(Number(unbalanced!.n)).toBe(0);
  const holds = await t.deps.dbh.query<{ user_id: string; held: string; open: string }>(sql`
    select b.user_id, b.held_cents as held,
      coalesce((select sum(o.held_cents) from market_offers o where o.buyer_id = b.user_id and o.state = 'open'), 0)
      + coalesce((select sum(s.held_cents) from market_swaps s where s.proposer_id = b.user_id and s.state = 'open'), 0) as open
    from balances b`);
  expect(holds.filter((h) => Number(h.held) !== Number(h.open))).toEqual([]);
  const [owners] = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from owned_cards where owner_id is null`);
  expect(Number(owners!.n)).toBe(0);
}

describe('trade binders', () => {
  it('a collector opens vault copies to trade; others find them by card or name, the owner sees their own; out again, or gone when the copy leaves the vault', async () => {
    const a = await collector(2);
    const other = await collector();
    const res = await addBinder(a.userId, a.copies[0]!);
    expect(res.status).toBe(200);
    const item = await json<BinderItem>(res);
    expect(item).toMatchObject({ ownedCardId: a.copies[0], ownerId: a.userId, valueCents: 1000 });
    expect((await addBinder(a.userId, a.copies[0]!)).status).toBe(200); // idempotent
    await inBinder(a.userId, [a.copies[1]!]);

    const mine = await json<BinderPage>(await t.as(a.userId).get('/api/market/binder'));
    expect(mine.items.map((i) => i.ownedCardId).sort()).toEqual([...a.copies].sort());
    // One copy, whatever the binder's size (the vault's toggle asks this way); not another's copy.
    const one = await json<BinderPage>(await t.as(a.userId).get(`/api/market/binder?ownedCardId=${a.copies[1]}&pageSize=1`));
    expect(one.items.map((i) => i.ownedCardId)).toEqual([a.copies[1]]);
    expect((await json<BinderPage>(await t.as(other.userId).get(`/api/market/binder?ownedCardId=${a.copies[1]}`))).total).toBe(0);
    expect((await t.as(a.userId).get('/api/market/binder?ownedCardId=x')).status).toBe(400);
    const byCard = await json<BinderPage>(await t.as(other.userId).get(`/api/market/binders?cardId=${item.cardId}`));
    expect(byCard.items.map((i) => i.ownedCardId)).toEqual([a.copies[0]]);
    const byName = await json<BinderPage>(await t.as(other.userId).get(`/api/market/binders?q=${encodeURIComponent(item.name.slice(10))}`));
    expect(byName.items.map((i) => i.ownedCardId)).toEqual([a.copies[0]]);
    // Not your own in others' binders.
    const self = await json<BinderPage>(await t.as(a.userId).get(`/api/market/binders?cardId=${item.cardId}`));
    expect(self.total).toBe(0);

    // Listing the copy takes it out of view; delisting brings it back.
    const l = await listOk(t, a.userId, a.copies[0]!, 1500);
    expect((await json<BinderPage>(await t.as(other.userId).get(`/api/market/binders?cardId=${item.cardId}`))).total).toBe(0);
    expect((await t.as(a.userId).delete(`/api/market/${l.id}`)).status).toBe(200);
    expect((await json<BinderPage>(await t.as(other.userId).get(`/api/market/binders?cardId=${item.cardId}`))).total).toBe(1);

    expect((await t.as(a.userId).delete(`/api/market/binder/${a.copies[0]}`)).status).toBe(204);
    expect((await t.as(a.userId).delete(`/api/market/binder/${a.copies[0]}`)).status).toBe(204);
    expect((await json<BinderPage>(await t.as(other.userId).get(`/api/market/binders?cardId=${item.cardId}`))).total).toBe(0);
  });

  it('refuses what is not yours or not in the vault, bad ids, and visitors', async () => {
    const a = await collector(2);
    const b = await collector();
    expect((await addBinder(b.userId, a.copies[0]!)).status).toBe(404);
    await listOk(t, a.userId, a.copies[1]!, 1500);
    const listed = await addBinder(a.userId, a.copies[1]!);
    expect(listed.status).toBe(409);
    expect(await codeOf(listed)).toBe('listed');
    expect((await addBinder(a.userId, 'not-a-uuid')).status).toBe(404); // a malformed id is not found, like an unknown one
    expect((await addBinder(a.userId, randomUUID())).status).toBe(404);
    expect((await t.as(null).get('/api/market/binders')).status).toBe(401);
    expect((await t.as(null).put(`/api/market/binder/${a.copies[0]}`, {})).status).toBe(401);
    expect((await t.as(a.userId).get('/api/market/binders?pageSize=1000')).status).toBe(400);
  });
});

describe('swaps', () => {
  it('card for card: proposed, accepted, every copy changes hands in one transaction, logged, out of both binders; no money moves', async () => {
    const a = await collector(2);
    const b = await collector(1);
    await inBinder(b.userId, b.copies);
    await inBinder(a.userId, [a.copies[0]!]);
    const s = await proposeOk(a.userId, { give: a.copies, want: b.copies });
    expect(s).toMatchObject({ state: 'open', proposerId: a.userId, recipientId: b.userId, cashCents: 0, heldCents: 0 });
    expect(s.items.filter((i) => i.from === 'proposer').map((i) => i.ownedCardId).sort()).toEqual([...a.copies].sort());
    const received = await json<MarketSwapPage>(await t.as(b.userId).get('/api/market/swaps/received'));
    expect(received.items.map((x) => x.id)).toEqual([s.id]);
    const [note] = await t.deps.db.select().from(notifications).where(eq(notifications.userId, b.userId));
    expect(note).toMatchObject({ kind: 'market_swap' });

    const res = await accept(b.userId, s.id);
    expect(res.status).toBe(201);
    expect(await json<MarketSwap>(res)).toMatchObject({ state: 'accepted', feeCents: null });
    expect(await ownersOf([...a.copies, ...b.copies])).toEqual({
      [a.copies[0]!]: `${b.userId}:in_vault`,
      [a.copies[1]!]: `${b.userId}:in_vault`,
      [b.copies[0]!]: `${a.userId}:in_vault`,
    });
    const moves = await t.deps.db.select().from(stockMovements).where(eq(stockMovements.referenceId, s.id));
    expect(moves.map((m) => m.reason)).toEqual(['market_swap', 'market_swap', 'market_swap']);
    expect(moves.every((m) => m.delta === 0)).toBe(true);
    // The copies left their old owners' binders (a's copy 0 was in a's binder).
    expect((await json<BinderPage>(await t.as(a.userId).get('/api/market/binder'))).total).toBe(0);
    expect((await json<BinderPage>(await t.as(b.userId).get('/api/market/binder'))).total).toBe(0);
    const again = await accept(b.userId, s.id);
    expect(again.status).toBe(409);
    expect(await codeOf(again)).toBe('swap_closed');
    await expectBooks();
  });

  it('cash from the proposer is held at once and paid on accept, the fee on the cash to the house; a replayed accept moves nothing twice', async () => {
    const a = await collector(1, 5000);
    const b = await collector(1);
    await inBinder(b.userId, b.copies);
    const s = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: 2000 });
    expect(s).toMatchObject({ cashCents: 2000, heldCents: 2000 });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 3000, heldCents: 2000 });
    const key = idem();
    const res = await accept(b.userId, s.id, key);
    expect(res.status).toBe(201);
    expect(await json<MarketSwap>(res)).toMatchObject({ state: 'accepted', feeCents: 100, heldCents: 0 });
    const replay = await accept(b.userId, s.id, key);
    expect(replay.status).toBe(201);
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 3000, heldCents: 0 });
    expect(await bal(b.userId)).toMatchObject({ balanceCents: 1900, heldCents: 0 });
    const [fees] = await t.deps.dbh.query<{ n: string }>(
      sql`select coalesce(sum(p.amount_cents), 0) as n from postings p join ledger_accounts a on a.id = p.account_id join journal_entries e on e.id = p.entry_id where a.code = 'market_fees' and e.reference_id = ${s.id}`,
    );
    expect(Number(fees!.n)).toBe(100);
    // The back office's trades and figures count it: a swap at its cash part, with the fee it posted.
    const trades = await adminTrades(t.deps.db, adminMarketTradesQuerySchema.parse({ pageSize: 100 }));
    expect(trades.items.find((x) => x.id === s.id)).toMatchObject({ via: 'swap', cards: 2, priceCents: 2000, feeCents: 100, sellerId: b.userId, buyerId: a.userId });
    const [ledgerFees] = await t.deps.dbh.query<{ n: string }>(
      sql`select coalesce(sum(p.amount_cents), 0) as n from postings p join ledger_accounts a on a.id = p.account_id where a.code = 'market_fees'`,
    );
    const summary = await marketSummary(t.deps.db, adminMarketSummaryQuerySchema.parse({}));
    expect(summary.feesCents).toBe(Number(ledgerFees!.n));
    await expectBooks();
  });

  it('cash from the recipient is taken when they accept; short of it, 409 insufficient_funds and nothing moves', async () => {
    const a = await collector(1);
    const b = await collector(1, 500);
    await inBinder(b.userId, b.copies);
    const s = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: -1000 });
    expect(s).toMatchObject({ cashCents: -1000, heldCents: 0 });
    const short = await accept(b.userId, s.id);
    expect(short.status).toBe(409);
    expect(await codeOf(short)).toBe('insufficient_funds');
    expect(await ownersOf([...a.copies, ...b.copies])).toEqual({ [a.copies[0]!]: `${a.userId}:in_vault`, [b.copies[0]!]: `${b.userId}:in_vault` });
    expect((await swapRow(s.id)).state).toBe('open');
    await fund(t, b.userId, 1000);
    expect((await accept(b.userId, s.id)).status).toBe(201);
    expect(await bal(b.userId)).toMatchObject({ balanceCents: 500 });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 950 }); // 1000 − the 50 fee (5 %, at least 25)
    await expectBooks();
  });

  it('a copy that moved before the accept: 409 swap_stale, nothing moves, the swap closes and the hold goes back', async () => {
    const a = await collector(1, 3000);
    const b = await collector(1);
    await inBinder(b.userId, b.copies);
    const s = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: 1000 });
    await listOk(t, a.userId, a.copies[0]!, 2000); // the proposer lists the copy they offered
    const res = await accept(b.userId, s.id);
    expect(res.status).toBe(409);
    expect(await codeOf(res)).toBe('swap_stale');
    expect(await ownersOf([...a.copies, ...b.copies])).toEqual({ [a.copies[0]!]: `${a.userId}:listed`, [b.copies[0]!]: `${b.userId}:in_vault` });
    expect(await swapRow(s.id)).toMatchObject({ state: 'stale', heldCents: 0 });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 3000, heldCents: 0 });
    const told = await t.deps.db.select().from(notifications).where(eq(notifications.userId, a.userId));
    expect(told.map((n) => (n.data as { event?: string }).event)).toContain('stale');
    await expectBooks();
  });

  it('two swaps for one copy accepted at once: exactly one settles, the other closes stale with its hold back', async () => {
    const b = await collector(1);
    await inBinder(b.userId, b.copies);
    const a1 = await collector(1, 2000);
    const a2 = await collector(1, 2000);
    const s1 = await proposeOk(a1.userId, { give: a1.copies, want: b.copies, cashCents: 500 });
    const s2 = await proposeOk(a2.userId, { give: a2.copies, want: b.copies, cashCents: 700 });
    const results = await Promise.all([accept(b.userId, s1.id), accept(b.userId, s2.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const states = [(await swapRow(s1.id)).state, (await swapRow(s2.id)).state].sort();
    expect(states).toEqual(['accepted', 'stale']);
    const [{ n }] = (await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from owned_cards where id = ${b.copies[0]!}::uuid and owner_id in (${a1.userId}, ${a2.userId})`)) as [{ n: string }];
    expect(Number(n)).toBe(1);
    await expectBooks();
  });

  it('refuses bad proposals, each with a code, holding nothing', async () => {
    const a = await collector(2, 1000);
    const b = await collector(2);
    const c = await collector(1);
    await inBinder(b.userId, [b.copies[0]!]);
    await inBinder(c.userId, c.copies);
    await inBinder(a.userId, [a.copies[1]!]);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ give: [], want: [b.copies[0]] }, 400, 'validation_failed'],
      [{ give: [a.copies[0]], want: [] }, 400, 'validation_failed'],
      [{ give: [a.copies[0], a.copies[0]], want: [b.copies[0]] }, 400, 'validation_failed'],
      [{ give: [a.copies[0]], want: [b.copies[0]], cashCents: 1.5 }, 400, 'validation_failed'],
      [{ give: [a.copies[0]], want: [b.copies[0]], cashCents: 10 }, 400, 'validation_failed'], // under the price floor
      [{ give: [a.copies[0]], want: [b.copies[0]], extra: 1 }, 400, 'validation_failed'],
      [{ give: [a.copies[0]], want: [b.copies[1]] }, 404, 'not_found'], // not in their binder
      [{ give: [b.copies[1]], want: [b.copies[0]] }, 404, 'not_found'], // not your copy
      [{ give: [a.copies[0]], want: [b.copies[0], c.copies[0]] }, 400, 'validation_failed'], // two collectors
      [{ give: [a.copies[0]], want: [a.copies[1]] }, 403, 'self_dealing'], // your own binder
      [{ give: [a.copies[0]], want: [b.copies[0]], cashCents: 5000 }, 409, 'insufficient_funds'],
    ];
    for (const [body, status, code] of cases) {
      const res = await propose(a.userId, body);
      expect({ body, status: res.status, code: (await errOf(res)).code }).toEqual({ body, status, code });
    }
    await listOk(t, a.userId, a.copies[0]!, 1500);
    const listed = await propose(a.userId, { give: [a.copies[0]], want: [b.copies[0]] });
    expect(listed.status).toBe(409);
    expect(await codeOf(listed)).toBe('listed');
    expect((await t.deps.db.select().from(marketSwaps).where(eq(marketSwaps.proposerId, a.userId))).length).toBe(0);
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 1000, heldCents: 0 });
    await expectBooks();
  });

  it('who may answer: the proposer withdraws, the recipient declines; not the other way round, and strangers see nothing', async () => {
    const a = await collector(1, 2000);
    const b = await collector(1);
    const stranger = await t.makeUser();
    await inBinder(b.userId, b.copies);
    const s = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: 800 });
    expect((await accept(a.userId, s.id)).status).toBe(403);
    expect((await accept(stranger, s.id)).status).toBe(404);
    expect((await t.as(stranger).get(`/api/market/swaps/${s.id}`)).status).toBe(404);
    expect((await t.as(b.userId).get(`/api/market/swaps/${s.id}`)).status).toBe(200);
    expect((await answer(a.userId, s.id, 'decline')).status).toBe(403);
    expect((await answer(b.userId, s.id, 'cancel')).status).toBe(403);
    expect((await answer(stranger, s.id, 'decline')).status).toBe(404);
    const declined = await answer(b.userId, s.id, 'decline');
    expect(declined.status).toBe(200);
    expect(await json<MarketSwap>(declined)).toMatchObject({ state: 'declined', heldCents: 0 });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 2000, heldCents: 0 });
    expect(await codeOf(await answer(a.userId, s.id, 'cancel'))).toBe('swap_closed');

    const s2 = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: 800 });
    expect(await json<MarketSwap>(await answer(a.userId, s2.id, 'cancel'))).toMatchObject({ state: 'cancelled' });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 2000, heldCents: 0 });
    const made = await json<MarketSwapPage>(await t.as(a.userId).get('/api/market/swaps/mine?state=cancelled'));
    expect(made.items.map((x) => x.id)).toEqual([s2.id]);
    await expectBooks();
  });

  it('self-excluded collectors cannot pay cash; staff cannot swap with accounts they referred', async () => {
    const a = await collector(1, 2000);
    const b = await collector(1);
    await inBinder(b.userId, b.copies);
    await t.deps.db.insert(selfExclusions).values({ userId: a.userId, duration: '7d', endsAt: new Date(Date.now() + 7 * 86_400_000) });
    const excluded = await propose(a.userId, { give: a.copies, want: b.copies, cashCents: 500 });
    expect(excluded.status).toBe(403);
    expect(await codeOf(excluded)).toBe('self_excluded');
    // Card for card, no money: allowed.
    expect((await propose(a.userId, { give: a.copies, want: b.copies })).status).toBe(201);

    const admin = await t.makeUser({ role: 'admin' });
    const adminCopies = await collector(1);
    await t.deps.db.update(ownedCards).set({ ownerId: admin }).where(eq(ownedCards.id, adminCopies.copies[0]!));
    const referred = await collector(1);
    await t.deps.db.insert(referrals).values({ referrerId: admin, refereeId: referred.userId, code: `S${randomUUID().slice(0, 8)}` });
    await inBinder(referred.userId, referred.copies);
    const staff = await propose(admin, { give: adminCopies.copies, want: referred.copies });
    expect(staff.status).toBe(403);
    expect(await codeOf(staff)).toBe('self_dealing');
  });

  it('expiry closes an open swap with its hold back; account deletion cancels open swaps and empties the binder', async () => {
    const a = await collector(1, 2000);
    const b = await collector(1);
    await inBinder(b.userId, b.copies);
    const s = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: 600 });
    await t.deps.db.update(marketSwaps).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(marketSwaps.id, s.id));
    await marketExpiryJob().run(t.deps, new AbortController().signal);
    expect(await swapRow(s.id)).toMatchObject({ state: 'expired', heldCents: 0 });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 2000, heldCents: 0 });

    const s2 = await proposeOk(a.userId, { give: a.copies, want: b.copies, cashCents: 600 });
    await t.deps.db.transaction((tx) => marketPersonalData.erase(tx, { id: b.userId, email: '', username: '', name: '' }));
    expect(await swapRow(s2.id)).toMatchObject({ state: 'cancelled', heldCents: 0 });
    expect(await bal(a.userId)).toMatchObject({ balanceCents: 2000, heldCents: 0 });
    expect((await json<BinderPage>(await t.as(b.userId).get('/api/market/binder'))).total).toBe(0);
    await expectBooks();
  });
});
