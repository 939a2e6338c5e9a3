// Bundles the server into ESM files; npm packages stay external (installed by npm ci).
// main.mjs serves; migrate.mjs (`npm run db:migrate`) applies migrations once and exits;
// owner-create.mjs (`npm run owner:create`) makes the first owner.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// A clean folder: scripts/runtime-deps.mjs reads every .mjs here.
rmSync('dist/server', { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/server/main.ts', migrate: 'src/server/migrate-cli.ts', 'owner-create': 'src/server/owner-create-cli.ts' },
  outdir: 'dist/server',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // No maps: node runs without --enable-source-maps, so nothing would read them.
  sourcemap: false,
  logLevel: 'warning',
});
