import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { cards } from '../../db/schema/catalog.ts';
import { stockMovements } from '../../db/schema/inventory.ts';
import { as, catalogTestContext, uploadImage } from './test-support.ts';

let t: Awaited<ReturnType<typeof catalogTestContext>>;
let admin: ReturnType<typeof as>;
let imageKey: string;
let frameKey: string;

beforeAll(async () => {
  t = await catalogTestContext();
  // Catalog mechanics as the owner: an admin's value bounds are tested in separation-of-duties.test.ts.
  admin = as(t, 'owner');
  imageKey = await uploadImage(t, '#ff00aa');
  frameKey = await uploadImage(t, '#222233');
});
afterAll(() => t.close());

const auditCount = async (action: string, targetId?: string) =>
  (
    await t.deps.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, action), targetId ? eq(auditLog.targetId, targetId) : undefined))
  )[0]!.n;

async function makeClass(name: string, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/catalog/classes', { name, colour: '#A855F7', sortOrder: 1, ...extra });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).class as { id: string; name: string; colour: string };
}
async function makeTexture(name = 'Foil') {
  const res = await admin.post('/api/admin/catalog/textures', { name, imageKey, blendMode: 'color-dodge', opacity: 60 });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).texture as { id: string };
}
async function makeArchitect(name = 'Classic frame') {
  const res = await admin.post('/api/admin/catalog/architects', { name, frameImageKey: frameKey, layout: DEFAULT_LAYOUT });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).architect as { id: string };
}
let numberSeq = 1;
async function makeCard(classId: string, architectId: string, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/catalog/cards', {
    name: `Card ${numberSeq}`,
    setName: 'Alpha',
    number: numberSeq++,
    classId,
    architectId,
    imageKey,
    valueCents: 1000,
    stock: 3,
    ...extra,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).card as { id: string; stock: number; name: string };
}

