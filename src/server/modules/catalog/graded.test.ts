import { and, asc, count, eq, getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import { gradesOf, gradingFieldErrors } from '../../../shared/contracts/grading.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { cardValueHistory, cards } from '../../db/schema/catalog.ts';
import { personalDataSections } from '../personal-data.ts';
import { createCopy } from '../inventory/service.ts';
import { as, catalogTestContext, uploadImage } from './test-support.ts';

/** Issue 19 item 4: grading (company, grade, certificate), photos, value history, the graded filters. */

let t: Awaited<ReturnType<typeof catalogTestContext>>;
let admin: ReturnType<typeof as>;
let imageKey: string;
let photoKey: string;
let classId: string;
let architectId: string;
let seq = 1;

beforeAll(async () => {
  t = await catalogTestContext();
  // Catalog mechanics as the owner: an admin's value bounds are tested in separation-of-duties.test.ts.
  admin = as(t, 'owner');
  imageKey = await uploadImage(t, '#ff00aa');
  photoKey = await uploadImage(t, '#334455');
  const cls = await admin.post('/api/admin/catalog/classes', { name: 'Graded rare', colour: '#a855f7', sortOrder: 1 });
  classId = (await cls.json()).class.id;
  const arch = await admin.post('/api/admin/catalog/architects', { name: 'Slab frame', frameImageKey: imageKey, layout: DEFAULT_LAYOUT });
  architectId = (await arch.json()).architect.id;
});
afterAll(() => t.close());

const cardBody = (extra: Record<string, unknown> = {}) => ({
  name: `Graded ${seq}`,
  setName: 'Slabs',
  number: seq++,
  classId,
  architectId,
  imageKey,
  valueCents: 1000,
  // A graded card's stock is its slabs (issue 38): the certificate given with it is one.
  stock: extra.gradingCompany ? 1 : 2,
  ...extra,
});
async function create(extra: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/catalog/cards', cardBody(extra));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).card as { id: string; valueCents: number; gradingCompany: string | null; grade: number | null };
}
const history = async (cardId: string) =>
  t.deps.db
    .select({ valueCents: cardValueHistory.valueCents, source: cardValueHistory.source })
    .from(cardValueHistory)
    .where(eq(cardValueHistory.cardId, cardId))
    .orderBy(asc(cardValueHistory.recordedAt));

describe('grades per company', () => {
  it('knows the grades each company issues', () => {
    expect(gradesOf('PSA')).toContain(8.5);
    expect(gradesOf('PSA')).not.toContain(9.5);
    expect(gradesOf('PSA')).toContain(10);
    expect(gradesOf('BGS')).toContain(9.5);
    expect(gradesOf('CGC')).toContain(1.5);
    expect(gradingFieldErrors({ gradingCompany: 'CGC', grade: 9.5, certNumber: '4123456001' })).toEqual({});
  });

  it.each([
    [{ gradingCompany: 'PSA', grade: 9.5, certNumber: '12345678' }, 'grade', /not a PSA grade.*halves from 1.5 to 8.5/],
    [{ gradingCompany: 'BGS', grade: 9.3, certNumber: '1234567' }, 'grade', /not a BGS grade.*steps of 0.5/],
    [{ gradingCompany: 'CGC', grade: 7.25, certNumber: '4123456001' }, 'grade', /not a CGC grade/],
    [{ gradingCompany: 'PSA', grade: 11, certNumber: '12345678' }, 'grade', /1 to 10/],
    [{ gradingCompany: 'PSA', grade: null, certNumber: '12345678' }, 'grade', /Enter the PSA grade/],
    [{ gradingCompany: null, grade: 9, certNumber: null }, 'grade', /grading company first/],
    [{ gradingCompany: 'PSA', grade: 10, certNumber: '12AB' }, 'certNumber', /PSA certificate number is 8 to 10 digits/],
    [{ gradingCompany: 'CGC', grade: 10, certNumber: '12345678' }, 'certNumber', /CGC certificate number is 10 digits/],
    [{ gradingCompany: 'ABC', grade: 10, certNumber: '12345678' }, 'gradingCompany', /PSA, BGS, CGC or SGC/],
  ])('400 with a field message: %o', async (grading, field, message) => {
    const res = await admin.post('/api/admin/catalog/cards', cardBody(grading));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields[field].join(' ')).toMatch(message);
  });

  it('accepts a real grade, and the photos, and audits them', async () => {
    const card = await create({ gradingCompany: 'PSA', grade: 8.5, certNumber: '80000001', frontPhotoKey: photoKey, backPhotoKey: photoKey });
    expect(card).toMatchObject({ gradingCompany: 'PSA', grade: 8.5, stock: 1 });
    // The certificate is the card's first slab's (issue 38), with the card's photos.
    const slabs = (await (await admin.get(`/api/admin/catalog/cards/${card.id}/slabs`)).json()).items;
    expect(slabs).toMatchObject([{ grader: 'PSA', grade: 8.5, certNumber: '80000001', state: 'in_stock', frontPhotoKey: photoKey }]);
    const res = await admin.patch(`/api/admin/catalog/cards/${card.id}`, { gradingCompany: 'BGS', grade: 9.5 });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).card).toMatchObject({ gradingCompany: 'BGS', grade: 9.5, frontPhotoKey: photoKey });
    const [audit] = await t.deps.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'catalog.card.update'), eq(auditLog.targetId, card.id)));
    expect(audit?.before).toMatchObject({ gradingCompany: 'PSA', grade: 8.5 });
    expect(audit?.after).toMatchObject({ gradingCompany: 'BGS', grade: 9.5 });
    // A patch that does not name the grading leaves it; clearing the company clears it all.
    const keep = await admin.patch(`/api/admin/catalog/cards/${card.id}`, { name: 'Renamed slab' });
    expect((await keep.json()).card.gradingCompany).toBe('BGS');
    // A card with slabs stays graded; a graded card without any can be made raw again.
    const refused = await admin.patch(`/api/admin/catalog/cards/${card.id}`, { gradingCompany: null });
    expect(refused.status).toBe(409);
    const bare = await create({ gradingCompany: 'PSA', grade: 9, stock: 0 });
    const cleared = await admin.patch(`/api/admin/catalog/cards/${bare.id}`, { gradingCompany: null });
    expect((await cleared.json()).card).toMatchObject({ gradingCompany: null, grade: null });
  });

  it('refuses a photo that was never uploaded', async () => {
    const res = await admin.post('/api/admin/catalog/cards', cardBody({ frontPhotoKey: 'c'.repeat(64) }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.frontPhotoKey[0]).toMatch(/photo was not found/);
  });

  it('a certificate number is unique per company: 409', async () => {
    await create({ gradingCompany: 'PSA', grade: 10, certNumber: '55555555' });
    const res = await admin.post('/api/admin/catalog/cards', cardBody({ gradingCompany: 'PSA', grade: 9, certNumber: '55555555' }));
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.code).toBe('cert_taken');
    expect(body.error.fields.certNumber[0]).toMatch(/certificate number/);
    // The same digits from another company are another slab.
    await create({ gradingCompany: 'BGS', grade: 10, certNumber: '55555555' });
  });
});

