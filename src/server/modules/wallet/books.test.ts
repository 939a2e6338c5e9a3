import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCatalog, liveProduct, slots } from '../shop/test-support.ts';
import { booksChecks } from '../books/routes.ts';
import { reconcile, reconcileMoney } from './books.ts';
import { credit, debit, debitValues, MisroutedEntryError } from './service.ts';
import { KIND_HOUSE_ACCOUNTS, LEDGER_KINDS } from '../../../shared/contracts/wallet.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from './test-support.ts';

/**
 * The double-entry books (ADR 0010): the database refuses an unbalanced entry at commit, the
 * books are append-only, a wallet never goes below zero, and reconciliation holds after every
 * step of a random mix of every way money moves.
 */

let t: MoneyTestContext;
let admin: string;
let productId: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'owner' });
  const cat = await makeCatalog(t, [{ name: 'Common', cards: [{ value: 60, stock: 100_000 }, { value: 250, stock: 100_000 }] }]);
  ({ productId } = await liveProduct(t, admin, {
    name: 'Books Pack',
    priceCents: 300,
    slots: slots(2, [{ classId: cat.classes.Common!, weight: 1 }]),
  }));
});
afterAll(() => t.close());

const q = <T>(s: ReturnType<typeof sql>) => t.deps.dbh.query<T>(s);
/** The database's own message (drizzle wraps it as "Failed query: …" with the cause). */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'committed',
    (e: unknown) => `${(e as Error).message} ${((e as { cause?: Error }).cause?.message ?? '')}`,
  );
const houseId = async (code: string) => (await q<{ id: string }>(sql`select id from ledger_accounts where code = ${code}`))[0]!.id;