describe('authorization', () => {
  const adminEndpoints: Array<[string, string]> = [
    ['GET', '/api/admin/catalog/classes'],
    ['POST', '/api/admin/catalog/classes'],
    ['GET', '/api/admin/catalog/classes/00000000-0000-4000-8000-000000000000'],
    ['PATCH', '/api/admin/catalog/classes/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/catalog/classes/00000000-0000-4000-8000-000000000000/archive'],
    ['POST', '/api/admin/catalog/classes/00000000-0000-4000-8000-000000000000/restore'],
    ['DELETE', '/api/admin/catalog/classes/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/catalog/textures'],
    ['POST', '/api/admin/catalog/textures'],
    ['GET', '/api/admin/catalog/textures/00000000-0000-4000-8000-000000000000'],
    ['PATCH', '/api/admin/catalog/textures/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/catalog/textures/00000000-0000-4000-8000-000000000000/archive'],
    ['DELETE', '/api/admin/catalog/textures/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/catalog/architects'],
    ['POST', '/api/admin/catalog/architects'],
    ['GET', '/api/admin/catalog/architects/00000000-0000-4000-8000-000000000000'],
    ['PATCH', '/api/admin/catalog/architects/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/catalog/architects/00000000-0000-4000-8000-000000000000/archive'],
    ['DELETE', '/api/admin/catalog/architects/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/catalog/options'],
    ['GET', '/api/admin/catalog/cards'],
    ['POST', '/api/admin/catalog/cards'],
    ['GET', '/api/admin/catalog/cards/export'],
    ['POST', '/api/admin/catalog/cards/import'],
    ['GET', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000'],
    ['PATCH', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000/archive'],
    ['POST', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000/restore'],
    ['DELETE', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000/stock'],
    ['GET', '/api/admin/catalog/cards/00000000-0000-4000-8000-000000000000/stock'],
  ];
  it.each(adminEndpoints)('%s %s: 401 anonymous, 403 user, 403 admin without 2FA', async (method, path) => {
    const init = method === 'GET' ? { method } : { method, json: {} };
    const anon = await as(t, null).raw(path, init);
    expect(anon.status).toBe(401);
    const user = await as(t, 'user').raw(path, init);
    expect(user.status).toBe(403);
    expect((await user.json()).error.code).toBe('admin_role_required');
    const nomfa = await as(t, 'admin-nomfa').raw(path, init);
    expect(nomfa.status).toBe(403);
    expect((await nomfa.json()).error.code).toBe('mfa_required');
  });
});

describe('classes', () => {
  it('validates input with field messages', async () => {
    const res = await admin.post('/api/admin/catalog/classes', { name: '', colour: 'purple', sortOrder: -1, buybackRateBp: 20000 });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.fields)).toEqual(expect.arrayContaining(['name', 'colour', 'sortOrder', 'buybackRateBp']));
  });

  it('creates (lower-cased colour), refuses duplicate names ignoring case, and audits', async () => {
    const c = await makeClass('Mythic', { buybackRateBp: 9000 });
    expect(c.colour).toBe('#a855f7');
    const dup = await admin.post('/api/admin/catalog/classes', { name: 'mythic', colour: '#000000', sortOrder: 2 });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error.fields.name).toBeTruthy();
    expect(await auditCount('catalog.class.create', c.id)).toBe(1);
  });

  it('rejects an unknown default texture', async () => {
    const res = await admin.post('/api/admin/catalog/classes', {
      name: 'Ghost',
      colour: '#ffffff',
      sortOrder: 3,
      defaultTextureId: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.defaultTextureId).toBeTruthy();
  });

  it('lists with search, archive filter, sort, pagination and total', async () => {
    await makeClass('Zeta list');
    await makeClass('Eta list');
    const res = await admin.get('/api/admin/catalog/classes?q=list&sort=name&pageSize=1&page=2');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(2);
    expect(body.items.map((x: { name: string }) => x.name)).toEqual(['Zeta list']);
    expect((await admin.get('/api/admin/catalog/classes?sort=bogus')).status).toBe(400);
  });

  it('edits and audits before/after', async () => {
    const c = await makeClass('Editable');
    const res = await admin.patch(`/api/admin/catalog/classes/${c.id}`, { colour: '#00FF00', buybackRateBp: null });
    expect(res.status).toBe(200);
    expect((await res.json()).class.colour).toBe('#00ff00');
    const [row] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'catalog.class.update'), eq(auditLog.targetId, c.id)));
    expect((row!.before as { colour: string }).colour).toBe('#a855f7');
    expect((row!.after as { colour: string }).colour).toBe('#00ff00');
    expect(row!.actorId).toBe('test-admin');
  });

  it('deletes an unused class, but a used one must be archived (and can be restored)', async () => {
    const unused = await makeClass('Unused');
    expect((await admin.del(`/api/admin/catalog/classes/${unused.id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/catalog/classes/${unused.id}`)).status).toBe(404);

    const used = await makeClass('Used');
    const arch = await makeArchitect();
    await makeCard(used.id, arch.id);
    const del = await admin.del(`/api/admin/catalog/classes/${used.id}`);
    expect(del.status).toBe(409);
    expect((await del.json()).error.code).toBe('in_use');
    const archived = await admin.post(`/api/admin/catalog/classes/${used.id}/archive`);
    expect(archived.status).toBe(200);
    expect((await archived.json()).class.archivedAt).toBeTruthy();
    // Archived classes are hidden from the default list and cannot be given to new cards.
    const list = await (await admin.get('/api/admin/catalog/classes?q=Used')).json();
    expect(list.total).toBe(0);
    const listArchived = await (await admin.get('/api/admin/catalog/classes?q=Used&archived=archived')).json();
    expect(listArchived.total).toBe(1);
    const res = await admin.post('/api/admin/catalog/cards', {
      name: 'X', setName: 'Alpha', number: 900, classId: used.id, architectId: arch.id, imageKey, valueCents: 1,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.classId[0]).toMatch(/archived/);
    expect((await admin.post(`/api/admin/catalog/classes/${used.id}/restore`)).status).toBe(200);
    expect(await auditCount('catalog.class.archive', used.id)).toBe(1);
    expect(await auditCount('catalog.class.restore', used.id)).toBe(1);
  });

  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    expect((await admin.get('/api/admin/catalog/classes/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin.get('/api/admin/catalog/classes/not-a-uuid')).status).toBe(404);
  });
});

describe('textures', () => {
  it('validates blend mode, opacity and image', async () => {
    const res = await admin.post('/api/admin/catalog/textures', { name: 'Bad', imageKey: 'nope', blendMode: 'darken-ish', opacity: 140 });
    expect(res.status).toBe(400);
    const { fields } = (await res.json()).error;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['imageKey', 'blendMode', 'opacity']));
    const missing = await admin.post('/api/admin/catalog/textures', { name: 'Missing', imageKey: 'a'.repeat(64), blendMode: 'overlay', opacity: 40 });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.fields.imageKey).toBeTruthy();
  });

  it('creates, edits, lists, and guards deletion when a class uses it as default', async () => {
    const tex = await makeTexture('Rainbow');
    expect((await admin.patch(`/api/admin/catalog/textures/${tex.id}`, { opacity: 35 })).status).toBe(200);
    const list = await (await admin.get('/api/admin/catalog/textures?q=rainbow&blendMode=color-dodge')).json();
    expect(list.total).toBe(1);
    expect(list.items[0].opacity).toBe(35);
    await makeClass('Shiny', { defaultTextureId: tex.id });
    const del = await admin.del(`/api/admin/catalog/textures/${tex.id}`);
    expect(del.status).toBe(409);
    expect((await admin.post(`/api/admin/catalog/textures/${tex.id}/archive`)).status).toBe(200);
    const lone = await makeTexture('Lonely');
    expect((await admin.del(`/api/admin/catalog/textures/${lone.id}`)).status).toBe(200);
    expect(await auditCount('catalog.texture.delete', lone.id)).toBe(1);
  });
});

