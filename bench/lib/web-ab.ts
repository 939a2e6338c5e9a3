import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './server.ts';

/**
 * The other build of `npm run bench:web -- --ab=<dir>`, copied to a tree of its own; returns its
 * server entry. The server finds the web build it serves from where its own bundle lies (the
 * first folder above it with package.json and drizzle/), so another build's server inside this
 * repository would serve this tree's dist/web. The copy sits in a temporary folder whose
 * package.json, drizzle/, src/ and node_modules/ are links to this repository's; dist/ is a copy,
 * not a link (Node runs a linked entry from its real path, which is back inside this repository).
 */
export function copyOtherBuild(bDist: string): { entry: string; cleanUp: () => void } {
  const dist = path.resolve(bDist);
  for (const f of ['server/main.mjs', 'web/index.html']) {
    if (!existsSync(path.join(dist, f))) throw new Error(`--ab: no ${f} under ${dist} (copy a built dist/ there)`);
  }
  const tree = mkdtempSync(path.join(tmpdir(), 'pv-bench-web-b-'));
  const cleanUp = () => rmSync(tree, { recursive: true, force: true });
  try {
    for (const f of ['package.json', 'drizzle', 'src', 'node_modules']) symlinkSync(path.join(ROOT, f), path.join(tree, f));
    cpSync(dist, path.join(tree, 'dist'), { recursive: true });
    return { entry: path.join(tree, 'dist/server/main.mjs'), cleanUp };
  } catch (err) {
    cleanUp();
    throw err;
  }
}

export interface WebAbRun {
  build: 'a' | 'b';
  performance: number;
  fcp_ms: number | null;
  lcp_ms: number | null;
  tbt_ms: number | null;
  benchmark_index: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Medians per build of one page's interleaved runs. */
export function webAbSummary(runs: WebAbRun[]) {
  const of = (build: 'a' | 'b') => {
    const r = runs.filter((x) => x.build === build);
    const pick = (k: 'performance' | 'fcp_ms' | 'lcp_ms' | 'tbt_ms') => median(r.map((x) => x[k]).filter((v): v is number => v !== null));
    return { runs: r.length, performance: pick('performance'), fcp_ms: pick('fcp_ms'), lcp_ms: pick('lcp_ms'), tbt_ms: pick('tbt_ms') };
  };
  return { a: of('a'), b: of('b') };
}
