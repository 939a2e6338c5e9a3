import { createRoute } from '@hono/zod-openapi';
import { uploadSchema } from '../../../shared/contracts/catalog.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { actorOf, requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import { audit } from '../audit/service.ts';
import { storeImage, UPLOAD_FILE_RE } from './service.ts';
import { storageFor, type Storage } from './storage.ts';

/** The upload route accepts up to 5 MB of image plus multipart framing; app.ts gives it this limit. */
export const UPLOAD_PATH = '/api/admin/uploads';

export function uploadRoutes(deps: Deps, storage: Storage = storageFor(deps.config.dataDir)) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/uploads',
      tags: ['uploads'],
      summary: 'Upload an image (PNG, JPEG or WebP, at most 5 MB) as multipart field "file"',
      middleware: [requireAdmin],
      description: 'Send multipart/form-data with the image in a field named "file". The type is read from the bytes.',
      responses: {
        201: jsonContent(z.object({ upload: uploadSchema }), 'Stored (or already stored) image'),
        ...errorResponses,
        413: errorResponses[400],
      },
    }),
    async (c) => {
      const actor = actorOf(c);
      const type = c.req.header('content-type') ?? '';
      if (!type.toLowerCase().startsWith('multipart/form-data')) {
        throw badRequest('Send the image as multipart/form-data in a field named "file".', { file: ['Choose an image file.'] });
      }
      let form: Record<string, string | File | (string | File)[]>;
      try {
        form = await c.req.parseBody({ all: false });
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw badRequest('The upload could not be read. Try again.', { file: ['The upload was incomplete.'] });
      }
      const file = form.file;
      if (!(file instanceof File)) throw badRequest('Choose an image file.', { file: ['Choose an image file.'] });
      const data = Buffer.from(await file.arrayBuffer());
      const { upload, created } = await storeImage(deps.db, storage, { data, actorId: actor.userId });
      if (created) {
        await audit(deps.db, {
          actorId: actor.userId,
          action: 'upload.create',
          targetType: 'upload',
          targetId: upload.key,
          before: null,
          after: { ...upload, originalName: file.name.slice(0, 200) },
          ip: clientIp(c, deps.config.trustProxy),
        });
      }
      return c.json({ upload }, 201);
    },
  );

  // Public: card art is shown to everyone. Names are content hashes, so caching forever is safe.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/uploads/{file}',
      tags: ['uploads'],
      summary: 'A stored image variant (WebP)',
      request: { params: z.object({ file: z.string() }) },
      responses: {
        200: { description: 'The image', content: { 'image/webp': { schema: z.any().openapi({ type: 'string', format: 'binary' }) } } },
        404: errorResponses[404],
      },
    }),
    async (c) => {
      const { file } = c.req.valid('param');
      if (!UPLOAD_FILE_RE.test(file)) throw notFound('No such image.');
      const found = await storage.get(file);
      if (!found) throw notFound('No such image.');
      return c.body(new Uint8Array(found.data), 200, {
        'Content-Type': found.contentType,
        'Content-Length': String(found.data.length),
        'Cache-Control': 'public, max-age=31536000, immutable',
      }) as never;
    },
  );
  return app;
}
