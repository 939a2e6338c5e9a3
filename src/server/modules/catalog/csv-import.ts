import { formatMoney } from '../../../shared/money.ts';
import { setting } from '../settings/store.ts';
import { withinValueBound, type ValueActor } from './value-proposals.ts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CSV_COLUMNS,
  MAX_STOCK,
  MAX_VALUE_CENTS,
  UPLOAD_KEY,
  adminCardListQuerySchema,
  type CsvImportResult,
} from '../../../shared/contracts/catalog.ts';
import { centsToDecimal, parseMoney } from '../../../shared/money.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { architects, cardClasses, cards, textures } from '../../db/schema/catalog.ts';
import { uploads } from '../uploads/tables.ts';
import { changeStock } from '../inventory/service.ts';
import { stockExceedsSlabs } from './cards.ts';
import { audit } from '../audit/service.ts';
import { CsvSyntaxError, parseCsv, toCsv } from '../../lib/csv.ts';
import { likePattern } from '../../lib/like.ts';
import { afterCatalogWrite } from './cache.ts';
import { recordValues } from './value-history.ts';

export const MAX_IMPORT_ROWS = 5000;
const REQUIRED = ['name', 'set', 'number', 'class', 'architect', 'image', 'value'] as const;

type RowError = CsvImportResult['errors'][number];

interface ParsedRow {
  row: number;
  name: string;
  setName: string;
  number: number;
  classId: string;
  architectId: string;
  textureId: string | null;
  imageKey: string;
  valueCents: number;
  description: string;
  active: boolean;
  stock: number | null;
}

