import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { loopbackOnly } from '../../http/loopback.ts';
import { createRouter, jsonContent, z } from '../../http/openapi.ts';
import { listMailbox } from './service.ts';

const mailboxItemSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  kind: z.string(),
  links: z.array(z.string()),
  status: z.string(),
  attempts: z.number().int(),
  createdAt: z.string(),
});

/**
 * GET /api/dev/mailbox — the development mailbox. Not registered at all in production; in
 * development it answers only to a loopback socket peer (it lists every reset link).
 */
export function mailRoutes(deps: Deps) {
  const app = createRouter();
  if (deps.config.isProduction) return app;
  app.openapi(
    createRoute({
      method: 'get',
      path: '/dev/mailbox',
      tags: ['dev'],
      summary: 'Mail the app sent (development only, from this machine only)',
      middleware: [loopbackOnly(deps.config, 'The development mailbox')] as const,
      request: { query: z.object({ to: z.string().max(254).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }) },
      responses: { 200: jsonContent(z.object({ items: z.array(mailboxItemSchema) }), 'Newest first') },
    }),
    async (c) => {
      const { to, limit } = c.req.valid('query');
      return c.json({ items: await listMailbox(deps, to, limit) }, 200);
    },
  );
  return app;
}
