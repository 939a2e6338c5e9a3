import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { ROUTE_LIST } from './src/shared/routes.ts';
import { earlyRequests } from './src/shared/early-requests.ts';

const apiPort = Number(process.env.API_PORT ?? 3001);
const webRoot = path.resolve(import.meta.dirname, 'src/web');

/**
 * Lets a first visit fetch its page's code and first data together with the app instead of after
 * it. Without this, the router only asks for the page chunk (and its imports) once the entry chunk
 * has been downloaded and run, and the page's API reads start only after that: each an extra
 * round trip, plus the entry's download time, before the page can show anything real.
 *
 * At build time it maps every public route of the route table to the chunks its page needs
 * beyond the entry (from pages/index.ts), and writes a tiny script that adds
 * `<link rel="modulepreload">` for the current path's chunks and sends the page's first API reads
 * (src/shared/early-requests.ts; api.ts takes their answers). The page server preloads the same
 * reads from the HTML, and these fetches, made with the same mode and credentials, take those
 * answers. It is an external file because the CSP allows no inline script. The router's own dynamic import then finds the chunks loaded.
 */
function routePreload(): Plugin {
  return {
    name: 'packvault:route-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const html = bundle['index.html'];
      if (!entry || !html || html.type !== 'asset') return;
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
      const byModule = new Map(
        chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!.replace(/\.tsx?$/, ''), c]),
      );
      const files: string[] = [];
      const table: Array<[string, number[]]> = [];
      for (const def of ROUTE_LIST) {
        const mod = pageModule.get(def.id);
        if (def.access !== 'public' || def.notFound || !mod) continue;
        const chunk = byModule.get(path.join(webRoot, 'pages', mod));
        if (!chunk) continue;
        const needed = [...closure(chunk, new Set([chunk.fileName]))].filter((f) => !initial.has(f));
        const ids = needed.map((f) => f.replace(/^assets\/(.*)\.js$/, "$1")).map((f) => (files.includes(f) ? files.indexOf(f) : files.push(f) - 1));
        table.push([`^${def.path.replace(/\$[A-Za-z]\w*/g, '[^/]+')}/?$`, ids]);
      }
      const source =
        `const F=${JSON.stringify(files)},T=${JSON.stringify(table)},p=location.pathname;` +
        `for(const[r,i]of T)if(new RegExp(r).test(p)){for(const n of i){const l=document.createElement("link");` +
        `l.rel="modulepreload";l.crossOrigin="";l.href="/assets/"+F[n]+".js";document.head.appendChild(l)}break}\n` +
        `const E=${earlyRequests.toString()},A=new Map;` +
        `for(const u of E(p,new URLSearchParams(location.search))){` +
        `const f=fetch(u,{credentials:"same-origin",headers:{Accept:"application/json"}});f.catch(()=>{});A.set(u,[performance.now(),f])}` +
        `globalThis.__pvEarly=A;\n`;
      const fileName = `assets/route-preload-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      html.source = String(html.source).replace(
        /(\s*)<script type="module"/,
        `$1<script type="module" async crossorigin src="/${fileName}"></script>$1<script type="module"`,
      );
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), routePreload()],
  resolve: {
    alias: {
      '@web': webRoot,
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // No dependency lists for the preload helper: they named every chunk of every page in the
    // entry (4.7 KB gzip on each first visit). A first visit's page chunks are preloaded by
    // route-preload; later navigations fetch a page's imports once its chunk arrives (Rolldown
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
        codeSplitting: {
          // Everything the entry needs in one file: React, the router, Query and the site chrome
          // are on every page anyway, and each extra file costs a round trip on a phone.
          groups: [{ name: 'app', tags: ['$initial'] }],
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
});
