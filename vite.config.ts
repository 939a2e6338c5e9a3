import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { ROUTE_LIST } from './src/shared/routes.ts';
import { PROFILE_LAYOUT, ROUTE_CHUNKS_FILE, SIGNED_IN_CHROME } from './src/shared/route-chunks.ts';

const apiPort = Number(process.env.API_PORT ?? 3001);
const webRoot = path.resolve(import.meta.dirname, 'src/web');

/** lucide-react's icon modules by exported name (`ShieldCheck` → `…/icons/shield-check.mjs`). */
function lucideIconFiles(): Map<string, string> {
  const index = readFileSync(path.resolve(import.meta.dirname, 'node_modules/lucide-react/dist/esm/lucide-react.mjs'), 'utf8');
  const files = new Map<string, string>();
  for (const m of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([a-z0-9-]+)\.mjs'/g)) {
    for (const name of m[1]!.matchAll(/as (\w+)/g)) files.set(name[1]!, m[2]!);
  }
  return files;
}

/** The lucide icons these files and folders of src/web import (back office aside), as icon file names. */
function iconsUsedIn(folders: string[], files = lucideIconFiles()): Set<string> {
  const used = new Set<string>();
  const read = (file: string) => {
    for (const m of readFileSync(file, 'utf8').matchAll(/import \{([^}]*)\} from 'lucide-react'/g)) {
      for (const n of m[1]!.split(',')) {
        const icon = files.get(n.trim().split(/\s+as\s+/)[0]!);
        if (icon) used.add(icon);
      }
    }
  };
  // The back office's modules (admin*) are left out: their icons are not the shop's.
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('admin')) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) read(p);
    }
  };
  for (const f of folders) {
    const p = path.join(webRoot, f);
    if (/\.tsx?$/.test(f)) read(p);
    else visit(p);
  }
  return used;
}

/**
 * The shop's small shared modules in one file. Split by which pages share them, the landing page
 * loaded 20 files beyond the entry, most under 1 KB (eight were single icons), and a phone opens
 * six connections to the origin: each extra file is a queue slot on the way to the first render.
 * Icons the sign-in and account pages also use stay out, so those pages do not load the kit.
 */
function shopKitTest(): (id: string) => boolean {
  const authIcons = iconsUsedIn(['pages/auth', 'features/auth', 'features/account', 'components', 'layouts', 'lib']);
  const shopIcons = [...iconsUsedIn(['pages/shop', 'features/shop', 'features/catalog/public-catalog.tsx', 'features/catalog/card-view.tsx'])].filter(
    (f) => !authIcons.has(f),
  );
  const icons = new RegExp(`/node_modules/lucide-react/dist/esm/icons/(${shopIcons.join('|')})\\.mjs$`);
  const modules =
    /\/src\/(web\/features\/shop\/(api|pack-art|product-tile|pulls|card-slot|value-range)\.tsx?|web\/features\/catalog\/card-view\.tsx|web\/pages\/shop\/with-cards\.tsx|web\/components\/ui\/(badge|page-header|empty-state|pagination)\.tsx|web\/lib\/url-state\.ts|shared\/contracts\/catalog-look\.ts)$/;
  return (id) => modules.test(id) || (shopIcons.length > 0 && icons.test(id));
}

/** components/ui/notice.tsx and the icons it draws. */
function noticeTest(): (id: string) => boolean {
  const files = lucideIconFiles();
  const icons = ['AlertTriangle', 'CheckCircle2', 'Info', 'XCircle'].map((n) => files.get(n)).filter(Boolean);
  const re = new RegExp(`(/src/web/components/ui/notice\\.tsx|/node_modules/lucide-react/dist/esm/icons/(${icons.join('|')})\\.mjs)$`);
  return (id) => re.test(id);
}

/**
 * Lets a first visit fetch its page's code together with the app instead of after it. Without
 * this, the router only asks for the page chunk (and its imports) once the entry chunk has been
 * downloaded and run: an extra round trip, plus the entry's download time, before the page can
 * show anything real.
 *
 * At build time it maps every public and signed-in route of the route table to the chunks its page
 * needs beyond the entry (from pages/index.ts), plus the lazy parts of a signed-in visitor's
 * header and the profile area's layout, and writes that map as `route-chunks.json` next to index.html
 * (not under /assets, so it is not served). The page server (server/modules/pages/spa.ts) names
 * the current route's chunks in the HTML as `<link rel="modulepreload">`, where the browser's
 * preload scanner finds them while it reads the head, and the router's own dynamic import then
 * finds them loaded. Its first API reads are preloaded from the HTML the same way.
 */
