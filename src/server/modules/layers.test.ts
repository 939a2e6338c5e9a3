import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The server modules' layers (issue 42, docs/architecture.md "Layers"). layers.json is the one
 * declaration; eslint.config.js enforces it (packvault/server-layers, lint/boundaries.js). Here:
 * the table covers every module and its same-layer edges make no cycle (imports between layers
 * only go down, so the module graph has none), the rule fires on deliberate violations of every
 * import form, and the real tree passes it.
 */

const root = join(import.meta.dirname, '..', '..', '..');
const modulesDir = join(root, 'src', 'server', 'modules');
const moduleDirs = readdirSync(modulesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** layers.json: lowest layer first; per module, the same-layer modules it may import. */
interface LayerTable {
  layers: Array<{ name: string; modules: Record<string, string[]> }>;
}
const { layers } = JSON.parse(readFileSync(join(modulesDir, 'layers.json'), 'utf8')) as LayerTable;

const eslint = new ESLint({ cwd: root });
const lint = async (module: string, code: string) => {
  const [r] = await eslint.lintText(code, { filePath: join(modulesDir, module, 'cheat.ts') });
  return r!.messages.filter((m) => m.ruleId === 'packvault/server-layers').map((m) => m.message);
};

describe('layers.json', () => {
  it('gives every module folder exactly one layer', () => {
    const declared = layers.flatMap((l) => Object.keys(l.modules)).sort();
    expect(declared).toEqual(moduleDirs);
  });

  it('lists only same-layer modules, without a cycle', () => {
    for (const layer of layers) {
      const names = new Set(Object.keys(layer.modules));
      for (const [mod, deps] of Object.entries(layer.modules)) for (const d of deps) expect(names.has(d), `${mod} -> ${d} in ${layer.name}`).toBe(true);
      // Depth-first search for a back edge.
      const state = new Map<string, 'open' | 'done'>();
      const visit = (mod: string, path: string[]) => {
        if (state.get(mod) === 'done') return;
        expect(state.get(mod), `cycle: ${[...path, mod].join(' -> ')}`).not.toBe('open');
        state.set(mod, 'open');
        for (const d of layer.modules[mod]!) visit(d, [...path, mod]);
        state.set(mod, 'done');
      };
      for (const mod of names) visit(mod, []);
    }
  });

  it('is what docs/architecture.md draws, in its table and its picture', () => {
    const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1));
    const rows = [...section.matchAll(/^\| ([a-z-]+) \| (.+) \|$/gm)].filter((m) => m[1] !== 'layer');
    expect(rows.map((m) => m[1])).toEqual(layers.map((l) => l.name));
    for (const [i, row] of rows.entries()) {
      const listed = Object.fromEntries(
        row[2]!.split('; ').map((cell) => {
          const [, mod, deps] = /^([a-z-]+)(?: \(→ (.+)\))?$/.exec(cell)!;
          return [mod!, deps ? deps.split(', ') : []];
        }),
      );
      expect(listed).toEqual(layers[i]!.modules);
    }
    const mermaid = section.slice(section.indexOf('```mermaid'), section.indexOf('```', section.indexOf('```mermaid') + 3));
    const id = (m: string) => m.replace(/-/g, '_');
    const drawn = [...mermaid.matchAll(/^\s+([a-z_]+) --> ([a-z_]+)$/gm)].map((m) => `${m[1]} -> ${m[2]}`).sort();
    const declared = layers.flatMap((l) => Object.entries(l.modules).flatMap(([m, deps]) => deps.map((d) => `${id(m)} -> ${id(d)}`))).sort();
    expect(drawn).toEqual(declared);
    const groups = [...mermaid.matchAll(/subgraph layer_([a-z]+) \[[a-z]+\]\n([\s\S]*?)\n\s+end/g)].map((m) => [m[1], [...m[2]!.matchAll(/^\s+[a-z_]+\[([a-z-]+)\]$/gm)].map((x) => x[1])]);
    expect(groups).toEqual(layers.map((l) => [l.name, Object.keys(l.modules)]));
  });

  it("exempts tables.ts because it holds no code: only re-exports of the module's schema", () => {
    for (const mod of moduleDirs) {
      let text: string;
      try {
        text = readFileSync(join(modulesDir, mod, 'tables.ts'), 'utf8');
      } catch {
        continue;
      }
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').trim();
      for (const line of code.split(/;\s*/).filter(Boolean)) expect(line, `${mod}/tables.ts`).toMatch(/^export (type )?\{[^}]*\} from '\.\.\/\.\.\/db\/schema\/[a-z-]+\.ts'$/s);
    }
  });
});

describe('packvault/server-layers', () => {
  it.each([
    ['an upward import', 'catalog', "import { tellWishersOfCards } from '../shop/admin.ts';", /layer ledgers\) must not import "shop" \(layer commerce, higher\)/],
    ['an upward re-export', 'audit', "export { setRole } from '../auth/user-writes.ts';", /higher/],
    ['an upward dynamic import', 'settings', "export const load = () => import('../shop/read.ts');", /higher/],
    ['an upward type-only import', 'fairness', "import type { getOpening } from '../shop/read.ts';", /"shop"/],
    ['an upward type query', 'wallet', "export type Admin = typeof import('../shop/admin.ts');", /higher/],
    // catalog imports inventory (layers.json), so this closes a cycle.
    ['a same-layer cycle, static', 'inventory', "import { getCard } from '../catalog/cards.ts';", /same layer \(ledgers\)/],
    ['a same-layer cycle, dynamic', 'inventory', "export const load = () => import('../catalog/cards.ts');", /same layer/],
    ['a same-layer cycle, type-only', 'inventory', "import type { OnDrawable } from '../catalog/cards.ts';", /same layer/],
    ['the personal-data registry below the edge layer', 'wallet', "import { erasePersonalData } from '../personal-data.ts';", /personal-data registry/],
  ])('refuses %s', async (_what, module, code, message) => {
    const messages = await lint(module, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it('allows lower layers, declared same-layer modules, tables.ts reads and its own files', async () => {
    expect(
      await lint(
        'shop',
        [
          "import { audit } from '../audit/service.ts';",
          "import type { OnDrawable } from '../catalog/cards.ts';",
          "export const load = () => import('../wallet/service.ts');",
          "import { wishlist } from '../collection/tables.ts';",
          "import { notify } from '../notifications/service.ts';",
          "import { products } from '../shop/tables.ts';",
          "import { x } from './read.ts';",
          "import { y } from '../../lib/like.ts';",
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(await lint('account', "import { erasePersonalData } from '../personal-data.ts';")).toEqual([]);
  });

  it('finds nothing in the real tree', async () => {
    const only = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'packvault/server-layers' });
    const results = await only.lintFiles(['src/server/modules/*/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'packvault/server-layers').map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(found).toEqual([]);
  }, 120_000);
});
