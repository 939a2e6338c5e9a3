import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the app's entry chunk carries is on every page, public ones included, and counts against
 * their JavaScript budget (issue 21). The entry is src/web/main.tsx and everything it imports
 * statically (an `import()` is a chunk of its own, loaded on demand). This walks that graph from
 * the sources and names the packages it reaches, so a heavy package pulled in by one careless
 * import (zod through a contract's schema, a chart library, a form library…) fails here, with the
 * chain of files that brought it, instead of showing up later as a slower home page.
 */

const webRoot = path.resolve(import.meta.dirname);
const sharedRoot = path.resolve(webRoot, '..', 'shared');

/** Packages that belong on later chunks only: the forms, charts and animation of specific pages, and
 * Radix, even its Slot (1.2 KB gzip; the shell's Button does its asChild without it). */
const KEPT_OUT = [
  'zod',
  'recharts',
  'react-hook-form',
  '@hookform/resolvers',
  'motion',
  'framer-motion',
  'qrcode-generator',
  'radix-ui',
];

function resolveFile(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@web/')) base = path.join(webRoot, spec.slice(5));
  else if (spec.startsWith('@shared/')) base = path.join(sharedRoot, spec.slice(8));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(cand) && !cand.endsWith('/') && /\.(tsx?)$/.test(cand)) return cand;
  }
  return null;
}

/** The static, value-level imports and re-exports of a file (type-only ones are erased by the build). */
function staticImports(text: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) {
    if (m[5]) {
      out.push(m[5]);
      continue;
    }
    if (m[2]) continue;
    const clause = m[3]!.trim();
    // `{ type A, type B }` only: erased too.
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (braces && braces[1]!.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '))) continue;
    out.push(m[4]!);
  }
  return out;
}

function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** Every package the entry reaches, with the chain of files that first reached it. */
function entryPackages(): Map<string, string[]> {
  const entry = path.join(webRoot, 'main.tsx');
  const via = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  const packages = new Map<string, string[]>();
  while (queue.length) {
    const file = queue.shift()!;
    const chain = via.get(file)!;
    // Styles are not JavaScript.
    if (!/\.tsx?$/.test(file)) continue;
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.endsWith('.css')) continue;
      const target = resolveFile(file, spec);
      if (target) {
        if (!via.has(target)) {
          via.set(target, [...chain, target]);
          queue.push(target);
        }
      } else if (!spec.startsWith('.') && !spec.startsWith('@web/') && !spec.startsWith('@shared/')) {
        const pkg = packageOf(spec);
        if (!packages.has(pkg)) packages.set(pkg, chain.map((f) => path.relative(path.dirname(webRoot), f)));
      }
    }
  }
  return packages;
}

describe('the entry chunk', () => {
  it('reaches none of the packages that belong on later chunks', () => {
    const reached = entryPackages();
    // The walk must see the shell at all, or the check below would pass vacuously.
    expect([...reached.keys()]).toEqual(expect.arrayContaining(['react', 'react-dom', '@tanstack/react-router', '@tanstack/react-query']));
    const offenders = KEPT_OUT.filter((p) => reached.has(p)).map((p) => `${p}: ${reached.get(p)!.join(' → ')}`);
    expect(offenders, 'a static import chain from src/web/main.tsx to a heavy package; make the import lazy or type-only').toEqual([]);
  });

  it('finds a value import of zod through a contract (the walk works)', () => {
    expect(staticImports("import { maintenanceStateSchema, type MaintenanceState } from '@shared/contracts/maintenance';")).toEqual(['@shared/contracts/maintenance']);
    expect(staticImports("import type { MaintenanceState } from '@shared/contracts/maintenance';")).toEqual([]);
    expect(staticImports("import { type A, type B } from './x';\nexport { c } from './y';\nimport './z.css';")).toEqual(['./y', './z.css']);
  });
});
