import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDrop, DropDetail, DropProofDto, PublicDrop } from '../../../shared/contracts/drops.ts';
import { verifyDrop } from '../../../shared/drop-draw.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { user } from '../../db/schema/auth.ts';
import { dropEntries, drops } from '../../db/schema/drops.ts';
import { mailMessages } from '../../db/schema/mail.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import { selfExclusions } from '../../db/schema/responsible-play.ts';
import { makeCard, makeClass, stockOf } from '../buyback/test-support.ts';
import { nodeFair, sha256HexSync } from '../fairness/crypto.ts';
import { exportPersonalData } from '../personal-data.ts';
import { dropsPersonalData } from './personal-data.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { runDropTransitions, scheduleTemplateDrops } from './lifecycle.ts';
import { booksReconcile, createDrop, dropInput, HOUR, pastClose } from './test-support.ts';

let t: MoneyTestContext;
let admin: string;
let classId: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
  classId = (await makeClass(t)).id;
});
afterAll(() => t.close());

const card = (stock = 5, valueCents = 1234) => makeCard(t, { classId, valueCents, stock });
const dropCount = async () => ((await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(drops)) as [{ n: number }])[0].n;
const body = async <T>(res: Response) => (await res.json()) as T;

describe('authorization', () => {
  it('admin routes need the admin role and a second factor; entering needs a session', async () => {
    const c = await card();
    const d = await createDrop(t, admin, dropInput(c.id));
    const u = await t.makeUser();
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    const adminRoutes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/drops'],
      ['POST', '/api/admin/drops', dropInput(c.id)],
      ['GET', `/api/admin/drops/${d.id}`],
      ['GET', `/api/admin/drops/${d.id}/entries`],
      ['PATCH', `/api/admin/drops/${d.id}`, { title: 'x' }],
      ['POST', `/api/admin/drops/${d.id}/cancel`],
      ['GET', '/api/admin/drop-templates'],
      ['POST', '/api/admin/drop-templates', {}],
      ['GET', `/api/admin/drop-templates/${d.id}`],
      ['PATCH', `/api/admin/drop-templates/${d.id}`, {}],
      ['DELETE', `/api/admin/drop-templates/${d.id}`],
    ];
    for (const [method, path, json] of adminRoutes) {
      const anon = await t.request(path, { method, ...(json === undefined ? {} : { json }) });
      expect(anon.status, `${method} ${path} anonymous`).toBe(401);
      const asUser = await t.request(path, { method, headers: { 'x-test-user': u }, ...(json === undefined ? {} : { json }) });
      expect(asUser.status, `${method} ${path} user`).toBe(403);
      expect((await body<{ error: { code: string } }>(asUser)).error.code).toBe('admin_role_required');
      const asNoMfa = await t.request(path, { method, headers: { 'x-test-user': noMfa }, ...(json === undefined ? {} : { json }) });
      expect(asNoMfa.status, `${method} ${path} admin without mfa`).toBe(403);
      expect((await body<{ error: { code: string } }>(asNoMfa)).error.code).toBe('mfa_required');
    }
    expect((await t.request(`/api/drops/${d.id}/entries`, { method: 'POST' })).status).toBe(401);
    expect((await t.request(`/api/drops/${d.id}/entries/me`)).status).toBe(401);
    // Public reads.
    expect((await t.request('/api/drops')).status).toBe(200);
    expect((await t.request(`/api/drops/${d.id}`)).status).toBe(200);
    expect((await t.request(`/api/drops/${d.id}/proof`)).status).toBe(409);
    expect((await t.request('/api/drops/not-a-uuid')).status).toBe(404);
    // The drop stayed as it was.
    expect((await body<{ drop: AdminDrop }>(await t.as(admin).get(`/api/admin/drops/${d.id}`))).drop.status).toBe('open');
  });
});