/** Undoes the formula guard the exporter adds ("'=x" → "=x"). */
const unguard = (s: string) => (/^'[=+\-@]/.test(s) ? s.slice(1) : s);

function parseBool(s: string): boolean | null {
  const v = s.trim().toLowerCase();
  if (v === '') return true;
  if (['true', 'yes', 'y', '1'].includes(v)) return true;
  if (['false', 'no', 'n', '0'].includes(v)) return false;
  return null;
}

/**
 * Creates or updates cards from CSV (matched on set + number). Every row is checked first;
 * if any row has a problem nothing is written and every problem is reported with its row.
 */
export async function importCardsCsv(db: Db, ctx: ValueActor, csv: string, dryRun: boolean): Promise<CsvImportResult> {
  const errors: RowError[] = [];
  const fail = (): CsvImportResult => ({ ok: false, dryRun, created: 0, updated: 0, errors });

  let table: string[][];
  try {
    table = parseCsv(csv);
  } catch (err) {
    if (err instanceof CsvSyntaxError) {
      errors.push({ row: err.row, message: err.message });
      return fail();
    }
    throw err;
  }
  if (table.length === 0) {
    errors.push({ row: 1, message: 'The file is empty.' });
    return fail();
  }
  const header = table[0]!.map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  const missing = REQUIRED.filter((h) => !header.includes(h));
  if (unknown.length) errors.push({ row: 1, message: `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.` });
  if (missing.length) errors.push({ row: 1, message: `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.` });
  const dupes = header.filter((h, i) => header.indexOf(h) !== i);
  if (dupes.length) errors.push({ row: 1, message: `Column repeated: ${[...new Set(dupes)].join(', ')}.` });
  if (errors.length) return fail();
  const body = table.slice(1);
  if (body.length === 0) {
    errors.push({ row: 2, message: 'There are no rows under the header.' });
    return fail();
  }
  if (body.length > MAX_IMPORT_ROWS) {
    errors.push({ row: MAX_IMPORT_ROWS + 2, message: `At most ${MAX_IMPORT_ROWS} rows per file; split the file.` });
    return fail();
  }

  // Reference data, by lower-cased name.
  const [classRows, architectRows, textureRows] = await Promise.all([
    db.select({ id: cardClasses.id, name: cardClasses.name }).from(cardClasses).where(isNull(cardClasses.archivedAt)),
    db.select({ id: architects.id, name: architects.name }).from(architects).where(isNull(architects.archivedAt)),
    db.select({ id: textures.id, name: textures.name }).from(textures).where(isNull(textures.archivedAt)),
  ]);
  const byName = (rows: Array<{ id: string; name: string }>) => {
    const m = new Map<string, string[]>();
    for (const r of rows) {
      const k = r.name.trim().toLowerCase();
      m.set(k, [...(m.get(k) ?? []), r.id]);
    }
    return m;
  };
  const classMap = byName(classRows);
  const architectMap = byName(architectRows);
  const textureMap = byName(textureRows);

  const col = (r: string[], name: string) => {
    const i = header.indexOf(name);
    return i < 0 ? '' : unguard((r[i] ?? '').trim());
  };
  const parsed: ParsedRow[] = [];
  const seen = new Map<string, number>();
  const imageKeys = new Set<string>();

  body.forEach((r, idx) => {
    const row = idx + 2;
    const err = (field: string, message: string) => errors.push({ row, field, message });
    if (r.length !== header.length) {
      errors.push({ row, message: `Expected ${header.length} cells, found ${r.length}.` });
      return;
    }
    const before = errors.length;
    const name = col(r, 'name');
    if (!name) err('name', 'Name is required.');
    else if (name.length > 80) err('name', 'Name must be at most 80 characters.');
    const setName = col(r, 'set');
    if (!setName) err('set', 'Set is required.');
    else if (setName.length > 60) err('set', 'Set must be at most 60 characters.');
    const numRaw = col(r, 'number');
    const number = Number(numRaw);
    if (!/^\d{1,5}$/.test(numRaw) || number < 1) err('number', 'Number must be a whole number from 1 to 99999.');
    const resolve = (m: Map<string, string[]>, field: string, label: string, required: boolean) => {
      const v = col(r, field);
      if (!v) {
        if (required) err(field, `${label} is required.`);
        return null;
      }
      const ids = m.get(v.toLowerCase());
      if (!ids) err(field, `No ${label.toLowerCase()} named "${v}" (or it is archived).`);
      else if (ids.length > 1) err(field, `More than one ${label.toLowerCase()} is named "${v}"; rename one first.`);
      return ids?.[0] ?? null;
    };
    const classId = resolve(classMap, 'class', 'Class', true);
    const architectId = resolve(architectMap, 'architect', 'Architect', true);
    const textureId = header.includes('texture') ? resolve(textureMap, 'texture', 'Texture', false) : null;
    const imageKey = col(r, 'image').toLowerCase();
    if (!UPLOAD_KEY.test(imageKey)) err('image', 'Image must be the key of an uploaded image (64 hex characters).');
    else imageKeys.add(imageKey);
    const valueCents = parseMoney(col(r, 'value'));
    if (valueCents === null) err('value', 'Value must be an amount such as 12.50.');
    else if (valueCents > MAX_VALUE_CENTS) err('value', 'Value must be at most 1000000.00.');
    const description = col(r, 'description');
    if (description.length > 2000) err('description', 'Description must be at most 2000 characters.');
    const active = parseBool(col(r, 'active'));
    if (active === null) err('active', 'Active must be true or false.');
    const stockRaw = col(r, 'stock');
    let stock: number | null = null;
    if (stockRaw !== '') {
      stock = Number(stockRaw);
      if (!/^\d+$/.test(stockRaw) || stock > MAX_STOCK) err('stock', `Stock must be a whole number from 0 to ${MAX_STOCK}.`);
    }
    const dupKey = `${setName.toLowerCase()}#${number}`;
    if (setName && seen.has(dupKey)) err('number', `Same set and number as row ${seen.get(dupKey)}.`);
    else seen.set(dupKey, row);
    if (errors.length === before) {
      parsed.push({
        row,
        name,
        setName,
        number,
        classId: classId!,
        architectId: architectId!,
        textureId,
        imageKey,
        valueCents: valueCents!,
        description,
        active: active!,
        stock,
      });
    }
  });

  if (imageKeys.size) {
    const found = new Set<string>();
    const keys = [...imageKeys];
    for (let i = 0; i < keys.length; i += 1000) {
      const rows = await db.select({ key: uploads.key }).from(uploads).where(inArray(uploads.key, keys.slice(i, i + 1000)));
      rows.forEach((x) => found.add(x.key));
    }
    body.forEach((r, idx) => {
      const k = col(r, 'image').toLowerCase();
      if (UPLOAD_KEY.test(k) && !found.has(k)) errors.push({ row: idx + 2, field: 'image', message: 'No uploaded image has this key.' });
    });
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    return fail();
  }

  const matchExisting = async (q: DbOrTx, lock: boolean) => {
    // Existing cards are matched on (set, number); the unique index makes the match exact.
    const sets = [...new Set(parsed.map((p) => p.setName))];
    const base = q
      .select({ id: cards.id, setName: cards.setName, number: cards.number, stock: cards.stock, valueCents: cards.valueCents, graded: cards.gradingCompany })
      .from(cards)
      .where(inArray(cards.setName, sets));
    const rows = lock ? await base.for('update') : await base;
    return new Map(rows.map((r) => [`${r.setName}#${r.number}`, r]));
  };

  /**
   * A non-owner's import is held to the owner's value bounds (ADR 0024): a new card above the
   * new-card cap, or a value change beyond the daily bound, is a row error (no proposals from a
   * file: the card's edit form holds one for the owner).
   */
  const valueErrors = async (q: DbOrTx, existing: Awaited<ReturnType<typeof matchExisting>>): Promise<RowError[]> => {
    if (ctx.role === 'owner') return [];
    const out: RowError[] = [];
    const cap = setting('catalog.valueLimits').newCardMaxCents;
    for (const p of parsed) {
      const hit = existing.get(`${p.setName}#${p.number}`);
      if (!hit) {
        if (p.valueCents > cap) out.push({ row: p.row, field: 'value', message: `A new card worth more than ${formatMoney(cap, ctx.currency)} needs the owner.` });
      } else if (p.valueCents !== hit.valueCents && !(await withinValueBound(q, hit.id, hit.valueCents, p.valueCents))) {
        out.push({ row: p.row, field: 'value', message: 'This value change is more than admins may make alone in a day: change it in the card’s form (the owner approves it) or ask the owner.' });
      }
    }
    return out;
  };
  class HeldByOwner extends Error {}

  if (dryRun) {
    const existing = await matchExisting(db, false);
    errors.push(...(await valueErrors(db, existing)));
    if (errors.length) return fail();
    const updated = parsed.filter((p) => existing.has(`${p.setName}#${p.number}`)).length;
    return { ok: true, dryRun, created: parsed.length - updated, updated, errors: [] };
  }

  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const existing = await matchExisting(tx, true);
      const refused = await valueErrors(tx, existing);
      if (refused.length) {
        errors.push(...refused);
        throw new HeldByOwner();
      }
      let created = 0;
      let updated = 0;
      const ids: string[] = [];
      const valued: Array<{ cardId: string; valueCents: number }> = [];
      for (const p of parsed) {
        const hit = existing.get(`${p.setName}#${p.number}`);
        const values = {
          name: p.name,
          classId: p.classId,
          architectId: p.architectId,
          textureId: p.textureId,
          imageKey: p.imageKey,
          valueCents: p.valueCents,
          description: p.description,
          active: p.active,
        };
        if (hit) {
          const stock = p.stock ?? hit.stock;
          await tx
            .update(cards)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(cards.id, hit.id));
          // A graded card's stock is its slabs (issue 38): a CSV cannot add or remove them.
          if (stock !== hit.stock && hit.graded) throw stockExceedsSlabs(hit.stock);
          // The row is locked (matchExisting): the delta is exact. Stock only through the inventory.
          if (stock !== hit.stock) {
            const moved = await changeStock(tx, { cardId: hit.id, delta: stock - hit.stock, reason: 'csv_import', actorId: ctx.actorId, note: 'CSV import', referenceType: 'csv_import' });
            if (!moved) throw new Error('a locked card refused its CSV stock');
          }
          if (p.valueCents !== hit.valueCents) valued.push({ cardId: hit.id, valueCents: p.valueCents });
          ids.push(hit.id);
          updated++;
        } else {
          const stock = p.stock ?? 0;
          const [row] = await tx
            .insert(cards)
            .values({ ...values, setName: p.setName, number: p.number })
            .returning({ id: cards.id });
          if (stock > 0) {
            await changeStock(tx, { cardId: row!.id, delta: stock, reason: 'csv_import', actorId: ctx.actorId, note: 'CSV import', referenceType: 'csv_import' });
          }
          valued.push({ cardId: row!.id, valueCents: p.valueCents });
          ids.push(row!.id);
          created++;
        }
      }
      await recordValues(tx, valued, 'csv_import');
      await audit(tx, {
        actorId: ctx.actorId,
        ip: ctx.ip,
        action: 'catalog.card.import',
        targetType: 'card',
        targetId: null,
        before: null,
        after: { created, updated, cardIds: ids },
      });
      return { ok: true, dryRun, created, updated, errors: [] };
    }),
  ).catch((err: unknown) => {
    if (err instanceof HeldByOwner) return fail();
    throw err;
  });
}

