import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS, GENERATED_CODE_LENGTH, REFERRAL_CODE_ALPHABET } from '../../../shared/contracts/referrals.ts';
import { user } from '../../db/schema/auth.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { deposits } from '../../db/schema/payments.ts';
import { packs, products, purchases } from '../../db/schema/shop.ts';
import { referralCodes, referralRewards, referrals } from '../../db/schema/referrals.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import { handleStripeEvent, refundDeposit } from '../payments/service.ts';
import { debit, getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { INVITE_LOOKUPS } from './routes.ts';
import { payPurchaseShares } from './shares.ts';
import { normaliseEmail, STAFF_REASON } from './service.ts';
import { isCleanCode } from './codes.ts';
import { authSeedSteps } from '../auth/seed.ts';
import { DEMO_OWNER_EMAIL, DEMO_USER_EMAIL } from '../auth/demo-accounts.ts';
import { referralsSeedStep } from '../../seed/referrals.ts';
import { erasePersonalData } from '../personal-data.ts';

let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'owner' });
});
afterAll(() => t.close());

const clearLimits = () => t.deps.dbh.query(sql`delete from rate_limits`);
const balance = async (u: string) => (await getBalance(t.deps.db, u)).balanceCents;
const json = async <T = any>(res: Response) => (await res.json()) as T;

async function codeOf(u: string): Promise<string> {
  const res = await t.as(u).get('/api/referrals/me');
  expect(res.status).toBe(200);
  return (await json(res)).code;
}

/** A friend referred by `referrer` (claimed through the API). */
async function friendOf(referrer: string): Promise<string> {
  const f = await t.makeUser();
  await clearLimits();
  const res = await t.as(f).post('/api/referrals/claim', { code: await codeOf(referrer) });
  expect(res.status).toBe(200);
  return f;
}

async function deposit(u: string, amountCents: number, cardNumber?: string): Promise<string> {
  const started = await t.as(u).post('/api/wallet/deposits', { amountCents }, idem());
  expect(started.status).toBe(201);
  const id = (await json(started)).deposit.id as string;
  const paid = await t.as(u).post(`/api/payments/sandbox/deposits/${id}/pay`, cardNumber ? { cardNumber } : {}, idem());
  expect(paid.status).toBe(200);
  return id;
}

async function referralFor(refereeId: string) {
  const [row] = await t.deps.db.select().from(referrals).where(eq(referrals.refereeId, refereeId));
  return row!;
}

async function rewardsOf(referralId: string) {
  return t.deps.db.select().from(referralRewards).where(eq(referralRewards.referralId, referralId));
}

async function clean() {
  const inv = await ledgerInvariants(t);
  expect(inv.mismatched).toEqual([]);
  expect(inv.negativeBalances).toBe(0);
  expect(inv.negativeAfter).toBe(0);
}

async function setSettings(patch: Partial<typeof DEFAULT_REFERRAL_SETTINGS>) {
  const res = await t.as(admin).put('/api/admin/referrals/settings', { ...DEFAULT_REFERRAL_SETTINGS, ...patch });
  expect(res.status).toBe(200);
}