function routeChunks(): Plugin {
  return {
    name: 'packvault:route-chunks',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const closure = (c: Rolldown.OutputChunk, seen: Set<string>) => {
        for (const f of c.imports) {
          if (seen.has(f)) continue;
          seen.add(f);
          const next = bundle[f];
          if (next?.type === 'chunk') closure(next, seen);
        }
        return seen;
      };
      const initial = closure(entry, new Set([entry.fileName]));
      const pagesIndex = readFileSync(path.join(webRoot, 'pages/index.ts'), 'utf8');
      const pageModule = new Map([...pagesIndex.matchAll(/^\s*(\w+): \(\) => import\('(\.\/[^']+)'\)/gm)].map((m) => [m[1]!, m[2]!]));
      // The chunk a module is in: its own, or a group's (codeSplitting.groups below) that took it in.
      const byModule = new Map(chunks.flatMap((c) => c.moduleIds.map((id) => [id.replace(/\.tsx?$/, ''), c] as const)));
      const codeOf = (...modules: string[]) => {
        const seen = new Set<string>();
        for (const m of modules) {
          const chunk = byModule.get(path.join(webRoot, m));
          if (chunk) closure(chunk, seen.add(chunk.fileName));
        }
        return [...seen].filter((f) => !initial.has(f)).map((f) => `/${f}`);
      };
      const map: Record<string, string[]> = {
        // Lazy for visitors (layouts/site-chrome.tsx, signed-in-header.tsx); drawn at once when signed in.
        // Not the account menu: it loads when first wanted.
        [SIGNED_IN_CHROME]: codeOf('layouts/signed-in-header', 'features/notifications/bell'),
        [PROFILE_LAYOUT]: codeOf('layouts/profile-layout'),
      };
      for (const def of ROUTE_LIST) {
        const mod = pageModule.get(def.id);
        // Public and signed-in pages; the back office loads its own way.
        if ((def.access !== 'public' && def.access !== 'user') || def.notFound || !mod) continue;
        const files = codeOf(path.join('pages', mod));
        if (files.length) map[def.id] = files;
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_CHUNKS_FILE, source: JSON.stringify(map) });
    },
  };
}

/**
 * Writes a gzip (level 9) and a brotli (quality 11) copy next to every script and stylesheet the
 * build emits, which the page server sends as they are (`serveStatic({ precompressed: true })`,
 * server/modules/pages/spa.ts). Compressed per request instead, every file was gzipped again on the
 * server's one thread just when a first visit asks for a dozen or more at once; brotli makes the
 * scripts 12 % smaller than gzip (browsers ask for it over HTTPS and from localhost).
 */
function precompress(): Plugin {
  return {
    name: 'packvault:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css)$/.test(fileName)) continue;
        const file = path.join(options.dir!, fileName);
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
      }
    },
  };
}

/** Where the SPA's source maps go: next to dist/web, not in it, so the page server never serves them. */
export const SOURCE_MAPS_DIR = path.resolve(import.meta.dirname, 'dist/sourcemaps');

/**
 * Moves the SPA's source maps out of the served folder. They are built `hidden` (no
 * sourceMappingURL comment, so no browser asks for them) and kept for `npm run bundle:report` and
 * error tracking; served, they would hand out the whole client source. The image leaves them out.
 */
