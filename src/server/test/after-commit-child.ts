// Run as a separate OS process by db/after-commit.test.ts: commits a transaction that queued one
// event with the commit (`withCommit`) and one after it, then dies in its first after-commit hook,
// before anything queued after the commit could leave. What PostgreSQL sent at commit still arrives.
import { afterCommit } from '../db/after-commit.ts';
import { openPostgres } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import { createBus } from '../modules/realtime/bus.ts';

const [url, marker] = process.argv.slice(2);
const dbh = await openPostgres(url!, 1);
await createBus(dbh, createLogger('silent'));
await dbh.db.transaction(async (tx) => {
  await afterCommit(tx, { topic: 'public', type: 'test.with-commit', data: { marker } }, { withCommit: true });
  await afterCommit(tx, { topic: 'public', type: 'test.after-commit', data: { marker } });
  await afterCommit(tx, () => process.exit(0));
});
