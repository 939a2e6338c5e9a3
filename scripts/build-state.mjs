// Decides whether dist/ is missing or older than the sources it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'package-lock.json', 'vite.config.ts', 'tsconfig.json', 'scripts/build-server.mjs'];
const OUTPUTS = ['dist/web/index.html', 'dist/ssr/entry-server.js', 'dist/server/main.mjs', 'dist/server/migrate.mjs', 'dist/server/owner-create.mjs'];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

export function buildIsStale(root = process.cwd()) {
  const outputs = OUTPUTS.map((o) => path.join(root, o));
  if (outputs.some((o) => !existsSync(o))) return 'missing';
  const built = Math.min(...outputs.map((o) => statSync(o).mtimeMs));
  const source = Math.max(...INPUTS.map((i) => newestMtime(path.join(root, i))));
  return source > built ? 'stale' : null;
}

/** Builds (npm run build) when dist/ is missing or stale, as `npm start` and `npm run db:migrate` need; exits on a failed build. */
export async function ensureBuilt() {
  const why = buildIsStale();
  if (!why) return;
  const { spawnSync } = await import('node:child_process');
  console.log(`packvault: build is ${why}; building…`);
  const res = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) {
    console.error('packvault: the build failed; see the messages above.');
    process.exit(res.status ?? 1);
  }
}
