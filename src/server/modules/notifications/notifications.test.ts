import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NotificationList, NotificationPreferences, UnsubscribeInfo } from '../../../shared/contracts/notifications.ts';
import { mailMessages } from '../../db/schema/mail.ts';
import { notificationPreferences, notifications } from '../../db/schema/notifications.ts';
import { pruneAll } from '../../jobs/prune.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { createDrop, dropInput, pastClose } from '../drops/test-support.ts';
import { runDropTransitions } from '../drops/lifecycle.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { addAddress, fund } from '../shipping/test-support.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { notify, notifyBigPull, notifyBigPullLater, unsubscribeUrl, type NotifyData } from './service.ts';
import { createUnsubscribeToken, UNSUBSCRIBE_TOKEN_DAYS } from './unsubscribe-token.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const inbox = (u: string) => t.deps.db.select().from(notifications).where(eq(notifications.userId, u));
const mailsTo = (u: string, kind?: string) =>
  t.deps.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.to, `${u}@example.test`), kind ? eq(mailMessages.kind, kind) : undefined));
const tell = <K extends keyof NotifyData>(u: string, kind: K, data: NotifyData[K], dedupeKey?: string) =>
  t.deps.db.transaction((tx) => notify(t.deps, tx, u, kind, data, dedupeKey ? { dedupeKey } : {}));
const deposit = (n = 1000): NotifyData['deposit_credited'] => ({ depositId: randomUUID(), amountCents: n, currency: 'USD' });
const setPref = (u: string, kind: string, inApp: boolean, email: boolean) =>
  t.as(u).put('/api/notifications/preferences', { preferences: [{ kind, inApp, email }] });
const json = async <T>(res: Response) => (await res.json()) as T;

// NOTIFY comes back a moment after the commit; on a loaded CI machine that can take seconds.
const WAIT = { timeout: 10_000, interval: 25 };

describe('notify obeys the preferences per channel', () => {
  it('defaults: deposit in app and by mail; big pull in app only', async () => {
    const u = await t.makeUser();
    await tell(u, 'deposit_credited', deposit(2500));
    const rows = await inbox(u);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'deposit_credited', title: 'Deposit credited', link: '/profile/billing' });
    const [m] = await mailsTo(u, 'deposit-credited');
    expect(m!.subject).toContain('$25.00');
    expect(m!.text).toContain('/unsubscribe?token=');
    expect(m!.html).toContain('/unsubscribe?token=');
    await tell(u, 'big_pull', { openingId: randomUUID(), cardId: randomUUID(), cardName: 'Dragon', valueCents: 9000 });
    expect(await inbox(u)).toHaveLength(2);
    expect(await mailsTo(u, 'big-pull')).toHaveLength(0);
  });

  it('in-app only, email only, both, none', async () => {
    const cases: Array<[boolean, boolean]> = [
      [true, false],
      [false, true],
      [true, true],
      [false, false],
    ];
    for (const [inApp, email] of cases) {
      const u = await t.makeUser();
      expect((await setPref(u, 'deposit_credited', inApp, email)).status).toBe(200);
      await tell(u, 'deposit_credited', deposit());
      expect((await inbox(u)).length, `inApp ${inApp}`).toBe(inApp ? 1 : 0);
      expect((await mailsTo(u)).length, `email ${email}`).toBe(email ? 1 : 0);
    }
  });

  it('security mail always goes out, without an unsubscribe link', async () => {
    const u = await t.makeUser();
    // The preference cannot be turned off through the API; even a row saying so is ignored.
    await t.deps.db.insert(notificationPreferences).values({ userId: u, kind: 'security', inApp: false, email: false });
    await tell(u, 'security', { event: 'password_changed', ip: '203.0.113.9', userAgent: 'TestBrowser' });
    expect(await inbox(u)).toHaveLength(0);
    const [m] = await mailsTo(u, 'security');
    expect(m!.text).toContain('203.0.113.9');
    expect(m!.text).not.toContain('unsubscribe');
    expect(unsubscribeUrl(t.deps.config, u, 'security')).toBeNull();
  });

  it('big pull: only at or above the user threshold', async () => {
    const u = await t.makeUser();
    const pull = (valueCents: number) => ({ openingId: randomUUID(), cardId: randomUUID(), cardName: 'Card', valueCents });
    await tell(u, 'big_pull', pull(4999)); // default threshold $50
    expect(await inbox(u)).toHaveLength(0);
    await tell(u, 'big_pull', pull(5000));
    expect(await inbox(u)).toHaveLength(1);
    expect((await t.as(u).put('/api/notifications/preferences', { bigPullThresholdCents: 20_000 })).status).toBe(200);
    await notifyBigPull(t.deps, u, [pull(19_999), pull(20_000), pull(50)]);
    expect(await inbox(u)).toHaveLength(2);
  });

  it('after an opening: the cached threshold skips small pulls and follows a change at once', async () => {
    const u = await t.makeUser();
    const pull = (valueCents: number) => ({ openingId: randomUUID(), cardId: randomUUID(), cardName: 'Card', valueCents });
    notifyBigPullLater(t.deps, u, [pull(2_000)]); // under the default $50: cached, nothing written
    await new Promise((r) => setTimeout(r, 200));
    expect(await inbox(u)).toHaveLength(0);
    expect((await t.as(u).put('/api/notifications/preferences', { bigPullThresholdCents: 1_000 })).status).toBe(200);
    notifyBigPullLater(t.deps, u, [pull(2_000), pull(500)]);
    await vi.waitFor(async () => expect(await inbox(u)).toHaveLength(1), WAIT);
  });

  it('a repeat with the same dedupe key is a no-op (inbox and mail); a banned user gets no mail', async () => {
    const u = await t.makeUser();
    const d = deposit();
    await tell(u, 'deposit_credited', d, 'k1');
    await tell(u, 'deposit_credited', d, 'k1');
    expect(await inbox(u)).toHaveLength(1);
    expect(await mailsTo(u)).toHaveLength(1);
    const b = await t.makeUser();
    await t.deps.dbh.query(sql`update "user" set banned = true where id = ${b}`);
    await tell(b, 'deposit_credited', d);
    expect(await inbox(b)).toHaveLength(1);
    expect(await mailsTo(b)).toHaveLength(0);
  });

  it('a rolled-back change tells no one', async () => {
    const u = await t.makeUser();
    await expect(
      t.deps.db.transaction(async (tx) => {
        await notify(t.deps, tx, u, 'deposit_credited', deposit());
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await inbox(u)).toHaveLength(0);
    expect(await mailsTo(u)).toHaveLength(0);
  });
});

