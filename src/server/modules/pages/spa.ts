import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from '@hono/node-server/serve-static';
import { matchRoute } from '../../../shared/routes.ts';
import type { Deps } from '../../deps.ts';
import type { AppEnv } from '../../http/types.ts';
import { webDistDir } from '../../lib/paths.ts';

/**
 * Serves the built SPA: hashed assets with a year of caching, and index.html for every page
 * route — 200 for a route in the table, 404 for the two catch-alls (the SPA then draws the
 * matching not-found page).
 */
export function spaRoutes(deps: Deps, distDir = webDistDir) {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: string | null = null;
  const loadIndex = () => {
    if (indexHtml === null || !deps.config.isProduction) {
      indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
    }
    return indexHtml;
  };

  // gzip the JS/CSS on the way out (perf: ~3× fewer bytes; browsers then cache them for a year).
  app.use('/assets/*', compress());
  if (existsSync(distDir)) app.use(
    '/assets/*',
    serveStatic({
      root: path.relative(process.cwd(), distDir) || '.',
      onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  app.get('/assets/*', (c) => c.text('Not found', 404));
  for (const file of ['favicon.svg', 'robots.txt', 'manifest.webmanifest']) {
    app.get(`/${file}`, serveStatic({ path: path.join(distDir, file), onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=3600') }));
  }

  app.get('*', (c) => {
    const html = loadIndex();
    const route = matchRoute(c.req.path);
    const status = route.notFound ? 404 : 200;
    c.header('Cache-Control', 'no-cache');
    if (!html) {
      return c.html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${deps.config.siteName}</title></head>` +
          `<body><main><h1>${deps.config.siteName}</h1><p>The web app has not been built. Run <code>npm start</code> ` +
          `(which builds it) or <code>npm run dev</code>.</p></main></body></html>`,
        status,
      );
    }
    return c.html(html, status);
  });
  return app;
}