describe('codes', () => {
  it('gives every user a random readable code on first need, stable afterwards', async () => {
    const u = await t.makeUser();
    const code = await codeOf(u);
    expect(code).toHaveLength(GENERATED_CODE_LENGTH);
    expect([...code].every((ch) => REFERRAL_CODE_ALPHABET.includes(ch))).toBe(true);
    expect(await codeOf(u)).toBe(code);
    const me = await json(await t.as(u).get('/api/referrals/me'));
    expect(me).toMatchObject({ path: `/invite/${code}`, vanity: false, canPickVanity: true, canClaim: true, referredBy: null, invitees: [], rewards: [] });
    expect(me.offer).toMatchObject({ ...DEFAULT_REFERRAL_SETTINGS, currency: 'USD' });
    expect(code.toLowerCase()).not.toContain(u.slice(0, 5).toLowerCase());
  });

  it('vanity: once, free (any case), clean, well-formed', async () => {
    const a = await t.makeUser();
    const b = await t.makeUser();
    const mine = `Vy${randomUUID().slice(0, 6).replace(/-/g, '')}`;
    const ok = await t.as(a).put('/api/referrals/me/code', { code: mine });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ code: mine.toUpperCase(), vanity: true, canPickVanity: false });
    const taken = await t.as(b).put('/api/referrals/me/code', { code: mine.toLowerCase() });
    expect(taken.status).toBe(409);
    expect((await json(taken)).error.code).toBe('code_taken');
    const twice = await t.as(a).put('/api/referrals/me/code', { code: 'ANOTHER22' });
    expect(twice.status).toBe(409);
    expect((await json(twice)).error.code).toBe('vanity_already_set');
    for (const bad of ['ADMIN123', 'packvault9', 'Sh1tty99', 'xxSUPPORTxx', 'official']) {
      const res = await t.as(b).put('/api/referrals/me/code', { code: bad });
      expect(res.status, bad).toBe(400);
      expect((await json(res)).error.fields.code).toEqual(["That code isn't allowed."]);
    }
    for (const bad of ['ab', 'x'.repeat(17), 'has space', 'dash-y', '']) {
      const res = await t.as(b).put('/api/referrals/me/code', { code: bad });
      expect(res.status, bad).toBe(400);
      expect((await json(res)).error.code).toBe('validation_failed');
    }
    expect((await json(await t.as(b).get('/api/referrals/me'))).vanity).toBe(false);
    expect(isCleanCode('FRIENDLY')).toBe(true);
  });
});