describe('the inbox API', () => {
  it('401 for every user route when anonymous', async () => {
    const id = randomUUID();
    for (const [method, path, body] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['POST', `/api/notifications/${id}/read`],
      ['POST', '/api/notifications/read-all'],
      ['GET', '/api/notifications/preferences'],
      ['PUT', '/api/notifications/preferences', {}],
    ] as Array<[string, string, unknown?]>) {
      const res = await t.request(path, { method, ...(body === undefined ? {} : { json: body }) });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('lists newest first with cursor paging; unread filter; a bad cursor is 400', async () => {
    const u = await t.makeUser();
    for (let i = 0; i < 5; i++) await tell(u, 'deposit_credited', deposit(100 * (i + 1)));
    const p1 = await json<NotificationList>(await t.as(u).get('/api/notifications?limit=2'));
    expect(p1.items).toHaveLength(2);
    expect(p1.unreadCount).toBe(5);
    expect(p1.items[0]!.body).toContain('$5.00');
    const p2 = await json<NotificationList>(await t.as(u).get(`/api/notifications?limit=2&before=${p1.nextCursor}`));
    const p3 = await json<NotificationList>(await t.as(u).get(`/api/notifications?limit=2&before=${p2.nextCursor}`));
    expect(p3.nextCursor).toBeNull();
    const ids = [...p1.items, ...p2.items, ...p3.items].map((n) => n.id);
    expect(new Set(ids).size).toBe(5);
    for (const bad of ['garbage!', Buffer.from('2020-01-01|x').toString('base64url'), 'x'.repeat(150)]) {
      const res = await t.as(u).get(`/api/notifications?before=${bad}`);
      expect(res.status, bad).toBe(400);
      expect((await json<{ error: { code: string } }>(res)).error.code).toBe('validation_failed');
    }
    // Someone else sees none of them.
    const other = await t.makeUser();
    expect((await json<NotificationList>(await t.as(other).get('/api/notifications'))).items).toHaveLength(0);
  });

  it("marks one read; another user's is 404 and unchanged; read-all; notification.read is published", async () => {
    const events: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => events.push(e));
    const u = await t.makeUser();
    const other = await t.makeUser();
    await tell(u, 'deposit_credited', deposit());
    await tell(u, 'deposit_credited', deposit());
    // On PostgreSQL events come back through LISTEN/NOTIFY, a moment after the commit.
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'notification.created' && e.topic === `user:${u}`)).toHaveLength(2), WAIT);
    const [a, b] = await inbox(u);
    const stolen = await t.as(other).post(`/api/notifications/${a!.id}/read`);
    expect(stolen.status).toBe(404);
    expect((await t.as(other).post(`/api/notifications/${randomUUID()}/read`)).status).toBe(404);
    expect((await t.as(other).post('/api/notifications/not-an-id/read')).status).toBe(404);
    expect((await inbox(u)).every((n) => n.readAt === null)).toBe(true);
    const r = await t.as(u).post(`/api/notifications/${a!.id}/read`);
    expect(await json(r)).toEqual({ unreadCount: 1 });
    expect(await json(await t.as(u).get('/api/notifications/unread-count'))).toEqual({ unreadCount: 1 });
    expect(await json(await t.as(u).get('/api/notifications?unread=true'))).toMatchObject({ items: [{ id: b!.id }] });
    expect(await json(await t.as(u).post('/api/notifications/read-all'))).toEqual({ unreadCount: 0 });
    expect(await json(await t.as(u).get('/api/notifications/unread-count'))).toEqual({ unreadCount: 0 });
    await vi.waitFor(
      () => expect(events.filter((e) => e.type === 'notification.read' && e.topic === `user:${u}`).map((e) => e.data)).toEqual([{ unreadCount: 1 }, { unreadCount: 0 }]),
      WAIT,
    );
    off();
  });
});

