// `npm run owner:create -- --email …`: the first owner (docs/deploy.md, "First owner"). Runs the
// built dist/server/owner-create.mjs when it is there and current, else the source through tsx:
// making one account should not need a full build of the shop. The container image has no
// sources and runs dist/server/owner-create.mjs directly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsStale } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/server/owner-create.mjs');
const args = process.argv.slice(2);
const useBuilt = existsSync(built) && !buildIsStale(root);
if (!useBuilt && !existsSync(path.join(root, 'node_modules/tsx'))) {
  console.error('packvault owner:create: no current build and no tsx (a development dependency): run `npm run build` first.');
  process.exit(1);
}
const run = useBuilt
  ? [process.execPath, [built, ...args]]
  : [process.execPath, ['--import', 'tsx', path.join(root, 'src/server/owner-create-cli.ts'), ...args]];
const res = spawnSync(run[0], run[1], { stdio: 'inherit' });
if (res.error) {
  console.error(`packvault owner:create: could not run ${run[1][0]}: ${res.error.message}`);
  process.exit(1);
}
process.exit(res.status ?? 1);
