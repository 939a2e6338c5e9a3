// `npm start`: build when the build is missing or stale, then run the server (which migrates,
// seeds an empty development database and serves the API and the SPA on one port).
import { spawnSync } from 'node:child_process';
import { buildIsStale } from './build-state.mjs';

const why = buildIsStale();
if (why) {
  console.log(`packvault: build is ${why}; building…`);
  const res = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) {
    console.error('packvault: the build failed; see the messages above.');
    process.exit(res.status ?? 1);
  }
}
await import('../dist/server/main.mjs');