describe('value history', () => {
  it('records creation and every admin value change, nothing else', async () => {
    const card = await create({ valueCents: 1500 });
    expect(await history(card.id)).toEqual([{ valueCents: 1500, source: 'created' }]);
    await admin.patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 1800 });
    await admin.patch(`/api/admin/catalog/cards/${card.id}`, { name: 'Only a new name' });
    await admin.patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 1800, description: 'same value' });
    await admin.post(`/api/admin/catalog/cards/${card.id}/stock`, { delta: 3, reason: 'New shipment' });
    await admin.post(`/api/admin/catalog/cards/${card.id}/archive`);
    await admin.post(`/api/admin/catalog/cards/${card.id}/restore`);
    // Copies leaving stock (a grant, as a pack opening takes them) never change the value.
    await t.deps.db.transaction((tx) => createCopy(tx, 'grant', { cardId: card.id, ownerId: 'test-user', actorId: 'test-admin' }));
    expect(await history(card.id)).toEqual([
      { valueCents: 1500, source: 'created' },
      { valueCents: 1800, source: 'admin_edit' },
    ]);
  });

  it('records CSV imports that create a card or change its value', async () => {
    const header = 'name,set,number,class,architect,texture,image,value,description,active,stock';
    const row = (value: string, name = 'Csv slab') => `${name},Csvslabs,1,Graded rare,Slab frame,,${imageKey},${value},,true,1`;
    expect((await admin.post('/api/admin/catalog/cards/import', { csv: [header, row('3.00')].join('\n') })).status).toBe(200);
    const list = await (await admin.get('/api/admin/catalog/cards?set=Csvslabs')).json();
    const id = list.items[0].id as string;
    await admin.post('/api/admin/catalog/cards/import', { csv: [header, row('3.00', 'Renamed by CSV')].join('\n') });
    await admin.post('/api/admin/catalog/cards/import', { csv: [header, row('4.25')].join('\n') });
    await admin.post('/api/admin/catalog/cards/import', { csv: [header, row('9.99')].join('\n') + '\n', });
    const dry = await admin.post('/api/admin/catalog/cards/import', { csv: [header, row('1.00')].join('\n'), dryRun: true });
    expect(dry.status).toBe(200);
    expect(await history(id)).toEqual([
      { valueCents: 300, source: 'csv_import' },
      { valueCents: 425, source: 'csv_import' },
      { valueCents: 999, source: 'csv_import' },
    ]);
  });

  it('GET /api/cards/{id}/value-history: points oldest first, cached; 404 unknown or malformed', async () => {
    const card = await create({ valueCents: 700 });
    await admin.patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 900 });
    const res = await t.request(`/api/cards/${card.id}/value-history`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=60/);
    const body = await res.json();
    expect(body.cardId).toBe(card.id);
    expect(body.points.map((p: { valueCents: number }) => p.valueCents)).toEqual([700, 900]);
    expect((await t.request('/api/cards/00000000-0000-4000-8000-000000000000/value-history')).status).toBe(404);
    expect((await t.request('/api/cards/not-a-card/value-history')).status).toBe(404);
    // An inactive card is not in the public catalog.
    await admin.patch(`/api/admin/catalog/cards/${card.id}`, { active: false });
    expect((await t.request(`/api/cards/${card.id}/value-history`)).status).toBe(404);
  });

  it('deleting a card deletes its history with it', async () => {
    const card = await create({ stock: 0 });
    expect((await admin.del(`/api/admin/catalog/cards/${card.id}`)).status).toBe(200);
    const [{ n } = { n: -1 }] = await t.deps.db.select({ n: count() }).from(cardValueHistory).where(eq(cardValueHistory.cardId, card.id));
    expect(n).toBe(0);
  });
});