describe('scheduling (admin)', () => {
  it('takes the prizes from stock, opens with a commitment and keeps the seed secret; audited', async () => {
    const c = await card(5);
    const d = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 2 }], winnerCount: 2 }));
    expect(d.status).toBe('open');
    expect(d.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(d.seed).toBeNull();
    expect(d.prizes).toEqual([{ card: expect.objectContaining({ id: c.id, valueCents: 1234 }), quantity: 2 }]);
    expect(await stockOf(t, c.id)).toBe(3);
    const [row] = await t.deps.db.select().from(drops).where(eq(drops.id, d.id));
    expect(sha256HexSync(row!.seed!)).toBe(d.commitment);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.targetId, d.id), eq(auditLog.action, 'drop.create')));
    expect(audits).toHaveLength(1);
    await booksReconcile(t);
  });

  it('a drop opening later is scheduled, without a commitment yet; the list counts by status', async () => {
    const c = await card();
    const d = await createDrop(t, admin, dropInput(c.id, { opensAt: new Date(Date.now() + HOUR).toISOString(), closesAt: new Date(Date.now() + 2 * HOUR).toISOString() }));
    expect(d.status).toBe('scheduled');
    expect(d.commitment).toBeNull();
    const list = await body<{ counts: Record<string, number>; items: AdminDrop[] }>(await t.as(admin).get('/api/admin/drops?status=scheduled'));
    expect(list.counts.upcoming).toBeGreaterThanOrEqual(1);
    expect(Object.keys(list.counts).sort()).toEqual(['cancelled', 'closed', 'drawing', 'open', 'upcoming']);
    expect(list.items.every((i) => i.status === 'scheduled')).toBe(true);
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const c = await card(1);
    const before = await dropCount();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [dropInput(c.id, { winnerCount: 0 }), 400, 'winnerCount'],
      [dropInput(c.id, { opensAt: new Date(Date.now() + 2 * HOUR).toISOString(), closesAt: new Date(Date.now() + HOUR).toISOString() }), 400, 'closesAt'],
      [dropInput(c.id, { winnerCount: 2 }), 400, 'winnerCount'],
      [dropInput(c.id, { prizes: [] }), 400, 'prizes'],
      [dropInput('00000000-0000-4000-8000-000000000000'), 400, 'prizes.0.cardId'],
      [dropInput(c.id, { opensAt: new Date(Date.now() - 2 * HOUR).toISOString(), closesAt: new Date(Date.now() - HOUR).toISOString() }), 400, 'closesAt'],
    ];
    for (const [input, status, field] of cases) {
      const res = await t.as(admin).post('/api/admin/drops', input);
      expect(res.status, field).toBe(status);
      const err = await body<{ error: { fields?: Record<string, string[]> } }>(res);
      expect(Object.keys(err.error.fields ?? {}), field).toContain(field);
    }
    // A prize with no stock left: 409, nothing scheduled, nothing taken.
    const empty = await card(0);
    const res = await t.as(admin).post('/api/admin/drops', dropInput(empty.id));
    expect(res.status).toBe(409);
    expect((await body<{ error: { code: string } }>(res)).error.code).toBe('out_of_stock');
    const short = await t.as(admin).post('/api/admin/drops', dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 3 }] }));
    expect(short.status).toBe(409);
    expect(await stockOf(t, c.id)).toBe(1);
    expect(await dropCount()).toBe(before);
    await booksReconcile(t);
  });

  it('after opening: extended yes; prizes, winner count, opening and eligibility locked (409); shortened 409', async () => {
    const c = await card(5);
    const d = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 2 }] }));
    const patch = (json: unknown) => t.as(admin).patch(`/api/admin/drops/${d.id}`, json);
    for (const bad of [
      { winnerCount: 2 },
      { prizes: [{ cardId: c.id, quantity: 1 }] },
      { opensAt: new Date(Date.now() + HOUR).toISOString() },
      { minAccountAgeDays: 3 },
      { closesAt: new Date(Date.now() + HOUR / 2).toISOString() },
    ]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(409);
      expect((await body<{ error: { code: string } }>(res)).error.code).toBe('drop_locked');
    }
    const later = new Date(Date.now() + 3 * HOUR).toISOString();
    const ok = await patch({ closesAt: later, title: 'Longer drop' });
    expect(ok.status).toBe(200);
    const after = (await body<{ drop: AdminDrop }>(ok)).drop;
    expect(after.closesAt).toBe(later);
    expect(after.title).toBe('Longer drop');
    expect(after.winnerCount).toBe(1);
    expect(await stockOf(t, c.id)).toBe(3);
    expect((await t.deps.db.select().from(auditLog).where(and(eq(auditLog.targetId, d.id), eq(auditLog.action, 'drop.update')))).length).toBe(1);
  });

  it('a scheduled drop may change its prizes: the old go back to stock, the new are taken', async () => {
    const a = await card(5);
    const b = await card(5);
    const d = await createDrop(t, admin, dropInput(a.id, { opensAt: new Date(Date.now() + HOUR).toISOString(), closesAt: new Date(Date.now() + 2 * HOUR).toISOString() }));
    expect(await stockOf(t, a.id)).toBe(4);
    const res = await t.as(admin).patch(`/api/admin/drops/${d.id}`, { prizes: [{ cardId: b.id, quantity: 2 }], winnerCount: 2 });
    expect(res.status).toBe(200);
    expect(await stockOf(t, a.id)).toBe(5);
    expect(await stockOf(t, b.id)).toBe(3);
    const tooMany = await t.as(admin).patch(`/api/admin/drops/${d.id}`, { winnerCount: 3 });
    expect(tooMany.status).toBe(400);
    await booksReconcile(t);
  });

  it('cancelling returns the prizes to stock; a cancelled drop cannot be cancelled, edited or entered', async () => {
    const c = await card(4);
    const d = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 3 }] }));
    expect(await stockOf(t, c.id)).toBe(1);
    const res = await t.as(admin).post(`/api/admin/drops/${d.id}/cancel`);
    expect(res.status).toBe(200);
    expect((await body<{ drop: AdminDrop }>(res)).drop.status).toBe('cancelled');
    expect(await stockOf(t, c.id)).toBe(4);
    expect((await t.as(admin).post(`/api/admin/drops/${d.id}/cancel`)).status).toBe(409);
    expect((await t.as(admin).patch(`/api/admin/drops/${d.id}`, { title: 'x' })).status).toBe(409);
    const u = await t.makeUser();
    const enter = await t.as(u).post(`/api/drops/${d.id}/entries`);
    expect(enter.status).toBe(409);
    expect((await body<{ error: { code: string } }>(enter)).error.code).toBe('drop_cancelled');
    await booksReconcile(t);
  });
});

