import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Module ownership of the tables (issue 14 item 4, ADR 0013): a table's owner is the module whose
 * schema file defines it (db/schema/X.ts → modules/X), and only its owner writes it. Every server
 * file under modules/ is scanned for Drizzle writes (`.insert(t)`, `.update(t)`, `.delete(t)`, with
 * the local name an import from the schema or a tables.ts gave the table) and raw SQL (`insert into t`, `update t`,
 * `delete from t`, quoted or interpolated). Infrastructure (db/, seed/, jobs/, lib/, test/,
 * *.test.ts and test-support.ts) is not a module and is not scanned.
 *
 * A write into another module's table goes through the owner's service (a function, or a CTE
 * builder on the hot path, like the wallet's debitCtes). ALLOWED lists the exceptions that stay,
 * each with its reason; the test also fails when one of them is gone, so the list only shrinks.
 */

const root = join(import.meta.dirname, '..', '..', '..');
const serverDir = join(root, 'src', 'server');
const schemaDir = join(serverDir, 'db', 'schema');
const modulesDir = join(serverDir, 'modules');

/** "module -> table" pairs that may stay, and why. */
const ALLOWED: Record<string, string> = {
  // ADR 0011: the inventory gateway is the one writer of cards.stock (its own lint rule checks the column).
  'inventory -> cards': 'stock, through the inventory gateway (ADR 0011)',
};

interface Table {
  sqlName: string;
  owner: string;
}

/** Every table: its export name, SQL name and owner (the schema file's name). */
function tables(): Map<string, Table> {
  const out = new Map<string, Table>();
  for (const f of readdirSync(schemaDir)) {
    if (!f.endsWith('.ts') || f === 'index.ts') continue;
    const text = readFileSync(join(schemaDir, f), 'utf8');
    for (const m of text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) out.set(m[1]!, { sqlName: m[2]!, owner: f.slice(0, -3) });
  }
  return out;
}

function moduleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return moduleFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'test-support.ts' ? [p] : [];
  });
}

/** The tables a text writes, as SQL names: Drizzle calls by local name (aliases too) and raw SQL. */
export function writesOf(text: string, all: Map<string, Table>): string[] {
  const local = new Map<string, string>();
  for (const [name, t] of all) local.set(name, t.sqlName);
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[^']*(?:db\/schema\/[\w-]+|\/tables)\.ts'/g)) {
    for (const part of m[1]!.split(',')) {
      const [name, alias] = part.replace(/^\s*type\s+/, '').split(/\s+as\s+/).map((s) => s.trim());
      if (name && alias && all.has(name)) local.set(alias, all.get(name)!.sqlName);
    }
  }
  const bySql = new Set([...all.values()].map((t) => t.sqlName));
  const flat = text.replace(/\s+/g, ' ');
  const found = new Set<string>();
  for (const m of flat.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) if (local.has(m[1]!)) found.add(local.get(m[1]!)!);
  for (const m of flat.matchAll(/\b(?:insert into|update|delete from) (?:"?(\w+)"?|\$\{\s*(\w+)\s*\})[\s(]/gi)) {
    const name = m[2] ? local.get(m[2]) : m[1];
    if (name && bySql.has(name)) found.add(name);
  }
  return [...found];
}

describe('module ownership of the tables', () => {
  const all = tables();
  const ownerOf = new Map([...all.values()].map((t) => [t.sqlName, t.owner]));

  it('every schema file is named after the module that owns it (or jobs, the scheduler)', () => {
    const modules = new Set(readdirSync(modulesDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name));
    const owners = new Set(ownerOf.values());
    expect([...owners].filter((o) => !modules.has(o) && o !== 'jobs')).toEqual([]);
  });

  it('no module writes a table another module owns, except the listed ones', () => {
    const crossing = new Map<string, string[]>();
    for (const f of moduleFiles(modulesDir)) {
      const mod = relative(modulesDir, f).split(/[\\/]/)[0]!.replace(/\.ts$/, '');
      for (const t of writesOf(readFileSync(f, 'utf8'), all)) {
        if (ownerOf.get(t) === mod) continue;
        const key = `${mod} -> ${t}`;
        crossing.set(key, [...(crossing.get(key) ?? []), relative(root, f)]);
      }
    }
    const unexpected = [...crossing].filter(([k]) => !(k in ALLOWED)).map(([k, files]) => `${k} (owner ${ownerOf.get(k.split(' -> ')[1]!)}): ${files.join(', ')}`);
    expect(unexpected).toEqual([]);
    // An exception that no longer happens comes off the list.
    expect(Object.keys(ALLOWED).filter((k) => !crossing.has(k))).toEqual([]);
  });

  it('the scan sees each form of a write, aliases included', () => {
    const text = [
      "import { user as people, session } from '../../db/schema/auth.ts';",
      'await tx.update(people).set({ name: "x" });',
      'await tx\n  .delete(session)\n  .where(x);',
      'await tx.execute(sql`insert into "user_seeds" ("id") values (1)`);',
      'await tx.execute(sql`update ${appSettings} set value = 1`);',
      'await tx.execute(sql`delete from rate_limits where true`);',
      'const s = tx.select().from(cards);',
    ].join('\n');
    expect(writesOf(text, all).sort()).toEqual(['app_settings', 'rate_limits', 'session', 'user', 'user_seeds']);
  });

  it('the lint rule refuses the schema file of another module, and lets the own file and tables.ts through', async () => {
    const eslint = new ESLint({ cwd: root });
    const lint = async (code: string, file: string) =>
      (await eslint.lintText(code, { filePath: join(modulesDir, file) }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
    const use = (imp: string) => `${imp}\nexport const x = [t];\n`;
    // Refused: another module's schema file (with or without .ts), and the barrel.
    expect(await lint(use("import { user as t } from '../../db/schema/auth.ts';"), 'shop/cheat.ts')).toBe(1);
    expect(await lint(use("import { cards as t } from '../../db/schema/catalog';"), 'shop/cheat.ts')).toBe(1);
    expect(await lint(use("import { cards as t } from '../../db/schema/index.ts';"), 'shop/cheat.ts')).toBe(1);
    expect(await lint(use("import { ownedCards as t } from '../../../db/schema/inventory.ts';"), 'shop/deep/cheat.ts')).toBe(1);
    // Allowed: the module's own file, another module's published tables, and tests.
    expect(await lint(use("import { openings as t } from '../../db/schema/shop.ts';"), 'shop/ok.ts')).toBe(0);
    expect(await lint(use("import { user as t } from '../auth/tables.ts';"), 'shop/ok.ts')).toBe(0);
    expect(await lint(use("import { user as t } from '../../db/schema/auth.ts';"), 'shop/ok.test.ts')).toBe(0);
  }, 60_000);
});
