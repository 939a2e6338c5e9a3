import { createRoute } from '@hono/zod-openapi';
import { pullIdSchema, sharedPullSchema } from '../../../shared/contracts/pulls.ts';
import type { Deps } from '../../deps.ts';
import { clientAddressKey } from '../../http/client-ip.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import { etagMatches } from '../catalog/response-cache.ts';
import { storageFor, type Storage } from '../uploads/storage.ts';
import { ogFingerprint, renderOgImage } from './og.ts';
import { getSharedPull } from './service.ts';

const params = z.object({ id: pullIdSchema });
// Rendering takes tens of milliseconds: keep the latest few, keyed by what they show.
const OG_CACHE_MAX = 64;

/** Public pulls (issue 19 item 2): a pull's page data and its link-preview image. */
export function pullsRoutes(deps: Deps, storage: Storage = storageFor(deps.config.dataDir)) {
  const app = createRouter();
  const { db, config } = deps;
  const rendered = new Map<string, Buffer>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/pulls/{id}',
      tags: ['pulls'],
      summary: 'One pull, public: the card, the pack, the puller’s username, when, and the opening’s commitment',
      request: { params },
      responses: { 200: jsonContent(sharedPullSchema, 'Pull'), ...errorResponses },
    }),
    async (c) => {
      const data = await getSharedPull(db, c.req.valid('param').id);
      c.header('Cache-Control', 'public, max-age=60');
      return c.json(data, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/pulls/{id}/og.png',
      tags: ['pulls'],
      summary: 'The pull’s Open Graph image (1200×630 PNG)',
      request: { params },
      responses: {
        200: { description: 'The image', content: { 'image/png': { schema: z.any().openapi({ type: 'string', format: 'binary' }) } } },
        304: { description: 'Not modified (ETag)' },
        404: errorResponses[404],
        429: errorResponses[429],
      },
    }),
    async (c) => {
      const data = await getSharedPull(db, c.req.valid('param').id);
      const input = { data, siteName: config.siteName, currency: config.currency };
      const etag = ogFingerprint(input);
      // A day fresh, then revalidated by ETag: the pull never changes, a renamed card or user rarely.
      const headers = { ETag: etag, 'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800' };
      if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers) as never;
      let png = rendered.get(etag);
      if (!png) {
        // A render costs 100–180 ms of CPU: each address may start only so many a minute (issue 39).
        await enforceRateLimit(deps.dbh, `og-render:${clientAddressKey(c, config.trustProxy)}`, config.ogRendersPerMinute ?? 20, 60);
        png = await renderOgImage(input, storage);
        rendered.set(etag, png);
        if (rendered.size > OG_CACHE_MAX) rendered.delete(rendered.keys().next().value!);
      }
      return c.body(new Uint8Array(png), 200, { ...headers, 'Content-Type': 'image/png', 'Content-Length': String(png.length) }) as never;
    },
  );
  return app;
}