describe('entering', () => {
  it('one free entry per user; a retry answers the same entry; the count is live', async () => {
    const c = await card();
    const d = await createDrop(t, admin, dropInput(c.id));
    const u = await t.makeUser();
    const events: Array<{ type: string; data: unknown }> = [];
    const off = t.deps.bus.subscribe((e) => events.push({ type: e.type, data: e.data }));
    const first = await t.as(u).post(`/api/drops/${d.id}/entries`);
    expect(first.status).toBe(201);
    const a = await body<{ entry: { entryId: string }; created: boolean; entryCount: number }>(first);
    expect(a.created).toBe(true);
    expect(a.entryCount).toBe(1);
    const again = await t.as(u).post(`/api/drops/${d.id}/entries`);
    expect(again.status).toBe(200);
    const b = await body<{ entry: { entryId: string }; created: boolean }>(again);
    expect(b.entry.entryId).toBe(a.entry.entryId);
    expect(b.created).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(events).toContainEqual({ type: 'drop.entries', data: { dropId: d.id, entryCount: 1 } });
    const mine = await body<{ entry: { entryId: string } }>(await t.as(u).get(`/api/drops/${d.id}/entries/me`));
    expect(mine.entry.entryId).toBe(a.entry.entryId);
    const detail = await body<DropDetail>(await t.as(u).get(`/api/drops/${d.id}`));
    expect(detail.drop.entryCount).toBe(1);
    expect(detail.myEntry?.entryId).toBe(a.entry.entryId);
    expect(detail.drop.seed).toBeNull();
    const other = await t.makeUser();
    expect((await t.as(other).get(`/api/drops/${d.id}/entries/me`)).status).toBe(404);
  });

  it('refuses the ineligible, and drops not open, changing nothing', async () => {
    const c = await card(10);
    const d = await createDrop(t, admin, dropInput(c.id, { minAccountAgeDays: 7 }));
    const old = new Date(Date.now() - 30 * 24 * HOUR);
    const unverified = await t.makeUser({ verified: false, createdAt: old });
    const young = await t.makeUser();
    const excluded = await t.makeUser({ createdAt: old });
    await t.deps.db.insert(selfExclusions).values({ userId: excluded, duration: '7d', endsAt: new Date(Date.now() + 7 * 24 * HOUR) });
    const banned = await t.makeUser({ createdAt: old });
    await t.deps.db.update(user).set({ banned: true }).where(eq(user.id, banned));
    const expectCode = async (who: string, dropId: string, status: number, code: string) => {
      const res = await t.as(who).post(`/api/drops/${dropId}/entries`);
      expect(res.status, code).toBe(status);
      expect((await body<{ error: { code: string } }>(res)).error.code).toBe(code);
    };
    await expectCode(unverified, d.id, 403, 'email_not_verified');
    await expectCode(young, d.id, 403, 'account_too_new');
    await expectCode(excluded, d.id, 403, 'self_excluded');
    await expectCode(banned, d.id, 403, 'account_banned');
    await expectCode(admin, d.id, 403, 'staff_not_eligible');
    const later = await createDrop(t, admin, dropInput(c.id, { opensAt: new Date(Date.now() + HOUR).toISOString(), closesAt: new Date(Date.now() + 2 * HOUR).toISOString() }));
    const ok = await t.makeUser();
    await expectCode(ok, later.id, 409, 'drop_not_open');
    const closed = await createDrop(t, admin, dropInput(c.id));
    await pastClose(t, closed.id);
    await expectCode(ok, closed.id, 409, 'drop_closed');
    await runDropTransitions(t.deps);
    await expectCode(ok, closed.id, 409, 'drop_closed');
    expect((await t.as(ok).post('/api/drops/00000000-0000-4000-8000-000000000000/entries')).status).toBe(404);
    const n = await t.deps.db.select().from(dropEntries).where(eq(dropEntries.dropId, d.id));
    expect(n).toHaveLength(0);
  });
});

