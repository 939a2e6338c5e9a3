// `npm run db:migrate` (dist/server/migrate.mjs): applies pending migrations and exits. A deploy
// runs it once before the new version serves, and starts the app with MIGRATE_ON_START=false
// (docs/deploy.md), so a rolling restart never has two processes racing to migrate.
import { openDatabase } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { redactText } from './lib/redact.ts';

function fail(message: string): never {
  process.stderr.write(`packvault migrate: ${redactText(message)}\n`);
  process.exit(1);
}

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(`invalid configuration — ${err.message}`);
  throw err;
}
const started = Date.now();
try {
  // The same path as a start with MIGRATE_ON_START: the direct URL, under the migration lock.
  const { dbh, release } = await openDatabase({ ...config, migrateOnStart: true, dbPoolSize: 1 });
  await dbh.close();
  release();
} catch (err) {
  fail(`migrations failed: ${(err as Error).message}`);
}
process.stdout.write(`packvault migrate: schema up to date (${Date.now() - started} ms)\n`);
process.exit(0);
