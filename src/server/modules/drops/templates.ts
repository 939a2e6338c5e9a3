import type { SystemOrActorCtx } from '../../http/types.ts';
import { asc, eq, sql } from 'drizzle-orm';
import type { CreateDropTemplateInput, DropTemplate, UpdateDropTemplateInput } from '../../../shared/contracts/drops.ts';
import { type Db, type DbOrTx } from '../../db/client.ts';
import { dropTemplates } from '../../db/schema/drops.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { plural } from '../../../shared/words.ts';
import { assertUpload, assertCards } from './service.ts';

// ───────────────────────── templates ─────────────────────────

/** Templates of recurring drops (the lifecycle job creates a drop from each active one). */
function templateDto(r: typeof dropTemplates.$inferSelect): DropTemplate {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    imageKey: r.imageKey,
    openTime: r.openTime,
    durationMinutes: r.durationMinutes,
    winnerCount: r.winnerCount,
    requireVerifiedEmail: r.requireVerifiedEmail,
    minAccountAgeDays: r.minAccountAgeDays,
    prizes: r.prizes,
    active: r.active,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listTemplates(db: Db): Promise<DropTemplate[]> {
  return (await db.select().from(dropTemplates).orderBy(asc(dropTemplates.openTime), asc(dropTemplates.createdAt))).map(templateDto);
}

async function templateRow(db: DbOrTx, id: string) {
  const [r] = await db.select().from(dropTemplates).where(eq(dropTemplates.id, id));
  if (!r) throw notFound('There is no such recurring drop.');
  return r;
}

export async function getTemplate(db: Db, id: string) {
  return templateDto(await templateRow(db, id));
}

export async function createTemplate(tx: DbOrTx, ctx: SystemOrActorCtx, input: CreateDropTemplateInput): Promise<DropTemplate> {
  await assertUpload(tx, input.imageKey);
  await assertCards(tx, input.prizes);
  const [row] = await tx.insert(dropTemplates).values({ ...input, createdBy: ctx.actorId }).returning();
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.template.create', targetType: 'drop_template', targetId: row!.id, after: input });
  return templateDto(row!);
}

export async function updateTemplate(tx: DbOrTx, ctx: SystemOrActorCtx, id: string, patch: UpdateDropTemplateInput): Promise<DropTemplate> {
  const before = await templateRow(tx, id);
  const prizes = patch.prizes ?? before.prizes;
  const winnerCount = patch.winnerCount ?? before.winnerCount;
  const units = prizes.reduce((n, p) => n + p.quantity, 0);
  if (winnerCount > units) throw badRequest('More winners than prizes.', { winnerCount: [`More winners than prizes: ${plural(units, 'prize card')} for ${plural(winnerCount, 'winner')}.`] });
  await assertUpload(tx, patch.imageKey);
  if (patch.prizes) await assertCards(tx, patch.prizes);
  const [row] = await tx
    .update(dropTemplates)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(dropTemplates.id, id))
    .returning();
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.template.update', targetType: 'drop_template', targetId: id, before: templateDto(before), after: patch });
  return templateDto(row!);
}

/** Deletes a recurring drop; the drops already scheduled from it stay (their template id is cleared). */
export async function deleteTemplate(tx: DbOrTx, ctx: SystemOrActorCtx, id: string): Promise<void> {
  const before = await templateRow(tx, id);
  await tx.delete(dropTemplates).where(eq(dropTemplates.id, id));
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.template.delete', targetType: 'drop_template', targetId: id, before: templateDto(before), after: null });
}
