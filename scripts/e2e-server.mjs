// The e2e server as Playwright starts it (playwright.config.ts): the built server, its stdout and
// stderr appended to the file named by E2E_SERVER_LOG (the global teardown greps it for cookies,
// tokens, passwords and test users' addresses), stderr also passed through so a start-up failure
// still shows in the terminal.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

const logFile = process.env.E2E_SERVER_LOG;
if (!logFile) {
  console.error('e2e-server: E2E_SERVER_LOG is not set');
  process.exit(1);
}
mkdirSync(path.dirname(logFile), { recursive: true });
const out = createWriteStream(logFile, { flags: 'a' });
const child = spawn(process.execPath, ['dist/server/main.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.pipe(out, { end: false });
child.stderr.on('data', (chunk) => {
  out.write(chunk);
  process.stderr.write(chunk);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => out.end(() => process.exit(code ?? (signal ? 1 : 0))));