describe('the graded filter', () => {
  it('/api/cards?graded=true lists graded cards only, with their slab; detail has the photos', async () => {
    const slab = await create({ gradingCompany: 'CGC', grade: 9.5, certNumber: '4000000009', frontPhotoKey: photoKey, backPhotoKey: photoKey });
    const raw = await create();
    const graded = await (await t.request('/api/cards?graded=true&pageSize=96')).json();
    const ids = graded.items.map((c: { id: string }) => c.id);
    expect(ids).toContain(slab.id);
    expect(ids).not.toContain(raw.id);
    expect(graded.items.every((c: { grading: unknown }) => c.grading !== null)).toBe(true);
    // The catalog lists the grade; each slab has its own certificate (issue 38).
    expect(graded.items.find((c: { id: string }) => c.id === slab.id).grading).toEqual({ company: 'CGC', grade: 9.5, certNumber: null });
    const rawList = await (await t.request('/api/cards?graded=false&pageSize=96')).json();
    expect(rawList.items.map((c: { id: string }) => c.id)).toContain(raw.id);
    expect(rawList.items.every((c: { grading: unknown }) => c.grading === null)).toBe(true);
    const detail = await (await t.request(`/api/cards/${slab.id}`)).json();
    expect(detail.card).toMatchObject({ grading: { company: 'CGC' }, frontPhotoKey: photoKey, backPhotoKey: photoKey });
  });

  it('400 on a bad graded value, public list and vault alike', async () => {
    const res = await t.request('/api/cards?graded=yes');
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.graded[0]).toMatch(/true or false/);
    const vault = await as(t, 'user').get('/api/collection?graded=maybe');
    expect(vault.status).toBe(400);
  });

  it('the vault filters graded copies and shows their slab and photos', async () => {
    const slab = await create({ gradingCompany: 'PSA', grade: 7, certNumber: '70000007', frontPhotoKey: photoKey });
    const raw = await create();
    const copies: string[] = [];
    for (const cardId of [slab.id, raw.id]) {
      const c = await t.deps.db.transaction((tx) => createCopy(tx, 'grant', { cardId, ownerId: 'test-user', actorId: 'test-admin' }));
      copies.push(c!.ownedCardId);
    }
    const user = as(t, 'user');
    const graded = await (await user.get('/api/collection?graded=true')).json();
    expect(graded.items.map((i: { id: string }) => i.id)).toEqual([copies[0]]);
    expect(graded.items[0].card.grading).toEqual({ company: 'PSA', grade: 7, certNumber: '70000007' });
    const ungraded = await (await user.get('/api/collection?graded=false')).json();
    expect(ungraded.items.map((i: { id: string }) => i.id)).toContain(copies[1]);
    expect(ungraded.items.map((i: { id: string }) => i.id)).not.toContain(copies[0]);
    const detail = await (await user.get(`/api/collection/${copies[0]}`)).json();
    expect(detail.ownedCard).toMatchObject({ frontPhotoKey: photoKey, backPhotoKey: null, card: { grading: { company: 'PSA' } } });
  });
});

describe('personal data', () => {
  it('grading, photos and the value history name nobody, so no export or erasure changes', () => {
    const personal = /user|owner|actor|email|ip|name_of/i;
    expect(Object.values(getTableColumns(cardValueHistory)).map((c) => c.name).filter((n) => personal.test(n))).toEqual([]);
    const added = ['grading_company', 'grade', 'front_photo_key', 'back_photo_key'];
    expect(Object.values(getTableColumns(cards)).map((c) => c.name)).toEqual(expect.arrayContaining(added));
    const personalTables = personalDataSections.flatMap((sec) => sec.tables.map((x) => x.table));
    expect(personalTables).not.toContain(cardValueHistory);
    expect(personalTables).not.toContain(cards);
  });
});