describe('preferences', () => {
  it('defaults, changes and validation', async () => {
    const u = await t.makeUser();
    const p = await json<NotificationPreferences>(await t.as(u).get('/api/notifications/preferences'));
    expect(p.bigPullThresholdCents).toBe(5000);
    expect(p.preferences.find((x) => x.kind === 'security')).toEqual({ kind: 'security', inApp: true, email: true, emailLocked: true });
    expect(p.preferences.find((x) => x.kind === 'big_pull')).toMatchObject({ inApp: true, email: false });

    const bad: Array<[unknown, string]> = [
      [{ preferences: [{ kind: 'nope', inApp: true, email: true }] }, 'preferences.0.kind'],
      [{ preferences: [{ kind: 'security', inApp: true, email: false }] }, 'preferences.0.email'],
      [{ bigPullThresholdCents: 50 }, 'bigPullThresholdCents'],
      [{ bigPullThresholdCents: 10_000_001 }, 'bigPullThresholdCents'],
      [{ bigPullThresholdCents: 100.5 }, 'bigPullThresholdCents'],
      [{ extra: true }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await t.as(u).put('/api/notifications/preferences', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await json<{ error: { code: string; fields?: Record<string, string[]> } }>(res)).error;
      expect(err.code).toBe('validation_failed');
      if (field) expect(Object.keys(err.fields ?? {}), JSON.stringify(body)).toContain(field);
      if (field === 'preferences.0.email') expect(err.fields![field]).toEqual(["Security mail can't be turned off."]);
    }
    expect(await t.deps.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, u))).toHaveLength(0);

    const after = await json<NotificationPreferences>(
      await t.as(u).put('/api/notifications/preferences', { preferences: [{ kind: 'big_pull', inApp: false, email: true }], bigPullThresholdCents: 12_345 }),
    );
    expect(after.bigPullThresholdCents).toBe(12_345);
    expect(after.preferences.find((x) => x.kind === 'big_pull')).toMatchObject({ inApp: false, email: true });
    // Other kinds keep theirs; a later threshold-only change keeps the channels.
    const again = await json<NotificationPreferences>(await t.as(u).put('/api/notifications/preferences', { bigPullThresholdCents: 200 }));
    expect(again.preferences.find((x) => x.kind === 'big_pull')).toMatchObject({ inApp: false, email: true });
    expect(again.preferences.find((x) => x.kind === 'deposit_credited')).toMatchObject({ inApp: true, email: true });
  });
});

