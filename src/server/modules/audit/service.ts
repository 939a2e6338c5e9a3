import { and, count, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { products } from '../shop/tables.ts';
import { auditLog } from '../../db/schema/audit.ts';
import type { AuditList, AuditListQuery } from '../../../shared/contracts/audit.ts';
import { instantMs } from '../../../shared/contracts/dates.ts';
import type { Logger } from '../../lib/logger.ts';

export interface AuditInput {
  /** The admin who acted (null for the system). */
  actorId: string | null;
  /** Dotted verb, e.g. 'user.ban', 'admin.promote', 'card.update'. */
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/**
 * Writes one audit entry. Pass the transaction handle when the change itself runs in one, so the
 * entry and the change commit or roll back together.
 */
export async function audit(db: DbOrTx, input: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    actorId: input.actorId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId ?? null,
    before: input.before === undefined ? null : (input.before as object),
    after: input.after === undefined ? null : (input.after as object),
    ip: input.ip ?? null,
  });
}

/**
 * Records a refused admin attempt (`<action>.refused`, the error code in `after`) and logs a
 * warning. Written outside the refused change's transaction, which rolled back; never throws, so
 * it can't mask the refusal itself.
 */
export async function auditRefusal(
  db: DbOrTx,
  log: Pick<Logger, 'warn' | 'error'>,
  input: AuditInput & { code: string; message: string },
): Promise<void> {
  log.warn('admin action refused', { action: input.action, code: input.code, actorId: input.actorId, targetId: input.targetId ?? null });
  try {
    await audit(db, {
      ...input,
      action: `${input.action}.refused`,
      after: { code: input.code, message: input.message, ...(input.after && typeof input.after === 'object' ? input.after : {}) },
    });
  } catch (err) {
    log.error('could not audit a refused admin action', { err, action: input.action });
  }
}

export async function listAudit(db: DbOrTx, q: AuditListQuery): Promise<AuditList> {
  const where: SQL[] = [];
  if (q.actorId) where.push(eq(auditLog.actorId, q.actorId));
  if (q.action) where.push(eq(auditLog.action, q.action));
  if (q.targetType) where.push(eq(auditLog.targetType, q.targetType));
  if (q.targetId) where.push(eq(auditLog.targetId, q.targetId));
  if (q.from) where.push(gte(auditLog.createdAt, new Date(instantMs(q.from))));
  if (q.to) where.push(lt(auditLog.createdAt, new Date(instantMs(q.to))));
  const cond = where.length ? and(...where) : undefined;
  const [rows, totalRows, actionRows] = await Promise.all([
    db
      .select({ a: auditLog, username: user.username, email: user.email })
      .from(auditLog)
      .leftJoin(user, eq(user.id, auditLog.actorId))
      .where(cond)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(auditLog).where(cond),
    db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action).limit(500),
  ]);
  const names = await namesOf(db, rows.flatMap(({ a }) => [a.before, a.after]));
  return {
    names,
    items: rows.map(({ a, username, email }) => ({
      id: a.id,
      actorId: a.actorId,
      actorUsername: username ?? null,
      actorEmail: email ?? null,
      action: a.action,
      targetType: a.targetType,
      targetId: a.targetId,
      before: a.before ?? null,
      after: a.after ?? null,
      ip: a.ip,
      createdAt: a.createdAt.toISOString(),
    })),
    total: Number(totalRows[0]?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    actions: actionRows.map((r) => r.action),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_NAMED_IDS = 2_000;

/** Every uuid-looking string inside some snapshots (values only; keys are field names). */
function idsIn(values: unknown[], out = new Set<string>()): Set<string> {
  for (const v of values) {
    if (out.size >= MAX_NAMED_IDS) break;
    if (typeof v === 'string') {
      if (UUID.test(v)) out.add(v.toLowerCase());
    } else if (Array.isArray(v)) idsIn(v, out);
    else if (v && typeof v === 'object') idsIn(Object.values(v), out);
  }
  return out;
}

/**
 * Snapshots keep ids (a pack's odds name classes by id), which read as noise in the log; the page
 * gets the current names of the classes, cards and products they mention.
 */
async function namesOf(db: DbOrTx, snapshots: unknown[]): Promise<Record<string, string>> {
  const ids = [...idsIn(snapshots)];
  if (!ids.length) return {};
  const [cls, crd, prd] = await Promise.all([
    db.select({ id: cardClasses.id, name: cardClasses.name }).from(cardClasses).where(inArray(cardClasses.id, ids)),
    db.select({ id: cards.id, name: cards.name }).from(cards).where(inArray(cards.id, ids)),
    db.select({ id: products.id, name: products.name }).from(products).where(inArray(products.id, ids)),
  ]);
  return Object.fromEntries([...cls, ...crd, ...prd].map((r) => [r.id, r.name]));
}