describe('architects', () => {
  it('validates the layout (percentages that fit the card)', async () => {
    const res = await admin.post('/api/admin/catalog/architects', {
      name: 'Broken',
      frameImageKey: frameKey,
      layout: { ...DEFAULT_LAYOUT, art: { x: 50, y: 10, w: 80, h: 50 }, name: { ...DEFAULT_LAYOUT.name, size: 0 } },
    });
    expect(res.status).toBe(400);
    const { fields } = (await res.json()).error;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['layout.art', 'layout.name.size']));
  });

  it('creates, edits, archives when used, deletes when unused', async () => {
    const a = await makeArchitect('Gilded');
    const patched = await admin.patch(`/api/admin/catalog/architects/${a.id}`, { layout: { ...DEFAULT_LAYOUT, value: { ...DEFAULT_LAYOUT.value, align: 'left' } } });
    expect(patched.status).toBe(200);
    expect((await patched.json()).architect.layout.value.align).toBe('left');
    const cls = await makeClass('ArchTest');
    await makeCard(cls.id, a.id);
    expect((await admin.del(`/api/admin/catalog/architects/${a.id}`)).status).toBe(409);
    expect((await admin.post(`/api/admin/catalog/architects/${a.id}/archive`)).status).toBe(200);
    const b = await makeArchitect('Temp');
    expect((await admin.del(`/api/admin/catalog/architects/${b.id}`)).status).toBe(200);
    const list = await (await admin.get('/api/admin/catalog/architects?archived=all&q=gilded')).json();
    expect(list.items[0].cardCount).toBe(1);
  });
});

