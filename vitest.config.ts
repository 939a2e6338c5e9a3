import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { classifyServerTests } from './scripts/test-projects.ts';

const { database, plain } = classifyServerTests(import.meta.dirname);
const globalSetup = ['src/server/test/global-setup.ts'];

/**
 * Server and shared tests that need a database run on embedded PGlite, and again on PostgreSQL
 * when TEST_DATABASE_URL is set (CI sets it); those that need none run once, in `node`
 * (scripts/test-projects.ts decides from the import graph). Web component tests run in jsdom.
 *
 * The server projects reuse a worker's modules from one test file to the next (`isolate: false`):
 * importing the app again for every file was about 40 % of the unit suite's time (10.8 → 6.7 min,
 * issue 42 item 6). Each file still gets its own database and app; the server's module-level
 * caches are keyed by what a database can tell apart (ids, random versions) and checked before
 * use, as they must be across processes. They mock nothing (web tests do, and stay isolated).
 */
export default defineConfig({
  // Same aliases as vite.config.ts, so web component tests resolve @web/* and @shared/*.
  resolve: {
    alias: [
      { find: '@web', replacement: path.resolve(import.meta.dirname, 'src/web') },
      { find: '@shared', replacement: path.resolve(import.meta.dirname, 'src/shared') },
    ],
  },
  test: {
    projects: [
      {
        extends: true as const,
        test: { name: 'pglite', include: database, env: { TEST_DB: 'pglite' }, globalSetup, isolate: false },
      },
      {
        extends: true as const,
        test: { name: 'node', include: plain, isolate: false },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: database, env: { TEST_DB: 'postgres' }, globalSetup, isolate: false },
            },
          ]
        : []),
      {
        extends: true as const,
        // Components render with React DOM, as they do in the browser; jsdom, with the frame
        // functions kept harmless past a file's end (src/web/test/jsdom-environment.ts).
        test: { name: 'web', include: ['src/web/**/*.test.{ts,tsx}'], environment: './src/web/test/jsdom-environment.ts' },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three on the 2-core machine: a worker often waits on PostgreSQL or on a child process (the
    // start-up, CLI and multi-process tests), and two left a third of the cores idle (unit suite
    // 6.7 → 5.5 min; four were no faster).
    maxWorkers: 3,
  },
});
