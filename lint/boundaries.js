import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// Import boundaries no-restricted-imports cannot express (issue 42): it sees neither `import()`
// nor `typeof import('…')`, and it cannot read a layer table. Both rules here see every form an
// import takes: import/export … from, import type, import(), `import x = require()` and type
// queries through import('…').

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modulesDir = resolve(root, 'src/server/modules');
const featuresDir = resolve(root, 'src/web/features');

/** src/server/modules/layers.json: lowest layer first; per module, the same-layer modules it may import. */
export const layerTable = JSON.parse(readFileSync(resolve(modulesDir, 'layers.json'), 'utf8'));
const layerOf = new Map();
const sameLayerDeps = new Map();
layerTable.layers.forEach((layer, i) => {
  for (const [mod, deps] of Object.entries(layer.modules)) {
    layerOf.set(mod, i);
    sameLayerDeps.set(mod, new Set(deps));
  }
});
const topLayer = layerTable.layers.length - 1;

/** Calls check(specifier, node) for every module specifier the file names, static or dynamic. */
function specifiers(check) {
  const literal = (node, source) => {
    if (source?.type === 'Literal' && typeof source.value === 'string') check(source.value, node);
    else if (source?.type === 'TemplateLiteral' && source.expressions.length === 0) check(source.quasis[0].value.cooked, node);
  };
  return {
    ImportDeclaration: (node) => literal(node, node.source),
    ExportNamedDeclaration: (node) => node.source && literal(node, node.source),
    ExportAllDeclaration: (node) => literal(node, node.source),
    ImportExpression: (node) => literal(node, node.source),
    TSExternalModuleReference: (node) => literal(node, node.expression),
    // `typeof import('./x')` / `import('./x').T`: the literal is `source` (typescript-eslint ≥ 8.x),
    // formerly the TSLiteralType `argument` (read only when there is no source: it is deprecated).
    TSImportType: (node) => literal(node, node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
  };
}

const posix = (p) => p.split(sep).join('/');
const inside = (dir, file) => {
  const rel = relative(dir, file);
  return rel && !rel.startsWith('..') && !rel.startsWith('/') ? posix(rel) : null;
};

const serverLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'A server module imports only lower layers and the same-layer modules layers.json names (no cycles).' },
    schema: [],
  },
  create(context) {
    const file = resolve(context.filename);
    const own = inside(modulesDir, file);
    if (!own || !own.includes('/')) return {};
    const mod = own.split('/')[0];
    if (!layerOf.has(mod)) {
      return {
        Program: (node) => context.report({ node, message: `Module "${mod}" is not in src/server/modules/layers.json: give it a layer.` }),
      };
    }
    const mine = layerOf.get(mod);
    const layerName = (i) => layerTable.layers[i].name;
    return specifiers((spec, node) => {
      if (!spec.startsWith('.')) return;
      const target = inside(modulesDir, resolve(dirname(file), spec));
      if (!target) return;
      const [other, ...rest] = target.split('/');
      if (rest.length === 0) {
        // A file of modules/ itself: the registries that import every module.
        if (/^personal-data(\.ts)?$/.test(other) && mine === topLayer) return;
        context.report({ node, message: `Module "${mod}" must not import modules/${other}: it imports every module. Only the "${layerName(topLayer)}" layer may use the personal-data registry; shared types live in src/server/lib.` });
        return;
      }
      if (other === mod) return;
      // Another module's tables.ts re-exports schema, no code: a read governed by the schema-ownership rule.
      if (rest.length === 1 && /^tables(\.ts)?$/.test(rest[0])) return;
      const theirs = layerOf.get(other);
      if (theirs === undefined) return;
      if (theirs < mine) return;
      if (theirs === mine && sameLayerDeps.get(mod).has(other)) return;
      context.report({
        node,
        message:
          theirs > mine
            ? `Module "${mod}" (layer ${layerName(mine)}) must not import "${other}" (layer ${layerName(theirs)}, higher): move the shared part down, pass it in from modules/index.ts, or move the route up (src/server/modules/layers.json).`
            : `Module "${mod}" must not import "${other}": same layer (${layerName(mine)}) and not in "${mod}"'s list in src/server/modules/layers.json (add it there if it makes no cycle).`,
      });
    });
  },
};

const webFeatures = {
  meta: {
    type: 'problem',
    docs: { description: 'A web feature never imports another feature dynamically (import()) or in a type query either.' },
    schema: [],
  },
  create(context) {
    const file = resolve(context.filename);
    const own = inside(featuresDir, file);
    if (!own || !own.includes('/')) return {};
    const feature = own.split('/')[0];
    // Static imports are no-restricted-imports' (eslint.config.js, featureBoundaries); this rule adds
    // what that rule does not see: import(), import x = require() and import('…') in types.
    const { ImportExpression, TSExternalModuleReference, TSImportType } = specifiers((spec, node) => {
      let target = null;
      if (spec.startsWith('@web/features/')) target = spec.slice('@web/features/'.length);
      else if (spec.startsWith('.')) target = inside(featuresDir, resolve(dirname(file), spec));
      if (!target) return;
      const other = target.split('/')[0];
      if (other === feature) return;
      context.report({
        node,
        message: `Feature "${feature}" must not import feature "${other}": move the shared part to src/web/components or src/web/lib, or compose both in the page.`,
      });
    });
    return { ImportExpression, TSExternalModuleReference, TSImportType };
  },
};

export const boundariesPlugin = { meta: { name: 'packvault-boundaries' }, rules: { 'server-layers': serverLayers, 'web-features': webFeatures } };