describe('cards', () => {
  let classId: string;
  let architectId: string;
  beforeAll(async () => {
    classId = (await makeClass('Card tests')).id;
    architectId = (await makeArchitect('Card frame')).id;
  });

  it('validates fields and references', async () => {
    const res = await admin.post('/api/admin/catalog/cards', {
      name: '', setName: '', number: 0, classId: 'x', architectId, imageKey: 'zz', valueCents: 12.5, stock: -1,
    });
    expect(res.status).toBe(400);
    const { fields } = (await res.json()).error;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['name', 'setName', 'number', 'classId', 'imageKey', 'valueCents', 'stock']));
  });

  it('refuses a duplicate set + number with 409', async () => {
    await makeCard(classId, architectId, { setName: 'Dup', number: 1 });
    const res = await admin.post('/api/admin/catalog/cards', {
      name: 'Dup 2', setName: 'Dup', number: 1, classId, architectId, imageKey, valueCents: 5,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.fields.number).toBeTruthy();
  });

  it('records initial stock, adjusts stock with a reason, never below zero', async () => {
    const card = await makeCard(classId, architectId, { stock: 5 });
    const noReason = await admin.post(`/api/admin/catalog/cards/${card.id}/stock`, { delta: 2 });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).error.fields.reason).toBeTruthy();
    const zero = await admin.post(`/api/admin/catalog/cards/${card.id}/stock`, { delta: 0, reason: 'nothing' });
    expect(zero.status).toBe(400);
    const up = await admin.post(`/api/admin/catalog/cards/${card.id}/stock`, { delta: 3, reason: 'Restocked from supplier' });
    expect(up.status).toBe(200);
    expect((await up.json()).card.stock).toBe(8);
    const tooMuch = await admin.post(`/api/admin/catalog/cards/${card.id}/stock`, { delta: -9, reason: 'Damaged copies' });
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).error.code).toBe('insufficient_stock');
    const [{ stock }] = (await t.deps.db.select({ stock: cards.stock }).from(cards).where(eq(cards.id, card.id))) as [{ stock: number }];
    expect(stock).toBe(8);
    const hist = await (await admin.get(`/api/admin/catalog/cards/${card.id}/stock`)).json();
    expect(hist.items.map((a: { delta: number; reason: string }) => [a.delta, a.reason])).toEqual([
      [3, 'Restocked from supplier'],
      [5, 'Initial stock'],
    ]);
    expect(await auditCount('catalog.card.stock', card.id)).toBe(1);
  });

  it('the database itself refuses negative stock (CHECK constraint)', async () => {
    const card = await makeCard(classId, architectId, { stock: 1 });
    await expect(t.deps.db.update(cards).set({ stock: -1 }).where(eq(cards.id, card.id))).rejects.toThrow();
  });

  it('edits, shows details with look refs, archives (off sale) and deletes only without stock', async () => {
    const card = await makeCard(classId, architectId, { stock: 2, name: 'Edit me' });
    const patched = await admin.patch(`/api/admin/catalog/cards/${card.id}`, { valueCents: 4999, description: 'Shiny.' });
    expect(patched.status).toBe(200);
    const detail = await (await admin.get(`/api/admin/catalog/cards/${card.id}`)).json();
    expect(detail.card.valueCents).toBe(4999);
    expect(detail.refs.classes[0].id).toBe(classId);
    expect(detail.refs.architects[0].id).toBe(architectId);
    expect(detail.adjustments.total).toBe(1);
    // Stock is not editable through PATCH.
    const stockPatch = await admin.patch(`/api/admin/catalog/cards/${card.id}`, { stock: 100 });
    expect(stockPatch.status).toBe(200);
    expect((await stockPatch.json()).card.stock).toBe(2);

    expect((await admin.del(`/api/admin/catalog/cards/${card.id}`)).status).toBe(409);
    const archived = await (await admin.post(`/api/admin/catalog/cards/${card.id}/archive`)).json();
    expect(archived.card.active).toBe(false);
    expect((await admin.patch(`/api/admin/catalog/cards/${card.id}`, { active: true })).status).toBe(400);
    expect((await t.request(`/api/cards/${card.id}`)).status).toBe(404);

    const empty = await makeCard(classId, architectId, { stock: 0 });
    expect((await admin.del(`/api/admin/catalog/cards/${empty.id}`)).status).toBe(200);
    expect(await auditCount('catalog.card.delete', empty.id)).toBe(1);
  });

  it('lists with filters, sorting, pagination and counts', async () => {
    const cls = await makeClass('Filter class');
    await makeCard(cls.id, architectId, { setName: 'Filterset', valueCents: 300, stock: 0, name: 'Fa' });
    await makeCard(cls.id, architectId, { setName: 'Filterset', valueCents: 100, stock: 9, name: 'Fb' });
    await makeCard(cls.id, architectId, { setName: 'Filterset', valueCents: 200, stock: 4, name: 'Fc', active: false });
    const q = (s: string) => admin.get(`/api/admin/catalog/cards?classId=${cls.id}&${s}`).then((r) => r.json());
    expect((await q('sort=value_asc')).items.map((c: { name: string }) => c.name)).toEqual(['Fb', 'Fc', 'Fa']);
    expect((await q('stock=out')).total).toBe(1);
    expect((await q('stock=low')).total).toBe(1);
    expect((await q('active=false')).total).toBe(1);
    expect((await q('set=Filterset&q=f&pageSize=2&page=2&sort=name')).items.map((c: { name: string }) => c.name)).toEqual(['Fc']);
    const page = await q('pageSize=2');
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(2);
    expect(page.refs.classes).toHaveLength(1);
  });

  it('uses the class default texture when the card has none', async () => {
    const tex = await makeTexture('Default sheen');
    const cls = await makeClass('Textured', { defaultTextureId: tex.id });
    const own = await makeTexture('Own sheen');
    const a = await makeCard(cls.id, architectId, { name: 'Inherits' });
    const b = await makeCard(cls.id, architectId, { name: 'Own', textureId: own.id });
    const pa = await (await t.request(`/api/cards/${a.id}`)).json();
    const pb = await (await t.request(`/api/cards/${b.id}`)).json();
    expect(pa.card.textureId).toBe(tex.id);
    expect(pa.refs.textures[0].blendMode).toBe('color-dodge');
    expect(pb.card.textureId).toBe(own.id);
  });
});

