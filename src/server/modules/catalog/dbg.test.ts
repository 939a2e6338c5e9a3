import { it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import { as, catalogTestContext, uploadImage } from './test-support.ts';
it('dbg', async () => {
  const t = await catalogTestContext();
  const admin = as(t, 'admin');
  const k = await uploadImage(t);
  const a = (await (await admin.post('/api/admin/catalog/architects', { name: 'Gilded', frameImageKey: k, layout: DEFAULT_LAYOUT })).json()).architect;
  const c = (await (await admin.post('/api/admin/catalog/classes', { name: 'C', colour: '#ffffff', sortOrder: 1 })).json()).class;
  const card = await admin.post('/api/admin/catalog/cards', { name: 'x', setName: 's', number: 1, classId: c.id, architectId: a.id, imageKey: k, valueCents: 1 });
  console.log(card.status);
  console.log(JSON.stringify(await (await admin.get('/api/admin/catalog/architects?archived=all&q=gilded')).json()));
  console.log(JSON.stringify(await (await admin.get('/api/admin/catalog/architects/' + a.id)).json()));
  const r = await admin.raw('/api/admin/uploads', { method: 'POST', body: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } });
  console.log(r.status, await r.text());
  await t.close();
});
