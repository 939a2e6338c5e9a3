/**
 * `npm run bundle:report`: what JavaScript each public page makes a first visit download, against
 * the budget of issue 40 (150 KB gzipped per page, React included: the entry, its static imports, the page's chunk
 * and everything it imports, and the lazy layout of its area).
 *
 * It runs the production build itself (vite.config.ts, plus a plugin that records the chunk graph
 * as Rolldown emits it, so nothing is guessed from file names), then for every chunk a first visit
 * loads prints its gzip size and the packages / source files that make it up, measured on the
 * minified output through its sourcemap. Exits 1 when a page is over budget, so it can be a check.
 *
 *   npm run bundle:report                 all public pages, top 8 contributors per chunk
 *   npm run bundle:report -- --top 20     more contributors
 *   npm run bundle:report -- --json       machine-readable summary on stdout
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';
import { build } from 'vite';
import { ROUTE_LIST } from '../src/shared/routes.ts';
import { SOURCE_MAPS_DIR } from '../vite.config.ts';

const BUDGET_KB = 150;
const root = path.resolve(import.meta.dirname, '..');
const webRoot = path.join(root, 'src/web');
const args = process.argv.slice(2);
const top = Number(args[args.indexOf('--top') + 1]) || 8;
const asJson = args.includes('--json');

/** The layout component each area's pages render inside (router.tsx); lazy ones are chunks of their own. */
const AREA_LAYOUT = {
  site: 'layouts/site-layout',
  auth: 'layouts/auth-layout',
  profile: 'layouts/profile-layout',
  admin: 'layouts/admin-layout',
};

/** @type {Record<string, import('vite').Rolldown.OutputChunk | import('vite').Rolldown.OutputAsset>} */
let bundle = {};
await build({
  root: webRoot,
  configFile: path.join(root, 'vite.config.ts'),
  logLevel: 'warn',
  plugins: [
    {
      name: 'packvault:bundle-report',
      apply: 'build',
      enforce: 'post',
      generateBundle(_options, b) {
        bundle = b;
      },
    },
  ],
});

const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
const entry = chunks.find((c) => c.isEntry);
if (!entry) throw new Error('no entry chunk in the build');

function closure(chunk, seen = new Set()) {
  if (seen.has(chunk.fileName)) return seen;
  seen.add(chunk.fileName);
  for (const f of chunk.imports) {
    const next = bundle[f];
    if (next?.type === 'chunk') closure(next, seen);
  }
  return seen;
}

const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId.replace(/\.tsx?$/, ''), c]));
const pagesIndex = readFileSync(path.join(webRoot, 'pages/index.ts'), 'utf8');
const pageModule = new Map([...pagesIndex.matchAll(/^\s*(\w+): \(\) => import\('(\.\/[^']+)'\)/gm)].map((m) => [m[1], m[2]]));

// Sizes come from the files as written: Vite still rewrites chunks after generateBundle (its
// preload helper's dependency lists, minification), so the in-memory code is not what is served.
const outDir = path.join(root, 'dist/web');
const onDisk = (fileName) => readFileSync(path.join(outDir, fileName));
const gz = new Map();
function gzipSize(fileName) {
  if (!gz.has(fileName)) gz.set(fileName, gzipSync(onDisk(fileName)).length);
  return gz.get(fileName);
}

/** Minified bytes per package (node_modules) or source file, from the chunk's sourcemap. */
const contributorsCache = new Map();
function contributors(chunk) {
  if (contributorsCache.has(chunk.fileName)) return contributorsCache.get(chunk.fileName);
  const sizes = new Map();
  const mapFile = path.join(SOURCE_MAPS_DIR, `${chunk.fileName}.map`);
  if (existsSync(mapFile)) {
    const lines = onDisk(chunk.fileName).toString('utf8').split('\n');
    const consumer = new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')));
    let prev = null;
    const flush = (endLine, endCol) => {
      if (!prev) return;
      const bytes = endLine === prev.generatedLine ? endCol - prev.generatedColumn : lines[prev.generatedLine - 1].length - prev.generatedColumn;
      const key = prev.source ? owner(prev.source) : '(generated)';
      sizes.set(key, (sizes.get(key) ?? 0) + Math.max(0, bytes));
    };
    consumer.eachMapping((m) => {
      flush(m.generatedLine, m.generatedColumn);
      prev = m;
    });
    if (prev) flush(-1, 0);
  }
  const list = [...sizes].sort((a, b) => b[1] - a[1]);
  contributorsCache.set(chunk.fileName, list);
  return list;
}

function owner(source) {
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = source.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const abs = path.resolve(path.dirname(path.join(outDir, entry.fileName)), source);
  return path.relative(root, abs);
}

const initial = closure(entry);
const pages = [];
for (const def of ROUTE_LIST) {
  const mod = pageModule.get(def.id);
  if (def.access !== 'public' || def.notFound || !mod) continue;
  const files = new Set(initial);
  const pageChunk = byModule.get(path.join(webRoot, 'pages', mod));
  if (pageChunk) closure(pageChunk, files);
  const layoutChunk = byModule.get(path.join(webRoot, AREA_LAYOUT[def.area]));
  if (layoutChunk) closure(layoutChunk, files);
  const list = [...files];
  const total = list.reduce((s, f) => s + gzipSize(f), 0);
  pages.push({ path: def.path, files: list, totalKb: total / 1024, over: total / 1024 > BUDGET_KB });
}

const kb = (n) => `${(n / 1024).toFixed(1).padStart(6)} KB`;
if (asJson) {
  console.log(JSON.stringify({ budgetKb: BUDGET_KB, entryGzipKb: gzipSize(entry.fileName) / 1024, pages }, null, 2));
} else {
  const shown = new Set();
  console.log(`\nChunks loaded by a first visit to a public page (gzip at the default level 6; raw = minified bytes)\n`);
  const seenChunks = [...new Set(pages.flatMap((p) => p.files))].sort((a, b) => gzipSize(b) - gzipSize(a));
  for (const f of seenChunks) {
    const item = bundle[f];
    const users = pages.filter((p) => p.files.includes(f)).length;
    const raw = onDisk(f).length;
    console.log(`${f}  ${kb(gzipSize(f))} gz  ${kb(raw)} raw  (${users === pages.length ? 'every page' : `${users} page${users > 1 ? 's' : ''}`})`);
    if (item.type === 'chunk' && !shown.has(f)) {
      shown.add(f);
      for (const [name, bytes] of contributors(item).slice(0, top)) console.log(`    ${kb(bytes)} raw  ${name}`);
    }
  }
  console.log(`\nPer page (budget ${BUDGET_KB} KB gzip)\n`);
  for (const p of pages) {
    const extra = p.files.filter((f) => !initial.has(f)).map((f) => path.basename(f));
    console.log(`${p.over ? 'OVER' : ' ok '}  ${p.totalKb.toFixed(1).padStart(6)} KB  ${p.path.padEnd(28)} ${extra.join(' ')}`);
  }
  console.log(`\nentry ${entry.fileName}: ${kb(gzipSize(entry.fileName))} gz`);
}
const over = pages.filter((p) => p.over);
if (over.length) {
  console.error(`\n${over.length} public page(s) over the ${BUDGET_KB} KB budget: ${over.map((p) => p.path).join(', ')}`);
  process.exit(1);
}
