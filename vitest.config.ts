import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { preactAliases } from './preact-aliases.ts';

const serverInclude = ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.ts'];
const globalSetup = ['src/server/test/global-setup.ts'];

/**
 * Server and shared tests run on embedded PGlite, and again on PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Web component tests run in jsdom.
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
        // Components render with Preact, as they do in the browser (preact-aliases.ts). Every
        // package is run through Vite here, and resolved to its ES module build as the bundler does
        // (not the `node`/`main` CommonJS one, whose require('react') no alias reaches), so the
        // aliases reach the libraries' imports of React too.
        resolve: { alias: [...preactAliases], mainFields: ['module', 'main'], conditions: ['module', 'browser', 'import', 'default'] },
        test: { name: 'web', include: ['src/web/**/*.test.{ts,tsx}'], environment: 'jsdom', server: { deps: { inline: true } } },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