describe('unsubscribe links', () => {
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

  it('turns off mail of that kind only, without a session; repeating is harmless', async () => {
    const u = await t.makeUser();
    await tell(u, 'deposit_credited', deposit());
    const [m] = await mailsTo(u);
    const url = m!.links.find((l) => l.includes('/unsubscribe?token='))!;
    expect(url.startsWith(`${t.deps.config.publicUrl}/unsubscribe?token=`)).toBe(true);
    const token = tokenOf(url);
    const info = await json<UnsubscribeInfo>(await t.request(`/api/notifications/unsubscribe?token=${token}`));
    expect(info).toMatchObject({ kind: 'deposit_credited', label: 'Deposit credited', alreadyOff: false });
    expect(info.email).toMatch(/^u….*@example\.test$/);
    const off = await t.request('/api/notifications/unsubscribe', { method: 'POST', json: { token } });
    expect(off.status).toBe(200);
    expect(await json(off)).toMatchObject({ kind: 'deposit_credited', alreadyOff: true });
    expect((await t.request('/api/notifications/unsubscribe', { method: 'POST', json: { token } })).status).toBe(200);
    const prefs = await json<NotificationPreferences>(await t.as(u).get('/api/notifications/preferences'));
    expect(prefs.preferences.find((p) => p.kind === 'deposit_credited')).toMatchObject({ inApp: true, email: false });
    expect(prefs.preferences.find((p) => p.kind === 'shipment_status')).toMatchObject({ email: true });
    await tell(u, 'deposit_credited', deposit());
    expect(await mailsTo(u)).toHaveLength(1);
    expect(await inbox(u)).toHaveLength(2);
  });

  it('forged, tampered, garbled, expired and security tokens are 400 and change nothing', async () => {
    const u = await t.makeUser();
    const good = createUnsubscribeToken(t.deps.config.secret, u, 'drop_won');
    const [payload, sig] = good.split('.') as [string, string];
    const otherKind = Buffer.from(`${u}\ndeposit_credited\n${Math.floor(Date.now() / 1000) + 1000}`).toString('base64url');
    const secPayload = Buffer.from(`${u}\nsecurity\n${Math.floor(Date.now() / 1000) + 1000}`).toString('base64url');
    const cases: Array<[string, string]> = [
      [createUnsubscribeToken('another-secret-another-secret-xx', u, 'drop_won'), 'invalid_link'],
      [`${otherKind}.${sig}`, 'invalid_link'],
      [`${payload}.${sig.slice(0, -2)}AA`, 'invalid_link'],
      [`${secPayload}.${sig}`, 'invalid_link'],
      ['garbage', 'invalid_link'],
      ['a.b.c', 'invalid_link'],
      [createUnsubscribeToken(t.deps.config.secret, u, 'drop_won', Date.now() - (UNSUBSCRIBE_TOKEN_DAYS + 1) * 86_400_000), 'link_expired'],
      [createUnsubscribeToken(t.deps.config.secret, 'no-such-user', 'drop_won'), 'invalid_link'],
    ];
    for (const [token, code] of cases) {
      for (const res of [
        await t.request(`/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`),
        await t.request('/api/notifications/unsubscribe', { method: 'POST', json: { token } }),
      ]) {
        expect(res.status, token).toBe(400);
        expect((await json<{ error: { code: string } }>(res)).error.code, token).toBe(code);
      }
    }
    expect(() => createUnsubscribeToken(t.deps.config.secret, u, 'security')).toThrow();
    expect(await t.deps.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, u))).toHaveLength(0);
  });
});