/** 1234 → "12.34", with integer arithmetic only. */


const EXPORT_CHUNK = 2000;

/** Every card matching the admin list filters as CSV, in the import format. */
export async function exportCardsCsv(db: Db, q: z.output<typeof adminCardListQuerySchema>): Promise<string> {
  const lines: Array<Array<string | number>> = [[...CSV_COLUMNS]];
  const where = and(
    q.archived === 'active' ? isNull(cards.archivedAt) : q.archived === 'archived' ? sql`${cards.archivedAt} is not null` : undefined,
    q.classId ? eq(cards.classId, q.classId) : undefined,
    q.set ? eq(cards.setName, q.set) : undefined,
    q.active ? eq(cards.active, q.active === 'true') : undefined,
    q.q ? sql`${cards.name} ilike ${likePattern(q.q)}` : undefined,
  );
  for (let offset = 0; ; offset += EXPORT_CHUNK) {
    const rows = await db
      .select({
        name: cards.name,
        set: cards.setName,
        number: cards.number,
        class: cardClasses.name,
        architect: architects.name,
        texture: textures.name,
        image: cards.imageKey,
        value: cards.valueCents,
        description: cards.description,
        active: cards.active,
        stock: cards.stock,
      })
      .from(cards)
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .innerJoin(architects, eq(architects.id, cards.architectId))
      .leftJoin(textures, eq(textures.id, cards.textureId))
      .where(where)
      .orderBy(asc(cards.setName), asc(cards.number))
      .limit(EXPORT_CHUNK)
      .offset(offset);
    for (const r of rows) {
      lines.push([
        r.name,
        r.set,
        r.number,
        r.class,
        r.architect,
        r.texture ?? '',
        r.image,
        centsToDecimal(r.value),
        r.description,
        r.active ? 'true' : 'false',
        r.stock,
      ]);
    }
    if (rows.length < EXPORT_CHUNK) break;
  }
  return toCsv(lines);
}
