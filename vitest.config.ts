import path from 'node:path';
import { defineConfig } from 'vitest/config';

const serverInclude = ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.ts'];
const globalSetup = ['src/server/test/global-setup.ts'];

/**
 * Server and shared tests run on embedded PGlite, and again on PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Web component tests run in jsdom.
 */
export default defineConfig({
  // Same aliases as vite.config.ts, so web component tests resolve @web/* and @shared/*.
  resolve: {
    alias: {
      '@web': path.resolve(import.meta.dirname, 'src/web'),
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  test: {
    projects: [
      {
        extends: true as const,
        test: { name: 'pglite', include: serverInclude, env: { TEST_DB: 'pglite' }, globalSetup },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: serverInclude, env: { TEST_DB: 'postgres' }, globalSetup },
            },
          ]
        : []),
      {
        extends: true as const,
        test: { name: 'web', include: ['src/web/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