describe('the database keeps the books', () => {
  it('refuses at commit an entry whose postings do not sum to zero, and writes nothing', async () => {
    const entry = randomUUID();
    const [sales, clearing] = [await houseId('pack_sales'), await houseId('clearing:sandbox')];
    const unbalanced = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into journal_entries (id, kind) values (${entry}, 'admin_adjustment')`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency) values
        (${entry}, ${sales}, 100, 'USD'), (${entry}, ${clearing}, -99, 'USD')`);
    });
    expect(await refusal(unbalanced)).toMatch(/does not balance/);
    expect(await q(sql`select 1 from journal_entries where id = ${entry}`)).toHaveLength(0);

    // Checking early changes nothing: the trigger runs, now at the statement's end.
    const early = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`set constraints all immediate`);
      await tx.execute(sql`insert into journal_entries (id, kind) values (${entry}, 'admin_adjustment')`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency) values (${entry}, ${sales}, 5, 'USD')`);
    });
    expect(await refusal(early)).toMatch(/does not balance/);

    // Balanced per currency: both legs in, it commits (house to house, no wallet touched; a
    // deposit may touch both clearing accounts, so the routing check has nothing to say either).
    const stripe = await houseId('clearing:stripe');
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into journal_entries (id, kind) values (${entry}, 'deposit')`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency) values (${entry}, ${stripe}, 7, 'USD')`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency) values (${entry}, ${clearing}, -7, 'USD')`);
    });
    expect((await reconcileMoney(t.deps.db)).ok).toBe(true);
  });

  it('refuses an entry that balances only across currencies', async () => {
    const entry = randomUUID();
    const [sales, clearing] = [await houseId('pack_sales'), await houseId('clearing:sandbox')];
    const mixed = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into journal_entries (id, kind) values (${entry}, 'admin_adjustment')`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency) values
        (${entry}, ${sales}, 100, 'USD'), (${entry}, ${clearing}, -100, 'EUR')`);
    });
    expect(await refusal(mixed)).toMatch(/does not balance/);
  });

  it('never updates or deletes a posting or an entry', async () => {
    const u = await t.makeUser();
    const moved = await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 500, kind: 'deposit' }));
    expect(await refusal(t.deps.db.execute(sql`update postings set amount_cents = 1 where entry_id = ${moved.entryId}`))).toMatch(/append-only/);
    expect(await refusal(t.deps.db.execute(sql`delete from postings where entry_id = ${moved.entryId}`))).toMatch(/append-only/);
    expect(await refusal(t.deps.db.execute(sql`update journal_entries set memo = 'x' where id = ${moved.entryId}`))).toMatch(/append-only/);
  });

  it('posts each move against the house account of its kind', async () => {
    const u = await t.makeUser();
    const dep = await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 1000, kind: 'deposit', counter: 'clearing:stripe' }));
    const buy = await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 300, kind: 'pack_purchase' }));
    const legs = await q<{ entry_id: string; code: string | null; user_id: string | null; amount_cents: string; balance_after: string | null }>(sql`
      select p.entry_id, a.code, a.user_id, p.amount_cents, p.balance_after from postings p join ledger_accounts a on a.id = p.account_id
      where p.entry_id in (${dep.entryId}, ${buy.entryId}) order by p.seq`);
    expect(legs.map((l) => [l.entry_id, l.code ?? l.user_id, Number(l.amount_cents), l.balance_after === null ? null : Number(l.balance_after)])).toEqual([
      [dep.entryId, 'clearing:stripe', -1000, null],
      [dep.entryId, u, 1000, 1000],
      [buy.entryId, 'pack_sales', 300, null],
      [buy.entryId, u, -300, 700],
    ]);
  });

  it('refuses to write an entry to a house account its kind may not touch, and writes nothing', async () => {
    const u = await t.makeUser();
    await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 1000, kind: 'deposit' }));
    const count = async () => Number((await q<{ n: string }>(sql`select count(*)::text as n from journal_entries`))[0]!.n);
    const before = await count();
    const fee = t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 250, kind: 'shipping_fee', counter: 'pack_sales' }));
    await expect(fee).rejects.toBeInstanceOf(MisroutedEntryError);
    await expect(fee).rejects.toThrow(/shipping_fee entry may not post to the house account pack_sales/);
    const bonus = t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 50, kind: 'promo_credit', counter: 'clearing:stripe' }));
    await expect(bonus).rejects.toBeInstanceOf(MisroutedEntryError);
    // The one-statement open's CTEs take their values from debitValues: refused there too.
    expect(() => debitValues({ userId: u, amountCents: 300, kind: 'pack_purchase', counter: 'buyback_expense', entryId: randomUUID() })).toThrow(MisroutedEntryError);
    expect(await count()).toBe(before);
    expect((await q<{ cents: string }>(sql`select cents::text from balances where user_id = ${u}`))[0]!.cents).toBe('1000');
  });

  it('gives every kind at least one house account, and its default counter is one of them', () => {
    // A hold and its release move money between a user's wallet and their own hold account (ADR 0028): no house leg, no debit().
    for (const kind of LEDGER_KINDS.filter((k) => k !== 'market_hold' && k !== 'market_release')) {
      expect(KIND_HOUSE_ACCOUNTS[kind].length, kind).toBeGreaterThan(0);
      expect(() => debitValues({ userId: 'x', amountCents: 1, kind, entryId: randomUUID() }), kind).not.toThrow();
    }
  });

  it('never lets a wallet go below zero', async () => {
    const u = await t.makeUser();
    await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 100, kind: 'deposit' }));
    const err = await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: 101, kind: 'pack_purchase' })).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409, code: 'insufficient_funds' });
    await expect(t.deps.db.execute(sql`update balances set cents = -1 where user_id = ${u}`)).rejects.toThrow();
    const wallet = (await q<{ account_id: string }>(sql`select account_id from balances where user_id = ${u}`))[0]!.account_id;
    const entry = randomUUID();
    const sales = await houseId('pack_sales');
    const overdraw = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into journal_entries (id, kind) values (${entry}, 'pack_purchase')`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency, balance_after) values
        (${entry}, ${wallet}, -200, 'USD', -100), (${entry}, ${sales}, 200, 'USD', null)`);
    });
    await expect(overdraw).rejects.toThrow();
  });
});

