import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOwnedList } from '../../../shared/contracts/collection.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { stockMovements } from '../../db/schema/inventory.ts';
import { giveCards, makeCard, makeClass, statusesOf, stockOf } from '../buyback/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
});
afterAll(() => t.close());

type Result = { ownedCard: { id: string; ownerId: string; status: string; acquiredVia: string }; stock: number };

describe('admin owned cards', () => {
  it('grants a card from stock to a user (by username or email), audited with the reason', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 700, stock: 1 });
    const res = await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: `${u}@EXAMPLE.test`, reason: 'Prize for the stream' });
    expect(res.status).toBe(201);
    const r = (await res.json()) as Result;
    expect(r.stock).toBe(0);
    expect(r.ownedCard).toMatchObject({ ownerId: u, status: 'in_vault', acquiredVia: 'grant' });
    expect(await stockOf(t, card.id)).toBe(0);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'owned.grant'), eq(auditLog.targetId, r.ownedCard.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after).toMatchObject({ reason: 'Prize for the stream', ownerId: u });
    const adj = await t.deps.db.select().from(stockMovements).where(eq(stockMovements.cardId, card.id));
    expect(adj.filter((a) => a.reason === 'grant').map((a) => [a.delta, a.note?.endsWith(': Prize for the stream')])).toEqual([[-1, true]]);

    // The user sees it in the vault.
    const vault = (await (await t.as(u).get('/api/collection')).json()) as { items: Array<{ id: string }> };
    expect(vault.items.map((i) => i.id)).toEqual([r.ownedCard.id]);

    const out = await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: u, reason: 'Another one' });
    expect(out.status).toBe(409);
    expect(((await out.json()) as { error: { code: string } }).error.code).toBe('out_of_stock');
    expect(await stockOf(t, card.id)).toBe(0);
  });

  it('refuses bad grants with clear answers', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 700, stock: 5 });
    const noReason = await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: u, reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(((await noReason.json()) as { error: { fields: Record<string, string[]> } }).error.fields.reason).toBeTruthy();
    expect((await t.as(admin).post('/api/admin/owned/grant', { cardId: card.id, user: 'nobody-here', reason: 'test grant' })).status).toBe(404);
    expect((await t.as(admin).post('/api/admin/owned/grant', { cardId: randomUUID(), user: u, reason: 'test grant' })).status).toBe(404);
    expect(await stockOf(t, card.id)).toBe(5);
  });

  it('revokes a vault card back to stock once, audited; not a card that left the vault', async () => {
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 700, stock: 3 });
    const [a, b] = await giveCards(t, u, card.id, 2);
    expect(await stockOf(t, card.id)).toBe(1);
    expect((await t.as(admin).post(`/api/admin/owned/${a}/revoke`, {})).status).toBe(400);
    const res = await t.as(admin).post(`/api/admin/owned/${a}/revoke`, { reason: 'Granted by mistake' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Result).ownedCard.status).toBe('revoked');
    expect(await stockOf(t, card.id)).toBe(2);
    const twice = await t.as(admin).post(`/api/admin/owned/${a}/revoke`, { reason: 'Granted by mistake' });
    expect(twice.status).toBe(409);
    expect(await stockOf(t, card.id)).toBe(2);
    // A revoked card cannot be sold back.
    expect((await t.as(u).post('/api/buyback', { ownedCardIds: [a] }, { 'Idempotency-Key': randomUUID() })).status).toBe(409);
    // A sold card cannot be revoked.
    expect((await t.as(u).post('/api/buyback', { ownedCardIds: [b] }, { 'Idempotency-Key': randomUUID() })).status).toBe(201);
    expect((await t.as(admin).post(`/api/admin/owned/${b}/revoke`, { reason: 'Too late' })).status).toBe(409);
    expect(await statusesOf(t, [a!, b!])).toEqual({ [a!]: 'revoked', [b!]: 'sold_back' });
    expect((await t.as(admin).post(`/api/admin/owned/${randomUUID()}/revoke`, { reason: 'Nothing' })).status).toBe(404);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'owned.revoke'), eq(auditLog.targetId, a!)));
    expect(audits[0]!.after).toMatchObject({ reason: 'Granted by mistake', status: 'revoked' });
  });

  it('lists every owned card with filters', async () => {
    const u1 = await t.makeUser();
    const u2 = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 700, stock: 10, name: `Zebra ${randomUUID().slice(0, 6)}` });
    const [x] = await giveCards(t, u1, card.id);
    const [y] = await giveCards(t, u2, card.id);
    await t.as(u2).post('/api/buyback', { ownedCardIds: [y] }, { 'Idempotency-Key': randomUUID() });
    const get = async (qs: string) => {
      const res = await t.as(admin).get(`/api/admin/owned${qs}`);
      expect(res.status).toBe(200);
      return (await res.json()) as AdminOwnedList;
    };
    expect((await get(`?cardId=${card.id}`)).items.map((i) => i.id).sort()).toEqual([x, y].sort());
    expect((await get(`?cardId=${card.id}&status=in_vault`)).items.map((i) => i.id)).toEqual([x]);
    expect((await get(`?classId=${cls.id}&ownerId=${u2}`)).items.map((i) => i.id)).toEqual([y]);
    expect((await get(`?card=${encodeURIComponent(card.name.toLowerCase())}&owner=${u1}`)).items).toMatchObject([{ id: x, ownerId: u1, ownerEmail: `${u1}@example.test` }]);
    expect((await t.as(admin).get('/api/admin/owned?status=misplaced')).status).toBe(400);
  });

  it('is for admins with a second factor only', async () => {
    const user = await t.makeUser();
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    expect((await t.as(null).get('/api/admin/owned')).status).toBe(401);
    expect((await t.as(user).get('/api/admin/owned')).status).toBe(403);
    expect((await t.as(noMfa).get('/api/admin/owned')).status).toBe(403);
    expect((await t.as(user).post('/api/admin/owned/grant', { cardId: randomUUID(), user, reason: 'self gift' })).status).toBe(403);
    expect((await t.as(user).post(`/api/admin/owned/${randomUUID()}/revoke`, { reason: 'nope nope' })).status).toBe(403);
  });
});
