// `npm run db:migrate`: build when the build is missing or stale (as `npm start` does), then apply
// pending migrations once and exit (dist/server/migrate.mjs). The container image has no sources
// and runs dist/server/migrate.mjs directly.
import { ensureBuilt } from './build-state.mjs';

await ensureBuilt();
await import('../dist/server/migrate.mjs');
