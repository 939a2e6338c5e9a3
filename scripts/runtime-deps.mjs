/**
 * The packages the built server needs at run time, and nothing else.
 *
 *   node scripts/runtime-deps.mjs          (last step of `npm run build`) read what the server bundles
 *                                          (dist/server/*.mjs) and the page renderer (dist/ssr) import
 *                                          from node_modules, and fail unless package.json's
 *                                          `dependencies` is exactly that list: a package the bundles
 *                                          import must be installed in production, and a browser-only
 *                                          package (bundled by Vite) belongs in devDependencies.
 *   node scripts/runtime-deps.mjs --prune  in a tree installed by `npm ci --omit=dev` (the image),
 *                                          delete every package that `dependencies` does not reach
 *                                          (npm keeps development packages that a production package
 *                                          names as an optional peer: better-auth names vitest, vite,
 *                                          drizzle-kit…; the runtime never loads them), then the
 *                                          files node never reads: type declarations, source maps,
 *                                          TypeScript sources and read-mes (licences stay).
 *
 * The import list comes from esbuild's metafile over the built files (static and literal dynamic
 * imports), not from reading their text: the bundles quote package names in comments and strings.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const builtins = new Set(builtinModules);
const isBuiltin = (s) => s.startsWith('node:') || builtins.has(packageName(s));

/** Package names the built entry files import at run time. */
export async function bundleImports(entries) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: entries,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    outdir: path.join(root, 'dist/.runtime-deps'),
  });
  const found = new Map();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const imp of input.imports) {
      if (!imp.external || isBuiltin(imp.path)) continue;
      const name = packageName(imp.path);
      if (!found.has(name)) found.set(name, new Set());
      found.get(name).add(file);
    }
  }
  return found;
}

async function check() {
  const serverDir = path.join(root, 'dist/server');
  const entries = [
    ...readdirSync(serverDir)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => path.join(serverDir, f)),
    path.join(root, 'dist/ssr/entry-server.js'),
  ];
  for (const e of entries) if (!existsSync(e)) throw new Error(`runtime-deps: ${path.relative(root, e)} is missing; run the build first`);
  const imported = await bundleImports(entries);
  const declared = new Set(Object.keys(pkg.dependencies ?? {}));
  const problems = [];
  for (const [name, files] of imported) {
    if (!declared.has(name)) {
      const where = [...files].slice(0, 3).join(', ');
      problems.push(`${name} is imported at run time (${where}) but is not in "dependencies": production installs would lack it`);
    }
  }
  for (const name of declared) {
    if (!imported.has(name)) problems.push(`${name} is in "dependencies" but no server bundle imports it: move it to "devDependencies" (Vite bundles browser code)`);
  }
  if (problems.length) {
    console.error(`runtime-deps: package.json's dependencies do not match what the built server imports:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}

/**
 * The folders under node_modules that the production dependencies reach, resolved as Node does
 * (a package's own node_modules first, then each parent's): dependencies, the optional ones that
 * are installed (sharp's platform binary), and peers that are not optional.
 */
export function reachable(projectDir, roots) {
  const keep = new Set();
  const resolve = (fromDir, name) => {
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) return candidate;
      if (dir === projectDir || path.dirname(dir) === dir) return null;
    }
  };
  const visit = (dir) => {
    if (keep.has(dir)) return;
    keep.add(dir);
    const p = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const optionalPeers = new Set(Object.entries(p.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n));
    const wanted = [
      ...Object.keys(p.dependencies ?? {}),
      ...Object.keys(p.optionalDependencies ?? {}),
      ...Object.keys(p.peerDependencies ?? {}).filter((n) => !optionalPeers.has(n)),
    ];
    for (const name of wanted) {
      const found = resolve(dir, name);
      if (found) visit(found);
      else if (!(name in (p.optionalDependencies ?? {}))) throw new Error(`runtime-deps: ${name} (needed by ${path.relative(projectDir, dir)}) is not installed`);
    }
  };
  for (const name of roots) {
    const found = resolve(projectDir, name);
    if (!found) throw new Error(`runtime-deps: ${name} is not installed in ${projectDir}`);
    visit(found);
  }
  return keep;
}

/** Files in node_modules that node never loads: declarations, maps, TypeScript sources, docs. */
const NOT_RUN = /\.(d\.[mc]?ts|[mc]?ts|tsx|map|md|markdown)$/i;

function prune(projectDir) {
  const keep = reachable(projectDir, Object.keys(pkg.dependencies ?? {}));
  let removed = 0;
  const sweep = (modulesDir) => {
    if (!existsSync(modulesDir)) return;
    for (const entry of readdirSync(modulesDir)) {
      const dir = path.join(modulesDir, entry);
      // npm's bin links and hidden lockfile describe the full tree; the server uses neither.
      if (entry === '.bin' || entry === '.package-lock.json') {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? readdirSync(dir).map((n) => path.join(dir, n)) : [dir];
      for (const d of dirs) {
        if (keep.has(d)) sweep(path.join(d, 'node_modules'));
        else {
          rmSync(d, { recursive: true, force: true });
          removed++;
        }
      }
      if (entry.startsWith('@') && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
    }
  };
  sweep(path.join(projectDir, 'node_modules'));
  let files = 0;
  const strip = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) strip(p);
      else if (NOT_RUN.test(e.name) && !/^(licen[cs]e|notice|copying)/i.test(e.name)) {
        rmSync(p);
        files++;
      }
    }
  };
  strip(path.join(projectDir, 'node_modules'));
  console.log(`runtime-deps: kept ${keep.size} packages, removed ${removed}, and ${files} files node does not load`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--prune')) prune(process.cwd());
  else await check();
}