describe('the draw', () => {
  it('draws at close, puts the prizes in the winners’ vaults, publishes a proof that verifies, tells the winners', async () => {
    const a = await card(5, 2500);
    const b = await card(5, 900);
    const d = await createDrop(t, admin, dropInput(a.id, { prizes: [{ cardId: a.id, quantity: 1 }, { cardId: b.id, quantity: 2 }], winnerCount: 3 }));
    const users = await Promise.all(Array.from({ length: 8 }, () => t.makeUser()));
    for (const u of users) expect((await t.as(u).post(`/api/drops/${d.id}/entries`)).status).toBe(201);
    await pastClose(t, d.id);
    const events: Array<{ topic: string; type: string }> = [];
    const off = t.deps.bus.subscribe((e) => events.push({ topic: e.topic, type: e.type }));
    const r = await runDropTransitions(t.deps);
    expect(r.drawn).toBeGreaterThanOrEqual(1);
    await new Promise((res) => setTimeout(res, 20));
    off();

    const proofRes = await t.request(`/api/drops/${d.id}/proof`);
    expect(proofRes.status).toBe(200);
    const proof = await body<DropProofDto>(proofRes);
    expect(proof.entryIds).toHaveLength(8);
    expect(proof.commitment).toBe(d.commitment);
    const v = await verifyDrop(nodeFair, { ...proof, winners: proof.winners.map((w) => w.entryId) });
    expect(v.problems).toEqual([]);
    expect(v.ok).toBe(true);
    expect(proof.winners).toHaveLength(3);

    // Each winner: a copy in the vault, acquired by the drop, at the card's value; place 0 gets card a.
    const detail = await body<DropDetail>(await t.request(`/api/drops/${d.id}`));
    expect(detail.drop.status).toBe('closed');
    expect(detail.drop.seed).toBe(proof.seed);
    expect(detail.drop.winners.map((w) => w.card.id)).toEqual([a.id, b.id, b.id]);
    const copies = await t.deps.db.select().from(ownedCards).where(eq(ownedCards.acquiredVia, 'drop'));
    const winnerIds = new Set<string>();
    for (const w of proof.winners) {
      const entry = (await t.deps.db.select().from(dropEntries).where(and(eq(dropEntries.dropId, d.id), eq(dropEntries.publicId, w.entryId))))[0]!;
      winnerIds.add(entry.userId);
      const mine = copies.filter((o) => o.ownerId === entry.userId);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.status).toBe('in_vault');
      expect(mine[0]!.valueCents).toBe(mine[0]!.cardId === a.id ? 2500 : 900);
      const my = await body<DropDetail>(await t.as(entry.userId).get(`/api/drops/${d.id}`));
      expect(my.myWin?.ownedCardId).toBe(mine[0]!.id);
    }
    expect(winnerIds.size).toBe(3);
    const adminEntries = await body<{ items: Array<{ entryId: string; inDraw: boolean; place: number | null }>; total: number }>(
      await t.as(admin).get(`/api/admin/drops/${d.id}/entries`),
    );
    expect(adminEntries.total).toBe(8);
    expect(adminEntries.items.every((e) => e.inDraw)).toBe(true);
    expect(adminEntries.items.filter((e) => e.place !== null).map((e) => e.place).sort()).toEqual([0, 1, 2]);
    expect(await stockOf(t, a.id)).toBe(4);
    expect(await stockOf(t, b.id)).toBe(3);
    expect(events.filter((e) => e.type === 'drop.won')).toHaveLength(3);
    expect(events.some((e) => e.type === 'drop.closed' && e.topic === 'public')).toBe(true);
    const mails = await t.deps.db.select().from(mailMessages).where(eq(mailMessages.kind, 'drop-won'));
    expect(mails.filter((m) => [...winnerIds].some((id) => m.to.startsWith(id.toLowerCase())))).toHaveLength(3);

    // Past drops list it, newest first, with winners' usernames and entry count.
    const past = await body<{ items: PublicDrop[] }>(await t.request('/api/drops?when=past'));
    const listed = past.items.find((i) => i.id === d.id)!;
    expect(listed.entryCount).toBe(8);
    expect(listed.winners).toHaveLength(3);
    // A second run draws nothing again.
    expect((await runDropTransitions(t.deps)).drawn).toBe(0);
    expect((await t.deps.db.select().from(ownedCards).where(eq(ownedCards.acquiredVia, 'drop'))).length).toBe(copies.length);
    await booksReconcile(t);
  });

  it('fewer entries than winners: the unawarded prizes go back to stock; no entries: closed with no winner', async () => {
    const c = await card(6);
    const d = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 3 }], winnerCount: 3 }));
    const empty = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 2 }], winnerCount: 2 }));
    expect(await stockOf(t, c.id)).toBe(1);
    const u = await t.makeUser();
    await t.as(u).post(`/api/drops/${d.id}/entries`);
    await pastClose(t, d.id);
    await pastClose(t, empty.id);
    await runDropTransitions(t.deps);
    expect(await stockOf(t, c.id)).toBe(5);
    const e = await body<DropDetail>(await t.request(`/api/drops/${empty.id}`));
    expect(e.drop.status).toBe('closed');
    expect(e.drop.winners).toEqual([]);
    const proof = await body<DropProofDto>(await t.request(`/api/drops/${empty.id}/proof`));
    expect(proof.entryIds).toEqual([]);
    expect((await verifyDrop(nodeFair, { ...proof, winners: [] })).ok).toBe(true);
    await booksReconcile(t);
  });

  it('a suspended entrant is left out of the frozen list', async () => {
    const c = await card(2);
    const d = await createDrop(t, admin, dropInput(c.id));
    const bad = await t.makeUser();
    await t.as(bad).post(`/api/drops/${d.id}/entries`);
    await t.deps.db.update(user).set({ banned: true }).where(eq(user.id, bad));
    await pastClose(t, d.id);
    await runDropTransitions(t.deps);
    const proof = await body<DropProofDto>(await t.request(`/api/drops/${d.id}/proof`));
    expect(proof.entryIds).toEqual([]);
    expect(proof.winners).toEqual([]);
    expect(await stockOf(t, c.id)).toBe(2);
  });
});

