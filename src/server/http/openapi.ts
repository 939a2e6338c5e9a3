import { OpenAPIHono, z } from '@hono/zod-openapi';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { errorBody, notFound, zodFields } from './errors.ts';
import type { AppEnv } from './types.ts';

/**
 * Every module builds its routes with this, so a zod failure anywhere answers the same
 * 400 shape with per-field messages (404 for path params), and every route lands in /api/openapi.json.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        // A path id that cannot exist names nothing, like an unknown one: the same 404, so the
        // pages show their not-found state. Query and body failures stay a 400 with field messages.
        if (result.target === 'param') return c.json(errorBody(notFound()), 404);
        return c.json(
          errorBody({
            code: 'validation_failed',
            message: 'Some fields need attention.',
            fields: zodFields(result.error),
          }),
          400,
        );
      }
    },
  });
}

/** Reusable OpenAPI response entries for the error shape. */
const errorContent = { 'application/json': { schema: apiErrorSchema } };
export const errorResponses = {
  400: { description: 'Invalid input', content: errorContent },
  401: { description: 'Not signed in', content: errorContent },
  403: { description: 'Not allowed', content: errorContent },
  404: { description: 'Not found', content: errorContent },
  409: { description: 'Conflict', content: errorContent },
  429: { description: 'Too many requests', content: errorContent },
} as const;

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export { z };
