import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundariesPlugin } from './lint/boundaries.js';

// The web never imports server code; only src/shared is common ground.
const webOnly = [
  { group: ['**/server/**', '@server/*'], message: 'The web app must not import server code; put shared contracts in src/shared.' },
  { group: ['drizzle-orm', 'drizzle-orm/*', 'postgres', '@electric-sql/pglite', 'better-auth/adapters/*', 'nodemailer', 'sharp'], message: 'Server-only package.' },
];

// A web feature never imports another feature (issue 14): what two features share goes to
// src/web/components or src/web/lib, and a page composes features. One entry per feature folder.
const webFeatures = readdirSync(new URL('./src/web/features', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const featureBoundaries = webFeatures.map((feature) => ({
  files: [`src/web/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...webOnly,
          ...webFeatures
            .filter((other) => other !== feature)
            .map((other) => ({
              group: [`@web/features/${other}`, `@web/features/${other}/**`, `**/features/${other}`, `**/features/${other}/**`, `../${other}`, `../${other}/**`],
              message: `Feature "${feature}" must not import feature "${other}": move the shared part to src/web/components or src/web/lib, or compose both in the page.`,
            })),
        ],
      },
    ],
  },
}));

// Module ownership of the schema (issue 14, ADR 0013): a file under src/server/modules/Y imports
// db/schema/X only when X is Y. Another module's tables come through modules/X/tables.ts, the
// reviewed list of what X lets others read and join; writes go through X's service
// (module-ownership.test.ts). db/, seed/, test/, jobs/, lib/, scripts and tests are infrastructure
// and import the schema directly.
const schemaFiles = readdirSync(new URL('./src/server/db/schema', import.meta.url))
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => f.slice(0, -3));
const serverModules = readdirSync(new URL('./src/server/modules', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const schemaOwnership = serverModules.map((mod) => ({
  files: [`src/server/modules/${mod}/**/*.ts`],
  ignores: ['src/**/*.test.ts', 'src/server/modules/*/test-support.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            // The barrel (db/schema, db/schema/index) and every schema file but the module's own.
            regex: `/db/schema(/(index|${schemaFiles.filter((x) => x !== mod).join('|')})(\\.ts)?)?$`,
            message: `Module "${mod}" imports only its own schema file (db/schema/${mod}.ts). Read another module's tables through modules/<owner>/tables.ts; write them through the owner's service.`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist', 'dist-b', 'node_modules', 'data', 'drizzle', 'test-results', 'playwright-report', 'bench/results', 'src/web/lib/api-schema.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: webOnly }],
    },
  },
  ...featureBoundaries,
  {
    // Dynamic imports and import('…') types across features (issue 42; static ones: featureBoundaries above).
    files: ['src/web/features/**/*.{ts,tsx}'],
    plugins: { packvault: boundariesPlugin },
    rules: { 'packvault/web-features': 'error' },
  },
  ...schemaOwnership,
  {
    // The server modules' layers (issue 42, src/server/modules/layers.json, docs/architecture.md
    // "Layers"): a module imports lower layers and the same-layer modules its entry names, by any
    // kind of import, so the module graph has no cycle. Tests and test-support compose modules freely.
    files: ['src/server/modules/*/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/server/modules/*/test-support.ts'],
    plugins: { packvault: boundariesPlugin },
    rules: { 'packvault/server-layers': 'error' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/web/**', 'react', 'drizzle-orm'], message: 'src/shared is imported by both sides; keep it free of server and web code.' }] },
      ],
    },
  },
  {
    // process.env is read in one place: the config module (scripts, tests and tooling excepted).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts', 'src/**/*.test.ts', 'src/server/test/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' }],
    },
  },
  {
    // Only the inventory module writes card stock, owned cards and the stock logs (issue 14, ADR 0011);
    // inventory-boundary.test.ts checks raw SQL too.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/modules/inventory/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.name=/^(ownedCards|stockMovements|cardSlabs)$/]",
          message: 'Owned cards and stock logs are written by modules/inventory only (changeStock, createCopy, moveCopies, the CTE builders).',
        },
        {
          selector: "CallExpression[callee.property.name='set'][callee.object.callee.property.name='update'][callee.object.arguments.0.name='cards'] Property[key.name='stock']",
          message: 'Card stock is written by modules/inventory only (changeStock, createCopy, moveCopies, takeStockCtes).',
        },
        {
          selector: "CallExpression[callee.property.name='values'][callee.object.callee.property.name='insert'][callee.object.arguments.0.name='cards'] Property[key.name='stock']",
          message: 'Card stock is written by modules/inventory only: insert the card, then changeStock.',
        },
        {
          selector: 'TemplateElement[value.raw=/(update\\s+"?cards"?\\s+(\\w+\\s+)?set\\s[^;]*\\bstock\\b\\s*=|update\\s+"?(owned_cards|stock_movements|card_slabs)"?\\s|insert\\s+into\\s+"?(owned_cards|stock_movements|card_slabs)|delete\\s+from\\s+"?(owned_cards|stock_movements|card_slabs))/i]',
          message: 'Card stock, owned cards and the stock logs are written by modules/inventory only.',
        },
      ],
    },
  },
);