describe('recurring drops', () => {
  it('templates: CRUD audited; the job schedules today’s and tomorrow’s drop once each', async () => {
    const c = await card(10);
    const res = await t.as(admin).post('/api/admin/drop-templates', {
      title: 'Every day',
      openTime: '00:00',
      durationMinutes: 24 * 60 - 1,
      winnerCount: 1,
      prizes: [{ cardId: c.id, quantity: 1 }],
    });
    expect(res.status).toBe(201);
    const tpl = (await body<{ template: { id: string } }>(res)).template;
    expect((await t.as(admin).post('/api/admin/drop-templates', { title: 'x', openTime: '25:00', durationMinutes: 60, winnerCount: 1, prizes: [{ cardId: c.id, quantity: 1 }] })).status).toBe(400);
    expect((await t.as(admin).patch(`/api/admin/drop-templates/${tpl.id}`, { winnerCount: 2 })).status).toBe(400);
    // Noon today (UTC), not the wall clock: run a minute before midnight, today's occurrence
    // (00:00–23:59) would already be over and only tomorrow's would be made.
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    await Promise.all([scheduleTemplateDrops(t.deps, noon), scheduleTemplateDrops(t.deps, noon)]);
    await scheduleTemplateDrops(t.deps, noon);
    const made = await t.deps.db.select().from(drops).where(eq(drops.templateId, tpl.id));
    expect(made).toHaveLength(2);
    expect(await stockOf(t, c.id)).toBe(8);
    const patched = await t.as(admin).patch(`/api/admin/drop-templates/${tpl.id}`, { active: false });
    expect(patched.status).toBe(200);
    expect((await body<{ items: unknown[] }>(await t.as(admin).get('/api/admin/drop-templates'))).items.length).toBeGreaterThanOrEqual(1);
    expect((await t.as(admin).get(`/api/admin/drop-templates/${tpl.id}`)).status).toBe(200);
    expect((await t.request(`/api/admin/drop-templates/${tpl.id}`, { method: 'DELETE', headers: { 'x-test-user': admin } })).status).toBe(204);
    expect((await t.as(admin).get(`/api/admin/drop-templates/${tpl.id}`)).status).toBe(404);
    const actions = (await t.deps.db.select({ a: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, tpl.id))).map((r) => r.a);
    expect(actions.sort()).toEqual(['drop.template.create', 'drop.template.delete', 'drop.template.update']);
    await booksReconcile(t);
  });
});

