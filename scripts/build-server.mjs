// Bundles the server into ESM files; npm packages stay external (installed by npm ci).
// main.mjs serves; migrate.mjs (`npm run db:migrate`) applies migrations once and exits.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/server/main.ts', migrate: 'src/server/migrate-cli.ts' },
  outdir: 'dist/server',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
