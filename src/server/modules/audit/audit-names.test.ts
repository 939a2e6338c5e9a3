import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList } from '../../../shared/contracts/audit.ts';
import { liveProduct, makeCatalog, slots } from '../shop/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

describe('audit list names', () => {
  it('names the classes and cards a pack change mentions by id', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const cat = await makeCatalog(t, [
      { name: 'Plain', cards: [{ value: 100, stock: 5 }] },
      { name: 'Shiny', cards: [{ value: 900, stock: 5 }] },
    ]);
    const plain = cat.classes.Plain!;
    const shiny = cat.classes.Shiny!;
    const { packId } = await liveProduct(t, admin, {
      name: 'Named',
      priceCents: 500,
      slots: slots(2, [
        { classId: plain, weight: 9_000 },
        { classId: shiny, weight: 1_000 },
      ]),
    });
    const shinyCard = cat.cards.Shiny![0]!;
    const res = await t.as(admin).put(`/api/admin/packs/${packId}`, {
      name: 'Named',
      slots: [
        { odds: [{ classId: plain, weight: 9_000 }, { classId: shiny, weight: 1_000 }] },
        { odds: [{ classId: plain, weight: 8_800 }, { classId: shiny, weight: 1_200 }] },
      ],
      pool: { mode: 'cards', cardIds: [shinyCard, cat.cards.Plain![0]!] },
    });
    expect(res.status).toBe(200);
    const list = (await (await t.as(admin).get(`/api/admin/audit?action=pack.update&targetId=${packId}`)).json()) as AuditList;
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.names).toMatchObject({ [plain]: 'Plain', [shiny]: 'Shiny', [shinyCard]: 'Shiny card 1' });
  });
});