describe('CSV import and export', () => {
  let architectName: string;
  beforeAll(async () => {
    await makeClass('Csv common');
    await makeClass('Csv rare');
    architectName = 'Csv frame';
    await makeArchitect(architectName);
    await makeTexture('Csv foil');
  });
  const header = 'name,set,number,class,architect,texture,image,value,description,active,stock';
  const countCsvCards = async () => (await t.deps.db.select({ n: count() }).from(cards).where(eq(cards.setName, 'Csvset')))[0]!.n;

  it('reports every bad row and imports nothing', async () => {
    const csv = [
      header,
      `Good one,Csvset,1,Csv common,${'Csv frame'},,${imageKey},1.25,"Has, a comma",true,10`,
      `,Csvset,2,Csv nope,Csv frame,,${imageKey},abc,,maybe,-3`,
      `Dup,Csvset,1,Csv rare,Csv frame,Csv foil,${imageKey},2,,,`,
      `Missing image,Csvset,4,Csv rare,Csv frame,,${'b'.repeat(64)},2,,,`,
      `Short row,Csvset,5`,
    ].join('\n');
    const res = await admin.post('/api/admin/catalog/cards/import', { csv });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.ok).toBe(false);
    const byRow = (row: number) => body.errors.filter((e: { row: number }) => e.row === row).map((e: { field?: string }) => e.field);
    expect(byRow(2)).toEqual([]);
    expect(byRow(3)).toEqual(expect.arrayContaining(['name', 'class', 'value', 'active', 'stock']));
    expect(byRow(4)).toEqual(['number']);
    expect(byRow(5)).toEqual(['image']);
    expect(byRow(6)).toHaveLength(1);
    expect(await countCsvCards()).toBe(0);
  });

  it('rejects unknown or missing columns', async () => {
    const res = await admin.post('/api/admin/catalog/cards/import', { csv: 'name,colour\nx,y' });
    expect(res.status).toBe(422);
    const { errors } = await res.json();
    expect(errors[0].row).toBe(1);
    expect(errors.map((e: { message: string }) => e.message).join(' ')).toMatch(/Unknown column.*colour/);
    expect(errors.map((e: { message: string }) => e.message).join(' ')).toMatch(/Missing columns/);
    expect((await admin.post('/api/admin/catalog/cards/import', { csv: '' })).status).toBe(400);
    expect((await admin.post('/api/admin/catalog/cards/import', { csv: `${header}\n"unterminated,x` })).status).toBe(422);
  });

  it('dry run counts without writing, then imports and updates (matched on set + number)', async () => {
    const csv = [
      header,
      `Csv one,Csvset,1,Csv common,Csv frame,,${imageKey},0.25,"Quote ""inside""",true,10`,
      `Csv two,Csvset,2,csv rare,csv frame,csv foil,${imageKey},500.00,,false,`,
    ].join('\r\n');
    const dry = await (await admin.post('/api/admin/catalog/cards/import', { csv, dryRun: true })).json();
    expect(dry).toMatchObject({ ok: true, dryRun: true, created: 2, updated: 0 });
    expect(await countCsvCards()).toBe(0);

    const res = await admin.post('/api/admin/catalog/cards/import', { csv });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, created: 2, updated: 0 });
    expect(await countCsvCards()).toBe(2);
    expect(await auditCount('catalog.card.import')).toBe(1);

    const again = csv.replace('Csv one,Csvset,1,Csv common,Csv frame,,' + imageKey + ',0.25', 'Csv uno,Csvset,1,Csv common,Csv frame,,' + imageKey + ',0.30').replace(',true,10', ',true,4');
    const upd = await (await admin.post('/api/admin/catalog/cards/import', { csv: again })).json();
    expect(upd).toMatchObject({ ok: true, created: 0, updated: 2 });
    const [one] = await t.deps.db.select().from(cards).where(and(eq(cards.setName, 'Csvset'), eq(cards.number, 1)));
    expect(one).toMatchObject({ name: 'Csv uno', valueCents: 30, stock: 4, description: 'Quote "inside"' });
    const adj = await t.deps.db.select().from(stockMovements).where(eq(stockMovements.cardId, one!.id));
    expect(adj.map((a) => a.delta).sort()).toEqual([-6, 10]);

    // Export in the same format round-trips.
    const exp = await admin.get('/api/admin/catalog/cards/export?set=Csvset');
    expect(exp.status).toBe(200);
    expect(exp.headers.get('content-type')).toContain('text/csv');
    expect(exp.headers.get('content-disposition')).toContain('attachment');
    const text = await exp.text();
    expect(text.split('\r\n')[0]).toBe(header);
    expect(text).toContain('Csv uno,Csvset,1,Csv common,Csv frame,,');
    expect(text).toContain(',0.30,"Quote ""inside""",true,4');
    const round = await (await admin.post('/api/admin/catalog/cards/import', { csv: text })).json();
    expect(round).toMatchObject({ ok: true, created: 0, updated: 2 });
  });
});