describe('each feature notifies', () => {
  it('deposit credited (sandbox pay)', async () => {
    const u = await t.makeUser();
    const start = await json<{ deposit: { id: string } }>(await t.as(u).post('/api/wallet/deposits', { amountCents: 2500 }, idem()));
    const paid = await t.as(u).post(`/api/payments/sandbox/deposits/${start.deposit.id}/pay`, {}, idem());
    expect(paid.status).toBe(200);
    expect((await inbox(u)).map((n) => n.kind)).toEqual(['deposit_credited']);
    expect(await mailsTo(u, 'deposit-credited')).toHaveLength(1);
  });

  it('buyback paid', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 5 });
    const owned = await giveCards(t, u, card.id, 2);
    const res = await t.as(u).post('/api/buyback', { ownedCardIds: owned }, { 'Idempotency-Key': randomUUID() });
    expect(res.status, await res.clone().text()).toBe(201);
    const rows = await inbox(u);
    expect(rows.map((n) => n.kind)).toEqual(['buyback_paid']);
    expect(rows[0]!.body).toContain('2 cards');
  });

  it('shipment status, by mail per preference (the shipment.updated event stays)', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const u = await t.makeUser();
    await fund(t, u, 10_000);
    const address = await addAddress(t, u);
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 5 });
    const owned = await giveCards(t, u, card.id, 1);
    const created = await t.as(u).post('/api/shipping/shipments', { ownedCardIds: owned, addressId: address.id }, { 'Idempotency-Key': randomUUID() });
    expect(created.status, await created.clone().text()).toBe(201);
    const { shipment } = await json<{ shipment: { id: string } }>(created);
    expect((await setPref(u, 'shipment_status', true, false)).status).toBe(200);
    const events: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => events.push(e));
    expect((await t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/advance`, { to: 'packing' })).status).toBe(200);
    off();
    const rows = await inbox(u);
    expect(rows.map((n) => n.kind)).toEqual(['shipment_status', 'shipment_status']);
    expect(await mailsTo(u, 'shipment-status')).toHaveLength(1); // the request's, before the switch
    await vi.waitFor(() => expect(events.some((e) => e.type === 'shipment.updated')).toBe(true), WAIT);
  });

  it('drop starting (broadcast) and drop won, through the lifecycle', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const fan = await t.makeUser({ createdAt: new Date(Date.now() - 30 * 86_400_000) });
    const quiet = await t.makeUser();
    expect((await setPref(quiet, 'drop_starting', false, false)).status).toBe(200);
    const mailer = await t.makeUser();
    expect((await setPref(mailer, 'drop_starting', true, true)).status).toBe(200);
    const events: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => events.push(e));
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 700, stock: 5 });
    const d = await createDrop(t, admin, dropInput(card.id));
    expect((await inbox(fan)).map((n) => n.kind)).toContain('drop_starting');
    expect(await inbox(quiet)).toHaveLength(0);
    expect(await mailsTo(mailer, 'drop-starting')).toHaveLength(1);
    expect(await mailsTo(fan, 'drop-starting')).toHaveLength(0);
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'notification.broadcast' && e.topic === 'public')).toHaveLength(1), WAIT);
    // A second run opens nothing new and tells no one again.
    await runDropTransitions(t.deps);
    expect((await inbox(fan)).filter((n) => n.kind === 'drop_starting')).toHaveLength(1);

    expect((await t.as(fan).post(`/api/drops/${d.id}/entries`)).status).toBe(201);
    await pastClose(t, d.id);
    await runDropTransitions(t.deps);
    const won = (await inbox(fan)).filter((n) => n.kind === 'drop_won');
    expect(won).toHaveLength(1);
    expect(won[0]!.link).toBe(`/daily-drop/${d.id}`);
    expect(await mailsTo(fan, 'drop-won')).toHaveLength(1);
    // On PostgreSQL the event comes back through LISTEN/NOTIFY after the draw: keep listening until then.
    await vi.waitFor(() => expect(events.some((e) => e.type === 'drop.won' && e.topic === `user:${fan}`)).toBe(true), WAIT);
    off();
  });
});

describe('retention and personal data', () => {
  it('the prune deletes notifications older than 90 days', async () => {
    const u = await t.makeUser();
    await tell(u, 'deposit_credited', deposit());
    await tell(u, 'deposit_credited', deposit());
    const [old] = await inbox(u);
    await t.deps.dbh.query(sql`update notifications set created_at = now() - interval '91 days' where id = ${old!.id}::uuid`);
    const results = await pruneAll(t.deps);
    expect(results.find((r) => r.table === 'notifications')!.deleted).toBeGreaterThanOrEqual(1);
    expect((await inbox(u)).map((n) => n.id)).not.toContain(old!.id);
    expect(await inbox(u)).toHaveLength(1);
  });
});

describe('unsubscribe rate limit (last: it spends this address budget)', () => {
  it('hammering the public link from one address answers 429 with Retry-After', async () => {
    let limited: Response | null = null;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await t.request('/api/notifications/unsubscribe?token=garbage');
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(400);
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
