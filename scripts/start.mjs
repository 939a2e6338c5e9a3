// `npm start`: build when the build is missing or stale, then run the server (which migrates,
// seeds an empty development database and serves the API and the SPA on one port).
import { ensureBuilt } from './build-state.mjs';

await ensureBuilt();
await import('../dist/server/main.mjs');
