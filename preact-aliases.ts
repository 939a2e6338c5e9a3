import path from 'node:path';

/**
 * The SPA is written against React's API and types, and runs on Preact through preact/compat
 * (docs/decisions/0020-preact-compat.md): React DOM alone is 63 KB gzip, more than half of the
 * 110 KB a first visit may load, and Preact with its compat layer is about 12. The build, the
 * dev server and the web component tests all resolve React to Preact through this one table, so
 * what the tests render is what ships.

 * Each pattern is anchored, so a bare `react` does not swallow `react/jsx-runtime`.
 */
export const preactAliases = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // Radix's focus guards, timed for Preact (see the module).
  { find: /^@radix-ui\/react-focus-guards$/, replacement: path.join(import.meta.dirname, 'src/web/lib/focus-guards.ts') },
];