describe('lists and personal data', () => {
  it('current drops close soonest first; the export has the entries and wins', async () => {
    const cur = await body<{ items: PublicDrop[] }>(await t.request('/api/drops'));
    const closes = cur.items.map((i) => i.closesAt);
    expect([...closes].sort()).toEqual(closes);
    expect(cur.items.every((i) => ['scheduled', 'open', 'drawing'].includes(i.status))).toBe(true);
    const past = await body<{ items: PublicDrop[] }>(await t.request('/api/drops?when=past'));
    const drawn = past.items.map((i) => i.drawnAt!);
    expect([...drawn].sort().reverse()).toEqual(drawn);

    const c = await card();
    const d = await createDrop(t, admin, dropInput(c.id));
    const u = await t.makeUser();
    await t.as(u).post(`/api/drops/${d.id}/entries`);
    const [row] = await t.deps.db.select().from(user).where(eq(user.id, u));
    const data = (await exportPersonalData(t.deps.db, { id: u, email: row!.email, username: row!.username, name: row!.name })) as { drops: { entries: unknown[] } };
    expect(data.drops.entries).toHaveLength(1);
    // Deleting the account deletes entries in drops not yet drawn, and keeps drawn ones (their proofs).
    const drawnDrop = await createDrop(t, admin, dropInput(c.id));
    await t.as(u).post(`/api/drops/${drawnDrop.id}/entries`);
    await pastClose(t, drawnDrop.id);
    await runDropTransitions(t.deps);
    await t.deps.db.transaction((tx) => dropsPersonalData.erase(tx, { id: u, email: row!.email, username: row!.username, name: row!.name }));
    const left = await t.deps.db.select({ dropId: dropEntries.dropId }).from(dropEntries).where(eq(dropEntries.userId, u));
    expect(left).toEqual([{ dropId: drawnDrop.id }]);
  });
});