describe('invite', () => {
  beforeEach(clearLimits);

  it('shows the inviter and the offer, and remembers the code in a first-party cookie', async () => {
    const u = await t.makeUser();
    const code = await codeOf(u);
    const res = await t.request(`/api/referrals/invite/${code.toLowerCase()}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ code, inviter: { username: u.slice(0, 20), image: null }, offer: { currency: 'USD' } });
    expect(body.inviter.email).toBeUndefined();
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pv_ref='))!;
    expect(cookie).toContain(`pv_ref=${code}`);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // http://localhost in tests

    const remembered = await t.request('/api/referrals/remembered', { headers: { cookie: `pv_ref=${code}` } });
    expect(remembered.status).toBe(200);
    expect((await json(remembered)).code).toBe(code);
    expect((await t.request('/api/referrals/remembered')).status).toBe(404);
  });

  it('unknown, malformed and 10 KB codes get one identical 404 and no cookie', async () => {
    const answers = [];
    for (const code of ['ZZZZZZZ', 'bad!code', encodeURIComponent('<script>'), 'A'.repeat(10_240)]) {
      const res = await t.request(`/api/referrals/invite/${code}`);
      expect(res.status, code.slice(0, 10)).toBe(404);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('pv_ref='))).toBe(false);
      answers.push(await res.text());
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain('not_found');
    const bogus = await t.request('/api/referrals/remembered', { headers: { cookie: 'pv_ref=NOPE123' } });
    expect(bogus.status).toBe(404);
    expect(await bogus.text()).toBe(answers[0]);
    // A NUL never reaches the lookup: the encoding guard answers it first (issue 39), still without a cookie.
    const nul = await t.request('/api/referrals/invite/%00');
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: { code: string } }).error.code).toBe('invalid_encoding');
    expect(nul.headers.getSetCookie().some((c) => c.startsWith('pv_ref='))).toBe(false);
  });

  it('a banned or deleted inviter is not found', async () => {
    const u = await t.makeUser();
    const code = await codeOf(u);
    await t.deps.db.update(user).set({ banned: true }).where(eq(user.id, u));
    expect((await t.request(`/api/referrals/invite/${code}`)).status).toBe(404);
    await t.deps.db.update(user).set({ banned: false, deletedAt: new Date() }).where(eq(user.id, u));
    expect((await t.request(`/api/referrals/invite/${code}`)).status).toBe(404);
  });

  it('is rate-limited per client address', async () => {
    let last: Response | undefined;
    for (let i = 0; i <= INVITE_LOOKUPS; i++) last = await t.request(`/api/referrals/invite/NOPE${i}`);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(last!)).error.code).toBe('rate_limited');
    await clearLimits();
  });
});

describe('sign-up records the referral', () => {
  beforeEach(clearLimits);
  const signUp = (body: Record<string, unknown>, cookie?: string) =>
    t.request('/api/auth/sign-up/email', { method: 'POST', json: body, headers: cookie ? { cookie } : {} });
  const newcomer = (email: string) => ({ email, password: 'violet-moth-lantern', username: `n_${randomUUID().slice(0, 8)}`, ageConfirmed: true, termsAccepted: true });
  const idOf = async (email: string) => (await t.deps.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]!.id;

  it('from the cookie an invite set', async () => {
    const inviter = await t.makeUser();
    const code = await codeOf(inviter);
    const inv = await t.request(`/api/referrals/invite/${code}`);
    const cookie = inv.headers.getSetCookie().find((c) => c.startsWith('pv_ref='))!.split(';')[0]!;
    const email = `friend-${randomUUID().slice(0, 6)}@example.test`;
    expect((await signUp(newcomer(email), cookie)).status).toBe(200);
    const id = await idOf(email);
    expect(await referralFor(id)).toMatchObject({ referrerId: inviter, status: 'pending', code });
    const [own] = await t.deps.db.select().from(referralCodes).where(eq(referralCodes.userId, id));
    expect(own?.code).toHaveLength(GENERATED_CODE_LENGTH);
  });

  it('from the referralCode field; an unknown code signs up without a referral', async () => {
    const inviter = await t.makeUser();
    const email = `f2-${randomUUID().slice(0, 6)}@example.test`;
    expect((await signUp({ ...newcomer(email), referralCode: (await codeOf(inviter)).toLowerCase() })).status).toBe(200);
    expect((await referralFor(await idOf(email))).referrerId).toBe(inviter);
    const email3 = `f3-${randomUUID().slice(0, 6)}@example.test`;
    expect((await signUp({ ...newcomer(email3), referralCode: 'x'.repeat(10_000) })).status).toBe(200);
    expect(await referralFor(await idOf(email3))).toBeUndefined();
  });

  it('the same email with dots and a +tag is recorded as rejected', async () => {
    const inviter = await t.makeUser();
    const local = `jo.hn${randomUUID().slice(0, 4)}`;
    await t.deps.db.update(user).set({ email: `${local}@example.test` }).where(eq(user.id, inviter));
    const email = `${local.replace('.', '')}+promo@example.test`;
    expect((await signUp({ ...newcomer(email), referralCode: await codeOf(inviter) })).status).toBe(200);
    expect(await referralFor(await idOf(email))).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/Self-referral/) });
    expect(normaliseEmail('J.O.Hn+x@Example.Test')).toBe('john@example.test');
  });
});

describe('claim', () => {
  beforeEach(clearLimits);

  it('refuses own code, unknown code, a second referrer, and after a deposit', async () => {
    const a = await t.makeUser();
    const b = await t.makeUser();
    const own = await t.as(a).post('/api/referrals/claim', { code: await codeOf(a) });
    expect(own.status).toBe(409);
    expect((await json(own)).error.code).toBe('self_referral');
    const unknown = await t.as(a).post('/api/referrals/claim', { code: 'NOPE234' });
    expect(unknown.status).toBe(404);
    expect((await t.as(a).post('/api/referrals/claim', { code: await codeOf(b) })).status).toBe(200);
    const c = await t.makeUser();
    const second = await t.as(a).post('/api/referrals/claim', { code: await codeOf(c) });
    expect(second.status).toBe(409);
    expect((await json(second)).error.code).toBe('already_referred');
    // b cannot then claim a's code (mutual)
    const mutual = await t.as(b).post('/api/referrals/claim', { code: await codeOf(a) });
    expect(mutual.status).toBe(409);
    expect((await json(mutual)).error.code).toBe('self_referral');

    const late = await t.makeUser();
    await deposit(late, 1000);
    const res = await t.as(late).post('/api/referrals/claim', { code: await codeOf(c) });
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('referral_too_late');
    expect((await json(await t.as(late).get('/api/referrals/me'))).canClaim).toBe(false);
  });

  it('refuses the same email once normalised', async () => {
    const a = await t.makeUser();
    const b = await t.makeUser();
    const local = `ma.ry${randomUUID().slice(0, 4)}`;
    await t.deps.db.update(user).set({ email: `${local}@example.test` }).where(eq(user.id, a));
    await t.deps.db.update(user).set({ email: `${local.replace('.', '')}+2@example.test` }).where(eq(user.id, b));
    const res = await t.as(b).post('/api/referrals/claim', { code: await codeOf(a) });
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('self_referral');
  });
});

describe('rewards', () => {
  beforeEach(async () => {
    await clearLimits();
    await setSettings({ shareBps: 0 });
  });

  it('pending → qualified when two deposits reach the threshold; both credited once through the ledger', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    await deposit(f, 1000);
    expect((await referralFor(f)).status).toBe('pending');
    expect(await balance(r)).toBe(0);
    const second = await deposit(f, 1000);
    const ref = await referralFor(f);
    expect(ref).toMatchObject({ status: 'qualified', qualifyingDepositId: second, referrerRewardCents: 500, refereeRewardCents: 500 });
    expect(await balance(r)).toBe(500);
    expect(await balance(f)).toBe(2500);
    const rw = await rewardsOf(ref.id);
    expect(rw.map((x) => x.kind).sort()).toEqual(['referee_bonus', 'referrer_bonus']);
    expect(rw.every((x) => x.journalEntryId)).toBe(true);
    const entries = await t.deps.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, r), eq(ledgerEntries.kind, 'referral_reward')));
    expect(entries).toHaveLength(1);
    await deposit(f, 5000);
    expect(await balance(r)).toBe(500);
    const me = await json(await t.as(r).get('/api/referrals/me'));
    expect(me.invitees).toEqual([expect.objectContaining({ status: 'qualified' })]);
    expect(me.rewards).toEqual([expect.objectContaining({ kind: 'referrer_bonus', amountCents: 500, journalEntryId: rw.find((x) => x.userId === r)!.journalEntryId })]);
    expect(me.totals).toEqual({ earnedCents: 500, pending: 0, qualified: 1 });
    expect((await json(await t.as(f).get('/api/referrals/me'))).referredBy).toMatchObject({ status: 'qualified' });
    await clean();
  });

  it('a friend who deleted their account is "a deleted account" on the referrer’s page (null name), never their pseudonym', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    await deposit(f, 2000);
    expect((await referralFor(f)).status).toBe('qualified');
    const before = await json(await t.as(r).get('/api/referrals/me'));
    expect(before.invitees[0].username).toEqual(expect.any(String));
    expect(before.rewards[0].friendUsername).toBe(before.invitees[0].username);
    const [row] = await t.deps.db.select().from(user).where(eq(user.id, f));
    await t.deps.db.transaction((tx) => erasePersonalData(tx, { id: f, email: row!.email, username: row!.username, name: row!.name }));
    const after = await json(await t.as(r).get('/api/referrals/me'));
    expect(after.invitees).toEqual([expect.objectContaining({ username: null, status: 'qualified' })]);
    expect(after.rewards).toEqual([expect.objectContaining({ kind: 'referrer_bonus', friendUsername: null })]);
    expect(JSON.stringify(after)).not.toContain('deleted-');
    // The other way round: the inviter deleted, the friend's "invited by" names no one.
    const r2 = await t.makeUser();
    const f2 = await friendOf(r2);
    const [row2] = await t.deps.db.select().from(user).where(eq(user.id, r2));
    await t.deps.db.transaction((tx) => erasePersonalData(tx, { id: r2, email: row2!.email, username: row2!.username, name: row2!.name }));
    expect((await json(await t.as(f2).get('/api/referrals/me'))).referredBy).toEqual({ username: null, status: 'pending' });
    // Admins still see the row's pseudonym (the books keep an owner).
    const detail = await json(await t.as(admin).get(`/api/admin/referrals/${(await referralFor(f)).id}`));
    expect(detail.referee.username).toMatch(/^deleted-/);
  });

  it('below the threshold nothing is paid', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    await deposit(f, 1500);
    expect((await referralFor(f)).status).toBe('pending');
    expect(await balance(r)).toBe(0);
    await clean();
  });

  it('the same payer (test card) is rejected without rewards', async () => {
    const r = await t.makeUser();
    await deposit(r, 1000, '4242 4242 4242 4242');
    const f = await friendOf(r);
    await deposit(f, 2500, '4242424242424242');
    expect(await referralFor(f)).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/same card/) });
    expect(await balance(r)).toBe(1000);
    const [dep] = await t.deps.db.select().from(deposits).where(eq(deposits.userId, f));
    expect(dep!.payerFingerprint).toMatch(/^sandbox:[0-9a-f]{64}$/);
    await clean();
  });

  it('refund of the qualifying deposit reverses and claws back, never below zero, shortfall recorded', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    const dep = await deposit(f, 2000);
    expect(await balance(f)).toBe(2500);
    // The friend spends most of it.
    await t.deps.db.transaction((tx) => debit(tx, { userId: f, amountCents: 2300, kind: 'admin_adjustment', referenceType: 'test' }));
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, dep));
    await t.deps.db.transaction((tx) => refundDeposit(t.deps, tx, row!, 2000));
    const ref = await referralFor(f);
    expect(ref.status).toBe('reversed');
    const claws = (await rewardsOf(ref.id)).filter((x) => x.kind === 'clawback');
    // The refund took the friend's 200 first; nothing left for the bonus: shortfall 500.
    expect(claws.find((x) => x.userId === f)).toMatchObject({ amountCents: 0, shortfallCents: 500, journalEntryId: null });
    expect(claws.find((x) => x.userId === r)).toMatchObject({ amountCents: 500, shortfallCents: 0 });
    expect(await balance(r)).toBe(0);
    expect(await balance(f)).toBe(0);
    // Exactly once: a repeated refund event changes nothing.
    const [again] = await t.deps.db.select().from(deposits).where(eq(deposits.id, dep));
    expect(await t.deps.db.transaction((tx) => refundDeposit(t.deps, tx, again!, 2000))).toBe(false);
    expect((await rewardsOf(ref.id)).filter((x) => x.kind === 'clawback')).toHaveLength(2);
    const admin1 = await json(await t.as(admin).get(`/api/admin/referrals/${ref.id}`));
    expect(admin1).toMatchObject({ status: 'reversed', paidCents: 1000, clawedBackCents: 500 });
    await clean();
  });

  it('a Stripe dispute of the qualifying deposit is handled as a refund and reverses', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    const dep = await deposit(f, 2000);
    const pi = `pi_${randomUUID()}`;
    await t.deps.db.update(deposits).set({ provider: 'stripe', paymentIntentId: pi }).where(eq(deposits.id, dep));
    // The clearing account moves: keep the books honest by treating it as a stripe deposit from here.
    const event = { id: `evt_${randomUUID()}`, type: 'charge.dispute.created', data: { object: { payment_intent: pi, amount: 2000, reason: 'fraudulent' } } } as unknown as Stripe.Event;
    const out = await t.deps.db.transaction((tx) => handleStripeEvent(t.deps, tx, event, t.deps.log));
    expect(out).toBe('refunded');
    expect((await referralFor(f)).status).toBe('reversed');
    expect(await balance(r)).toBe(0);
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, dep));
    expect(row).toMatchObject({ status: 'refunded', refundedCents: 2000, failureReason: expect.stringMatching(/Disputed/) });
    // Redelivered: a no-op.
    expect(await t.deps.db.transaction((tx) => handleStripeEvent(t.deps, tx, event, t.deps.log))).toBe('duplicate');
  });

  it('admin void: pending → voided; with clawBack takes the rewards back; 409 when closed; audited', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    const ref0 = await referralFor(f);
    const v = await t.as(admin).post(`/api/admin/referrals/${ref0.id}/void`, { reason: 'Looks like a farm' });
    expect(v.status).toBe(200);
    expect(await json(v)).toMatchObject({ status: 'voided', reason: 'Looks like a farm', voidedBy: admin });
    const again = await t.as(admin).post(`/api/admin/referrals/${ref0.id}/void`, { reason: 'again' });
    expect(again.status).toBe(409);
    await deposit(f, 2500);
    expect(await balance(r)).toBe(0);

    const r2 = await t.makeUser();
    const f2 = await friendOf(r2);
    await deposit(f2, 2500);
    const ref = await referralFor(f2);
    const vc = await t.as(admin).post(`/api/admin/referrals/${ref.id}/void`, { reason: 'Fraud', clawBack: true });
    expect(vc.status).toBe(200);
    expect(await json(vc)).toMatchObject({ status: 'voided', clawedBackCents: 1000 });
    expect(await balance(r2)).toBe(0);
    expect(await balance(f2)).toBe(2500);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'referrals.void'), eq(auditLog.targetId, ref.id)));
    expect(audits).toHaveLength(1);
    expect((await t.as(admin).post(`/api/admin/referrals/${randomUUID()}/void`, { reason: 'x' })).status).toBe(404);
    await clean();
  });

  it('admin list filters, searches and counts', async () => {
    const r = await t.makeUser();
    const f = await friendOf(r);
    const list = await json(await t.as(admin).get(`/api/admin/referrals?q=${encodeURIComponent(f.slice(0, 12))}`));
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ referee: { id: f }, referrer: { id: r }, status: 'pending' });
    expect(list.counts.pending).toBeGreaterThan(0);
    const byStatus = await json(await t.as(admin).get('/api/admin/referrals?status=reversed&pageSize=5'));
    expect(byStatus.items.every((i: { status: string }) => i.status === 'reversed')).toBe(true);
    expect((await t.as(admin).get('/api/admin/referrals?status=nope')).status).toBe(400);
  });

  it('settings are audited with before and after', async () => {
    await setSettings({ referrerRewardCents: 700 });
    const [row] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'referrals.settings.update')).orderBy(sql`${auditLog.createdAt} desc`).limit(1);
    expect(row!.after).toMatchObject({ referrerRewardCents: 700 });
    expect((await t.as(admin).put('/api/admin/referrals/settings', { ...DEFAULT_REFERRAL_SETTINGS, shareBps: 99999 })).status).toBe(400);
    await setSettings({});
  });
});

describe('purchase shares', () => {
  beforeEach(clearLimits);
  afterAll(() => setSettings({}));

  /** A purchase as the shop records it (its pack_purchase debit included), at a chosen time. */
  async function buy(u: string, cents: number, at: Date) {
    const [pack] = await t.deps.db.insert(packs).values({ name: `P ${randomUUID().slice(0, 6)}` }).returning();
    const [prod] = await t.deps.db.insert(products).values({ name: `P ${randomUUID().slice(0, 6)}`, priceCents: cents, packId: pack!.id }).returning();
    const moved = await t.deps.db.transaction((tx) => debit(tx, { userId: u, amountCents: cents, kind: 'pack_purchase', referenceType: 'purchase' }));
    await t.deps.db.insert(purchases).values({ userId: u, productId: prod!.id, packId: pack!.id, quantity: 1, unitPriceCents: cents, totalCents: cents, ledgerEntryId: moved.entryId, createdAt: at });
  }

  it('pays shareBps of each purchase inside the window, floored, capped, exactly once; a reversal takes shares back', async () => {
    await setSettings({ shareBps: 1000, shareCapCents: 250, shareDays: 30 });
    const r = await t.makeUser();
    const f = await friendOf(r);
    const dep = await deposit(f, 10_000);
    const ref = await referralFor(f);
    expect(ref).toMatchObject({ status: 'qualified', shareBps: 1000, shareCapCents: 250 });
    expect(ref.shareUntil!.getTime() - ref.qualifiedAt!.getTime()).toBe(30 * 86_400_000);
    const before = new Date(ref.qualifiedAt!.getTime() - 1000);
    const after = new Date(ref.shareUntil!.getTime() + 1000);
    await buy(f, 1000, before); // before qualifying: no share
    await buy(f, 999, new Date()); // 99.9 → 99
    await buy(f, 1000, after); // after the window: no share
    expect(await payPurchaseShares(t.deps)).toBe(99);
    expect(await payPurchaseShares(t.deps)).toBe(0);
    await buy(f, 2000, new Date()); // 200, but only 151 left under the cap
    expect(await payPurchaseShares(t.deps)).toBe(151);
    await buy(f, 2000, new Date());
    expect(await payPurchaseShares(t.deps)).toBe(0);
    const row = await referralFor(f);
    expect(Number(row.sharePaidCents)).toBe(250);
    const shares = (await rewardsOf(ref.id)).filter((x) => x.kind === 'purchase_share');
    expect(shares.map((x) => Number(x.amountCents)).sort((a, b) => a - b)).toEqual([99, 151]);
    expect(await balance(r)).toBe(500 + 250);

    const [d] = await t.deps.db.select().from(deposits).where(eq(deposits.id, dep));
    await t.deps.db.transaction((tx) => refundDeposit(t.deps, tx, d!, 10_000));
    expect((await referralFor(f)).status).toBe('reversed');
    expect(await balance(r)).toBe(0);
    await buy(f, 500, new Date()).catch(() => undefined);
    expect(await payPurchaseShares(t.deps)).toBe(0);
  });
});

describe('authorization of every referral route', () => {
  it('401 anonymous, 403 admin_role_required for a user, 403 mfa_required without a second factor', async () => {
    const u = await t.makeUser();
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    const id = randomUUID();
    const userRoutes: Array<[string, string, unknown?]> = [
      ['GET', '/api/referrals/me'],
      ['PUT', '/api/referrals/me/code', { code: 'ABCDEFG' }],
      ['POST', '/api/referrals/claim', { code: 'ABCDEFG' }],
    ];
    const adminRoutes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/referrals'],
      ['GET', `/api/admin/referrals/${id}`],
      ['POST', `/api/admin/referrals/${id}/void`, { reason: 'x' }],
      ['GET', '/api/admin/referrals/settings'],
      ['PUT', '/api/admin/referrals/settings', DEFAULT_REFERRAL_SETTINGS],
    ];
    const call = (who: string | null, [method, path, body]: [string, string, unknown?]) => {
      const c = t.as(who);
      return method === 'GET' ? c.get(path) : method === 'PUT' ? c.put(path, body) : c.post(path, body);
    };
    for (const r of [...userRoutes, ...adminRoutes]) expect((await call(null, r)).status, r[1]).toBe(401);
    for (const r of adminRoutes) {
      const asUser = await call(u, r);
      expect(asUser.status, r[1]).toBe(403);
      expect((await json(asUser)).error.code).toBe('admin_role_required');
      const asNoMfa = await call(noMfa, r);
      expect(asNoMfa.status, r[1]).toBe(403);
      expect((await json(asNoMfa)).error.code).toBe('mfa_required');
    }
  });
});

describe('demo seed', () => {
  it('gives the demo accounts codes and one demo referral, idempotently', async () => {
    for (const step of [...authSeedSteps, referralsSeedStep, referralsSeedStep]) await step.run(t.deps);
    const [demo] = await t.deps.db.select().from(user).where(eq(user.email, DEMO_USER_EMAIL));
    const [owner] = await t.deps.db.select().from(user).where(eq(user.email, DEMO_OWNER_EMAIL));
    const rows = await t.deps.db.select().from(referrals).where(eq(referrals.referrerId, demo!.id));
    expect(rows).toHaveLength(1);
    // The owner is staff, and staff are never referees (ADR 0024): the demo referral shows the rule.
    expect(rows[0]).toMatchObject({ refereeId: owner!.id, status: 'rejected', reason: STAFF_REASON });
    const [code] = await t.deps.db.select().from(referralCodes).where(eq(referralCodes.userId, demo!.id));
    expect(rows[0]!.code).toBe(code!.code);
    expect((await t.request(`/api/referrals/invite/${code!.code}`)).status).toBe(200);
  });
});