describe('public API', () => {
  let cls: { id: string };
  let cheap: { id: string };
  beforeAll(async () => {
    cls = await makeClass('Public class');
    const arch = await makeArchitect('Public frame');
    cheap = await makeCard(cls.id, arch.id, { setName: 'Pubset', name: 'Alpha pub', valueCents: 25 });
    await makeCard(cls.id, arch.id, { setName: 'Pubset', name: 'Beta pub', valueCents: 50000 });
    await makeCard(cls.id, arch.id, { setName: 'Pubset', name: 'Gamma pub', valueCents: 900, active: false });
    await makeCard(cls.id, arch.id, { setName: 'Pubset', name: '100% pure_pub', valueCents: 901 });
  });

  it('lists active cards only, with search, filters, sorts and totals; anonymous is fine', async () => {
    const res = await t.request(`/api/cards?set=Pubset&sort=value_desc`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(3);
    expect(body.pageSize).toBe(48);
    expect(body.items.map((c: { name: string }) => c.name)).toEqual(['Beta pub', '100% pure_pub', 'Alpha pub']);
    expect(body.items[0]).not.toHaveProperty('stock');
    expect(body.items[0]).not.toHaveProperty('description');
    expect(body.refs.classes[0]).toMatchObject({ id: cls.id, name: 'Public class' });
    expect(body.refs.architects[0].layout).toBeTruthy();

    const names = async (qs: string) => (await (await t.request(`/api/cards?${qs}`)).json()).items.map((c: { name: string }) => c.name);
    expect(await names('set=Pubset&sort=value_asc')).toEqual(['Alpha pub', '100% pure_pub', 'Beta pub']);
    expect(await names('set=Pubset&sort=name')).toEqual(['100% pure_pub', 'Alpha pub', 'Beta pub']);
    expect(await names('q=BETA')).toEqual(['Beta pub']);
    // LIKE wildcards in the search are literal.
    expect(await names('q=%25')).toEqual(['100% pure_pub']);
    expect(await names('q=_pub')).toEqual(['100% pure_pub']);
    expect(await names(`classId=${cls.id}&pageSize=1&page=3&sort=value_asc`)).toEqual(['Beta pub']);
  });

  it('validates the query', async () => {
    expect((await t.request('/api/cards?sort=price')).status).toBe(400);
    expect((await t.request('/api/cards?pageSize=1000')).status).toBe(400);
    expect((await t.request('/api/cards?classId=nope')).status).toBe(400);
  });

  it('shows one active card with description; 404 for inactive or unknown', async () => {
    const res = await t.request(`/api/cards/${cheap.id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.card).toMatchObject({ name: 'Alpha pub', valueCents: 25, inStock: true, description: '' });
    expect((await t.request('/api/cards/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('lists classes (not archived) in order and sets with active cards', async () => {
    const classes = (await (await t.request('/api/catalog/classes')).json()).classes;
    expect(classes.some((c: { id: string }) => c.id === cls.id)).toBe(true);
    const sets = (await (await t.request('/api/catalog/sets')).json()).sets;
    expect(sets).toContainEqual({ name: 'Pubset', cardCount: 3 });
  });
});

describe('public counts on a big catalog', () => {
  it('reuses the total for a few seconds, and drops it on any card change through the API', async () => {
    const cls = await makeClass('Bulk class');
    const arch = await makeArchitect('Bulk frame');
    const bulk = async (from: number, to: number) =>
      t.deps.dbh.query(sql`insert into cards (name, set_name, number, class_id, architect_id, image_key, value_cents, stock)
        select 'Bulk ' || g, 'Bulkset', g, ${cls.id}::uuid, ${arch.id}::uuid, ${imageKey}, 100, 1 from generate_series(${from}::int, ${to}::int) g`);
    await bulk(1, 6000);
    const total = async () => (await (await t.request('/api/cards?set=Bulkset&pageSize=1')).json()).total as number;
    expect(await total()).toBe(6000);
    await bulk(6001, 6001); // behind the API's back: the cached total stands
    expect(await total()).toBe(6000);
    // Search is always counted exactly.
    expect((await (await t.request('/api/cards?set=Bulkset&q=Bulk&pageSize=1')).json()).total).toBe(6001);
    await makeCard(cls.id, arch.id, { setName: 'Bulkset', number: 7000 });
    expect(await total()).toBe(6002);
  });
});