describe('reconciliation', () => {
  it('finds a cached balance that disagrees with its postings, and names the wallet', async () => {
    const u = await t.makeUser();
    await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 400, kind: 'deposit' }));
    expect((await reconcileMoney(t.deps.db)).ok).toBe(true);
    await t.deps.db.execute(sql`update balances set cents = cents + 1 where user_id = ${u}`);
    try {
      const r = await reconcileMoney(t.deps.db);
      expect(r.ok).toBe(false);
      const check = r.checks.find((c) => c.name === 'balances_equal_postings')!;
      expect(check.ok).toBe(false);
      expect(check.details.mismatched).toEqual([{ userId: u, cachedCents: 401, postedCents: 400 }]);
      expect(r.checks.find((c) => c.name === 'entries_sum_to_zero')!.ok).toBe(true);
    } finally {
      await t.deps.db.execute(sql`update balances set cents = cents - 1 where user_id = ${u}`);
    }
    expect((await reconcileMoney(t.deps.db)).ok).toBe(true);
  });

  it('finds unbalanced entries that cancel out in the grand total, and names them', async () => {
    // Only a superuser's session_replication_role or a disabled trigger lets such entries in.
    const [a, b] = [randomUUID(), randomUUID()];
    const sales = await houseId('pack_sales');
    await t.deps.db.execute(sql`alter table postings disable trigger postings_entry_balanced`);
    try {
      await t.deps.db.execute(sql`insert into journal_entries (id, kind) values (${a}, 'admin_adjustment'), (${b}, 'admin_adjustment')`);
      await t.deps.db.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency) values (${a}, ${sales}, 5, 'USD'), (${b}, ${sales}, -5, 'USD')`);
      const r = await reconcileMoney(t.deps.db);
      const check = r.checks.find((c) => c.name === 'entries_sum_to_zero')!;
      expect(check.ok).toBe(false);
      expect(check.details.unbalanced).toEqual(
        expect.arrayContaining([
          { entryId: a, currency: 'USD', offCents: 5 },
          { entryId: b, currency: 'USD', offCents: -5 },
        ]),
      );
    } finally {
      await t.deps.db.execute(sql`alter table postings disable trigger postings_append_only`);
      await t.deps.db.execute(sql`delete from postings where entry_id in (${a}, ${b})`);
      await t.deps.db.execute(sql`alter table postings enable trigger postings_append_only`);
      await t.deps.db.execute(sql`alter table postings enable trigger postings_entry_balanced`);
    }
    expect((await reconcileMoney(t.deps.db)).ok).toBe(true);
  });

  it('reports an entry whose house leg is on an account its kind may not touch, with its id, kind and account', async () => {
    // A shipping fee of 250 posted to pack_sales, written by hand (the wallet refuses it, below):
    // it balances and the cached balance follows, so only the routing check can see it.
    const u = await t.makeUser();
    await t.deps.db.transaction((tx) => credit(tx, { userId: u, amountCents: 1000, kind: 'deposit' }));
    const wallet = (await q<{ account_id: string }>(sql`select account_id from balances where user_id = ${u}`))[0]!.account_id;
    const [sales, entry] = [await houseId('pack_sales'), randomUUID()];
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into journal_entries (id, kind, reference_type, reference_id) values (${entry}, 'shipping_fee', 'shipment', ${randomUUID()})`);
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, currency, balance_after) values
        (${entry}, ${wallet}, -250, 'USD', 750), (${entry}, ${sales}, 250, 'USD', null)`);
      await tx.execute(sql`update balances set cents = 750 where user_id = ${u}`);
    });
    try {
      const r = await reconcileMoney(t.deps.db);
      expect(r.ok).toBe(false);
      expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['entries_on_allowed_accounts']);
      const check = r.checks.find((c) => c.name === 'entries_on_allowed_accounts')!;
      expect(check.details).toEqual({ misrouted: 1, entries: [{ entryId: entry, kind: 'shipping_fee', account: 'pack_sales', amountCents: 250 }] });
      // The admin endpoint says the same (and stores it for the dashboard).
      const res = await t.as(admin).get('/api/admin/books/reconcile');
      const body = (await res.json()) as { ok: boolean; checks: Array<{ name: string; ok: boolean; details: Record<string, unknown> }> };
      expect(body.ok).toBe(false);
      expect(body.checks.find((c) => c.name === 'entries_on_allowed_accounts')?.details.entries).toEqual(check.details.entries);
      const dash = (await (await t.as(admin).get('/api/admin/dashboard')).json()) as { attention: { reconciliation: { status: string; failures: Array<{ name: string }> } } };
      expect(dash.attention.reconciliation.status).toBe('failed');
      expect(dash.attention.reconciliation.failures.map((f) => f.name)).toEqual(['entries_on_allowed_accounts']);
    } finally {
      // The journal is append-only: only with its triggers off can the test take the entry back.
      await t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`delete from postings where entry_id = ${entry}`);
        await tx.execute(sql`delete from journal_entries where id = ${entry}`);
        await tx.execute(sql`update balances set cents = 1000 where user_id = ${u}`);
      });
    }
    expect((await reconcileMoney(t.deps.db)).ok).toBe(true);
  });

  it('answers GET /api/admin/books/reconcile for an admin only', async () => {
    const u = await t.makeUser();
    expect((await t.as(null).get('/api/admin/books/reconcile')).status).toBe(401);
    expect((await t.as(u).get('/api/admin/books/reconcile')).status).toBe(403);
    const res = await t.as(admin).get('/api/admin/books/reconcile');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; checks: Array<{ name: string; ok: boolean }>; tookMs: number };
    expect(body.ok).toBe(true);
    expect(body.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['entries_sum_to_zero', 'balances_equal_postings', 'no_negative_wallet', 'entries_on_allowed_accounts']),
    );
    expect(body.tookMs).toBeGreaterThanOrEqual(0);
  });
});

/**
 * A property (fast-check): for any sequence of deposits, buy-and-opens, buybacks, promo
 * redemptions and admin adjustments by a few users, the books — money and stock, every check of
 * GET /api/admin/books/reconcile — reconcile after each step. A refusal (not enough money, nothing
 * to sell) is a valid step and must leave the books as they were. FC_SEED replays a failing run.
 */
describe('random sequences of money moves (fast-check)', () => {
  const OPS = ['deposit', 'purchase', 'buyback', 'promo', 'adjust'] as const;
  const step = fc.record({
    op: fc.constantFrom(...OPS),
    user: fc.nat({ max: 2 }),
    /** Drives each operation's amount or count. */
    size: fc.nat({ max: 39 }),
    credit: fc.boolean(),
  });
  type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

  it('reconciles after every step', async () => {
    const users = [await t.makeUser(), await t.makeUser(), await t.makeUser()];
    const done: Record<string, number> = {};
    const run = async (s: Step) => {
      const u = users[s.user]!;
      switch (s.op) {
        case 'deposit': {
          const res = await t.as(u).post('/api/wallet/deposits', { amountCents: 500 + s.size * 100 }, idem());
          expect(res.status).toBe(201);
          const { deposit } = (await res.json()) as { deposit: { id: string } };
          return t.as(u).post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {}, idem());
        }
        case 'purchase':
          return t.as(u).post('/api/shop/open', { productId, quantity: 1 + (s.size % 2) }, idem());
        case 'buyback': {
          const owned = await q<{ id: string }>(sql`select id from owned_cards where owner_id = ${u} and status = 'in_vault' order by id limit 3`);
          if (owned.length === 0) return null;
          return t.as(u).post('/api/buyback', { ownedCardIds: owned.slice(0, 1 + (s.size % owned.length)).map((o) => o.id) }, idem());
        }
        case 'promo': {
          const code = `BOOKS${randomUUID().slice(0, 8)}`;
          const made = await t.as(admin).post('/api/admin/promo', { code, kind: 'credit', amountCents: 100 + (s.size % 10) * 50 });
          expect(made.status).toBe(201);
          return t.as(u).post('/api/wallet/promo/redeem', { code }, idem());
        }
        case 'adjust':
          return t
            .as(admin)
            .post(`/api/admin/users/${u}/balance/adjust`, { amountCents: (s.credit ? 1 : -1) * (50 + s.size * 25), reason: 'books test' }, idem());
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12 }), async (steps) => {
        for (const [i, s] of steps.entries()) {
          const res = await run(s);
          if (res) {
            expect([200, 201, 409], `${s.op} step ${i}: ${res.status} ${await res.clone().text()}`).toContain(res.status);
            if (res.status < 300) done[s.op] = (done[s.op] ?? 0) + 1;
          }
          const r = await reconcile(t.deps.db, booksChecks);
          expect(r, `after ${s.op} (step ${i})`).toMatchObject({ ok: true });
        }
      }),
      { numRuns: 5, ...(seed === undefined ? {} : { seed }) },
    );
    // The runs really moved money every way, and the old invariants agree.
    expect(Object.keys(done).length).toBeGreaterThanOrEqual(4);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances + inv.negativeAfter + inv.orphanLedgers).toBe(0);
    // Every cent in a wallet came from a house account: the house side holds exactly the opposite.
    const [sums] = await q<{ wallets: string; house: string }>(sql`
      select coalesce(sum(p.amount_cents) filter (where a.kind = 'user_wallet'), 0) as wallets,
             coalesce(sum(p.amount_cents) filter (where a.kind <> 'user_wallet'), 0) as house
      from postings p join ledger_accounts a on a.id = p.account_id`);
    expect(Number(sums!.wallets)).toBe(-Number(sums!.house));
    expect(Number(sums!.wallets)).toBe(Number((await q<{ s: string }>(sql`select sum(cents) as s from balances`))[0]!.s));
  });
});
