import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Which server and shared test files need a database (issue 42 item 6).
 *
 * Those run twice, on PGlite and on PostgreSQL; the rest (pure functions, HTTP plumbing, lint
 * rules) run once. A file needs a database when it reaches, through relative imports (static,
 * dynamic or type-only), one of the modules that hand a test its database. Computed from the
 * import graph rather than listed by hand, so a test that starts using the harness is moved to
 * both databases without anyone remembering to.
 */
export const DATABASE_ENTRY_POINTS = ['src/server/test/harness.ts', 'src/server/db/migration-test-support.ts'];

const SERVER_TEST_ROOTS = ['src/server', 'src/shared', 'scripts'];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts'];

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function walk(dir: string, out: string[]) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
}

/** Server and shared test files, split by whether they need a database; paths relative to root. */
export function classifyServerTests(root: string): { database: string[]; plain: string[] } {
  const entries = new Set(DATABASE_ENTRY_POINTS.map((p) => path.resolve(root, p)));
  const memo = new Map<string, boolean>();
  const reaches = (file: string, seen: Set<string>): boolean => {
    if (entries.has(file)) return true;
    const known = memo.get(file);
    if (known !== undefined) return known;
    if (seen.has(file)) return false;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    let found = false;
    for (const m of source.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1]!);
      if (target && reaches(target, seen)) {
        found = true;
        break;
      }
    }
    // Only a positive answer is final: a negative one may be an artefact of a cycle still open.
    if (found) memo.set(file, true);
    return found;
  };
  const files: string[] = [];
  for (const dir of SERVER_TEST_ROOTS) walk(path.resolve(root, dir), files);
  const database: string[] = [];
  const plain: string[] = [];
  for (const file of files.sort()) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    (reaches(file, new Set()) ? database : plain).push(rel);
  }
  return { database, plain };
}
