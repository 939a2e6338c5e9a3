import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Only modules/inventory writes card stock, owned cards, graded slabs and the stock logs (ADR 0011, 0023). ESLint
 * (eslint.config.js, no-restricted-syntax) refuses the Drizzle forms and raw SQL; this test scans
 * every server file as text too, which also catches SQL built in ways the lint rule cannot see.
 */

const root = join(import.meta.dirname, '..', '..', '..', '..');
const serverDir = join(root, 'src', 'server');
const inventoryDir = join(serverDir, 'modules', 'inventory');

const RULES: Array<[string, RegExp]> = [
  ['drizzle write of owned_cards / stock logs', /\.(insert|update|delete)\(\s*(ownedCards|stockMovements|cardSlabs)\s*\)/],
  ['drizzle write of cards.stock', /\.(update\(\s*cards\s*\)\s*\.set|insert\(\s*cards\s*\)\s*\.values)\(\{[^}]*\bstock\b\s*[:,}]/],
  ['raw SQL update of cards.stock', /update\s+("?cards"?|\$\{cards\})\s+(\w+\s+)?set\s[^;`]*\bstock"?\s*=/i],
  ['raw SQL write of owned_cards / stock logs', /(insert\s+into|update|delete\s+from)\s+("?(owned_cards|stock_movements|card_slabs)"?|\$\{(ownedCards|stockMovements|cardSlabs)\})[\s(]/i],
];

/** The rule names each text breaks. */
export function violations(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ');
  return RULES.filter(([, re]) => re.test(flat)).map(([name]) => name);
}

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p === inventoryDir ? [] : serverFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const fixture = readFileSync(join(inventoryDir, 'fixtures', 'violation.ts.txt'), 'utf8');

describe('inventory boundary', () => {
  it('no server file outside modules/inventory writes stock, owned cards or the stock logs', () => {
    const files = serverFiles(serverDir);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => violations(readFileSync(f, 'utf8')).map((v) => `${relative(root, f)}: ${v}`));
    expect(found).toEqual([]);
  });

  it('the scan finds each form of a deliberate violation', () => {
    expect(violations(fixture).sort()).toEqual(RULES.map(([name]) => name).sort());
    // And the inventory module itself is what it would flag elsewhere.
    expect(violations(readFileSync(join(inventoryDir, 'service.ts'), 'utf8')).length).toBeGreaterThan(0);
  });

  it('the lint rule fails on the deliberate violation in another module, and passes it inside modules/inventory', async () => {
    const eslint = new ESLint({ cwd: root });
    const [outside] = await eslint.lintText(fixture, { filePath: join(serverDir, 'modules', 'shop', 'cheat.ts') });
    const restricted = outside!.messages.filter((m) => m.ruleId === 'no-restricted-syntax');
    // Drizzle update of stock, insert and update of owned cards, and the two raw statements.
    expect(restricted.map((m) => m.line).sort((a, b) => a - b)).toEqual([9, 10, 11, 12, 13]);
    const [inside] = await eslint.lintText(fixture, { filePath: join(inventoryDir, 'cheat.ts') });
    expect(inside!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')).toEqual([]);
  }, 60_000);
});
