// `npm run owner:create -- --email …` (dist/server/owner-create.mjs in the image): makes the first
// owner of an install, or with --promote makes an existing verified user owner (docs/deploy.md,
// "First owner"). The one-time password goes to stdout once and nowhere else: never to the logger.
import { parseArgs } from 'node:util';
import { openDatabase, type OpenedDatabase } from './bootstrap.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './db/lock.ts';
import type { Deps } from './deps.ts';
import { createLogger } from './lib/logger.ts';
import { redactText } from './lib/redact.ts';
import { createOwner, OwnerCreateError, parseOwnerEmail } from './modules/auth/owner-create.ts';
import { createBus } from './modules/realtime/bus.ts';
import { ROUTES } from '../shared/routes.ts';

const USAGE = `Usage: npm run owner:create -- --email <address> [--username <name>] [--promote]
  (in the container image: node dist/server/owner-create.mjs --email <address> …)

  --email      the owner's email address (required)
  --username   public username, 3–20 of A-Z a-z 0-9 _ - (default: from the email, else random)
  --promote    the email already has a verified account: make that account owner
  --help       this text

Reads the same configuration as the server (DATABASE_URL, or DATA_DIR for the embedded database,
which must not be in use by a running server).`;

function fail(message: string, usage = false): never {
  process.stderr.write(`packvault owner:create: ${redactText(message)}\n${usage ? `\n${USAGE}\n` : ''}`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      promote: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (err) {
  fail((err as Error).message, true);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.email === undefined) fail('--email is required.', true);
try {
  parseOwnerEmail(args.email);
} catch (err) {
  if (err instanceof OwnerCreateError) fail(`--email: ${err.message}`);
  throw err;
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(`invalid configuration — ${err.message}`);
  throw err;
}

let opened: OpenedDatabase;
try {
  // As `npm run db:migrate`: the direct URL, under the migration lock, so the schema is current.
  opened = await openDatabase({ ...config, migrateOnStart: true, dbPoolSize: 1 });
} catch (err) {
  if (err instanceof DataDirLockedError) {
    fail(
      `the embedded database in DATA_DIR (${config.dataDir}) is in use by a running Packvault server${err.pid ? ` (pid ${err.pid})` : ''}. ` +
        'Stop the server, run this command, then start it again.',
    );
  }
  const where = config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR (${config.dataDir})`;
  fail(`cannot open the database from ${where}: ${(err as Error).message}`);
}
const { dbh, release } = opened;
// Logs (a warning at most) go to stderr, so stdout carries only the result.
const log = createLogger(config.logLevel === 'debug' || config.logLevel === 'silent' ? config.logLevel : 'warn', { cli: 'owner:create' }, (line) =>
  process.stderr.write(`${line}\n`),
);
const shutdown = new AbortController();
const bus = await createBus(dbh, log);
const deps: Deps = { config, dbh, db: dbh.db, bus, log, shutdown: shutdown.signal };

let exitCode = 0;
try {
  const r = await createOwner(deps, { email: args.email, username: args.username, promote: args.promote });
  const signIn = `${config.publicUrl}${ROUTES.signIn.path}`;
  const security = `${config.publicUrl}${ROUTES.profilePrivacy.path}`;
  if (r.kind === 'created') {
    process.stdout.write(
      [
        `packvault owner:create: created the owner ${r.email} (username ${r.username}).`,
        '',
        `  One-time password: ${r.password}`,
        '',
        'It is shown this once and is not stored anywhere readable. Next:',
        `  1. Sign in at ${signIn} with the email and this password.`,
        '  2. Set up two-factor authentication with an authenticator app when asked: every admin page',
        '     and admin API refuses the account until it is set up and the session has passed it.',
        `  3. Change this password at once (${security}, "Password"): nothing forces the change.`,
        '',
      ].join('\n'),
    );
  } else if (r.kind === 'promoted') {
    process.stdout.write(
      `packvault owner:create: ${r.email} (username ${r.username}) is now an owner (was ${r.previousRole}). ` +
        'Admin pages need two-factor authentication: it is asked for at the next sign-in if not set up yet.\n',
    );
  } else {
    process.stdout.write(`packvault owner:create: ${r.email} (username ${r.username}) is already an owner; nothing changed.\n`);
  }
} catch (err) {
  exitCode = 1;
  if (err instanceof OwnerCreateError) process.stderr.write(`packvault owner:create: ${err.message}\n`);
  else process.stderr.write(`packvault owner:create: failed — ${redactText((err as Error).stack ?? String(err))}\n`);
}
shutdown.abort();
await bus.close().catch(() => {});
await dbh.close().catch(() => {});
release();
process.exit(exitCode);
