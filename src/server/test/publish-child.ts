// Run as a separate OS process by realtime.test.ts: opens its own connection to the database
// and publishes one event, proving LISTEN/NOTIFY carries it to another process's clients.
import { openPostgres } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import { createBus } from '../modules/realtime/bus.ts';

const [url, marker] = process.argv.slice(2);
const dbh = await openPostgres(url!, 1);
const bus = await createBus(dbh, createLogger('silent'));
await bus.publish('public', 'pull.created', { marker, pid: process.pid });
await bus.close();
await dbh.close();
