#!/usr/bin/env node
// `npm run test:quick`: the check to run before a commit (issue 42 item 6). Typecheck
// (incremental) and the unit tests of the changed files — a changed test file, and the test
// files beside a changed source file — on PGlite, node and jsdom only. Bounded by what changed,
// not by how widely it is imported (`vitest related` on src/shared/words.ts runs nearly all of
// them). CI still runs everything (`npm test`).
//
//   npm run test:quick              changes against HEAD, plus untracked files
//   npm run test:quick -- main      changes against another commit (e.g. a branch's base)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

const base = process.argv[2] ?? 'HEAD';
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])].filter(
  (f) => /^(src|scripts)\/.*\.(ts|tsx|mjs)$/.test(f),
);

const run = (cmd, args) => {
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  console.log(`-- ${[cmd, ...args.slice(0, 6)].join(' ')}${args.length > 6 ? ' …' : ''}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// The web's API types come from the server's routes (ADR 0029): regenerate them first.
run('node', ['--import', 'tsx', 'scripts/gen-api-types.ts']);
mkdirSync('node_modules/.cache/packvault', { recursive: true });
run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/packvault/tsbuildinfo']);

if (changed.length === 0) {
  console.log(`No source file changed against ${base}: typecheck only.`);
} else {
  const isTest = (f) => /\.test\.tsx?$/.test(f);
  const tests = new Set(changed.filter(isTest).filter((f) => existsSync(f)));
  for (const dir of new Set(changed.filter((f) => !isTest(f)).map((f) => path.dirname(f)))) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) if (isTest(name)) tests.add(path.join(dir, name));
  }
  if (tests.size === 0) {
    console.log(`${changed.length} changed file(s) against ${base}, none with a test beside it: typecheck only.`);
  } else {
    console.log(`${tests.size} test file(s) for ${changed.length} changed file(s) against ${base}.`);
    run('npx', ['vitest', 'run', '--project', 'pglite', '--project', 'node', '--project', 'web', ...tests]);
  }
}
