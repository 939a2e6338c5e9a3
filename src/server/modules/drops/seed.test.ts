import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DropProofDto } from '../../../shared/contracts/drops.ts';
import { verifyDrop } from '../../../shared/drop-draw.ts';
import { drops } from '../../db/schema/drops.ts';
import { dropsSeedStep } from '../../seed/drops.ts';
import { DEMO_USER_EMAIL } from '../auth/demo-accounts.ts';
import { ensureUser } from '../auth/users.ts';
import { makeCard, makeClass } from '../buyback/test-support.ts';
import { nodeFair } from '../fairness/crypto.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { booksReconcile } from './test-support.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

it('seeds a drawn demo drop with a proof that verifies and an open one, once', async () => {
  await ensureUser(t.deps, { email: DEMO_USER_EMAIL, username: 'demo', password: 'demo-password-1', role: 'user' });
  const rare = await makeClass(t, { name: 'Rare' });
  await makeCard(t, { classId: rare.id, valueCents: 2000, stock: 5 });
  await dropsSeedStep.run(t.deps);
  await dropsSeedStep.run(t.deps);
  const rows = await t.deps.db.select().from(drops);
  expect(rows.map((r) => r.status).sort()).toEqual(['closed', 'open']);
  const closed = rows.find((r) => r.status === 'closed')!;
  const proof = (await (await t.request(`/api/drops/${closed.id}/proof`)).json()) as DropProofDto;
  expect(proof.winners.map((w) => w.username)).toEqual(['demo']);
  expect((await verifyDrop(nodeFair, { ...proof, winners: proof.winners.map((w) => w.entryId) })).ok).toBe(true);
  expect((await t.deps.db.select().from(drops).where(eq(drops.status, 'open')))[0]!.commitment).toMatch(/^[0-9a-f]{64}$/);
  await booksReconcile(t);
});
