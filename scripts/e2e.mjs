// `npm run test:e2e`: checks for Chromium, builds when stale, then runs Playwright. The server
// is started by playwright.config.ts on a fresh data directory.
import { spawnSync } from 'node:child_process';
import { buildIsStale } from './build-state.mjs';
import { CHROMIUM_HELP, findChromium } from './chromium.mjs';

const chromium = findChromium();
if (!chromium) {
  console.error(`\n${CHROMIUM_HELP}\n`);
  process.exit(1);
}
const why = buildIsStale();
if (why) {
  console.log(`e2e: build is ${why}; building…`);
  const b = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const res = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(res.status ?? 1);