function privateSourceMaps(): Plugin {
  return {
    name: 'packvault:private-source-maps',
    apply: 'build',
    buildStart() {
      rmSync(SOURCE_MAPS_DIR, { recursive: true, force: true });
    },
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!fileName.endsWith('.map')) continue;
        const to = path.join(SOURCE_MAPS_DIR, fileName);
        mkdirSync(path.dirname(to), { recursive: true });
        renameSync(path.join(options.dir!, fileName), to);
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  // @vitejs/plugin-react: JSX through Oxc and React Fast Refresh in `npm run dev` (an edit swaps the
  // component in place, keeping its state). Not the React Compiler: see docs/decisions/0027.
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [routeChunks(), precompress(), privateSourceMaps()])],
  resolve: {
    alias: [
      { find: '@web', replacement: webRoot },
      { find: '@shared', replacement: path.resolve(import.meta.dirname, 'src/shared') },
    ],
  },
  // The server renderer carries its packages (the router, Query, the icons, charts…) inside its
  // bundle: they are browser libraries, development dependencies, so the image's node_modules holds
  // only what the server imports (scripts/runtime-deps.mjs checks both bundles against package.json).
  // React is the exception: the mail templates render with it, so it is installed anyway, and one
  // copy serves both.
  ssr: { noExternal: true, external: ['react', 'react-dom'] },
  build: isSsrBuild
    ? // The public pages' server renderer (entry-server.tsx, docs/decisions/0027), loaded by the
      // page server from dist/ssr. No source maps: node runs without --enable-source-maps.
      { outDir: path.resolve(import.meta.dirname, 'dist/ssr'), emptyOutDir: true, target: 'node20', sourcemap: false, copyPublicDir: false }
    : {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: 'hidden',
    target: 'es2022',
    // No dependency lists for the preload helper: they named every chunk of every page in the
    // entry (4.7 KB gzip on each first visit). A first visit's page chunks are preloaded from the
    // HTML (route-chunks.json, read by the page server); later navigations fetch a page's imports once its chunk arrives (Rolldown
    // hoists transitive imports, so that is one round trip), usually during the hover preload.
    modulePreload: false,
    // One stylesheet, linked from index.html: a page's own few KB of CSS (the card renderer)
    // would otherwise be fetched only after its chunk, and Vite holds the page until it arrives.
    cssCodeSplit: false,
    rolldownOptions: {
      treeshake: {
        // The UI kit's and the features' index.ts only re-export. Marked free of side effects, a
        // page importing one component from them no longer pulls every module they list (Radix
        // dialog, menu, tabs…) into its chunk, or into the entry chunk when the entry uses one.
        moduleSideEffects: [{ test: /\/src\/web\/(components\/ui|features\/[^/]+)\/index\.ts$/, sideEffects: false }],
      },
      output: {
        // V8's explicit compile hint as each script's first line (Chromium 136 and later; other
        // engines read a comment). Without it V8 pre-parses every function and compiles it again,
        // on the main thread, the first time it is called; and nearly every function of a chunk is
        // called as soon as it loads (the entry's router, query cache and React; a page's chunk
        // when the page draws). With it they are compiled on a background thread while the file
        // streams in. Measured in docs/performance.md ("What bounds the figures").
        postBanner: '//# allFunctionsCalledOnLoad',
        codeSplitting: {
          // Everything the entry needs in one file: React, the router, Query and the site chrome
          // are on every page anyway, and each extra file costs a round trip on a phone.
          groups: [
            { name: 'app', tags: ['$initial'] },
            // react-hook-form and its resolvers go together on every form page: one file, one
            // request, and better compression than two. The sign-in pages' resolver (zod-free,
            // features/auth/checks-resolver.ts) comes with it rather than as a file of its own.
            {
              name: 'form-kit',
              test: /\/node_modules\/(react-hook-form|@hookform\/resolvers)\/|\/src\/web\/features\/auth\/checks-resolver\.ts$/,
            },
            // The account fields' rules and the sign-in pages' checks of them (zod-free, on every
            // auth page; account.ts builds the API's schemas from the same rules): one file, not three.
            {
              name: 'account-rules',
              includeDependenciesRecursively: false,
              test: /\/src\/(shared\/contracts\/account-rules|shared\/reserved-names|web\/features\/auth\/form-check)\.ts$/,
            },
            { name: 'shop-kit', test: shopKitTest() },
            // The notice box and its four icons: on almost every page, and split by sharing they
            // were three files (the box, and two icons other modules use too).
            { name: 'notice', test: noticeTest() },
            // The signed-in half of the header (layouts/signed-in-header.tsx) and the bell: on every
            // signed-in page, together; not their imports (Rolldown's default): icons and API
            // modules that a visitor's pages use too would come with it there.
            {
              name: 'signed-in',
              includeDependenciesRecursively: false,
              test: /\/src\/web\/(layouts\/(signed-in-header|account-menu-button|header-balance)|features\/notifications\/(bell|bell-button|inbox)|features\/drops\/win-announcer)\.tsx?$/,
            },
            // The card grids' small shared modules (/cards, the vault, the wishlist and sets): the
            // collection's queries, the wishlist heart, the card renderer's slot, the grid's
            // progressive drawing, the grade badge, the heart icon and the grading and owned-card
            // labels: 0.2–2 KB each, nine files on /collect.
            {
              name: 'collection-kit',
              includeDependenciesRecursively: false,
              test: /\/src\/(web\/features\/collection\/(api|wishlist-heart|card-renderer|format)|web\/hooks\/use-grid-columns|web\/components\/ui\/grade-badge|shared\/contracts\/(grading|owned-cards))\.tsx?$|\/lucide-react\/dist\/esm\/icons\/heart\.mjs$/,
            },
            // Radix's small shared internals (contexts, refs, ids, presence, roving focus…) in one
            // file: split by which pages share them they were five to seven files of 0.3–3 KB on
            // every page with a tab list, a menu or a dialog, each a request on a phone.
            {
              name: 'radix-core',
              test: /\/node_modules\/@radix-ui\/(primitive|number|react-(compose-refs|context|slot|collection|direction|id|presence|primitive|roving-focus|use-[a-z-]+))\//,
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
      '/monitoring': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
}));
