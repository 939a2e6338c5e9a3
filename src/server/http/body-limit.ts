import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './types.ts';

/**
 * hono's bodyLimit, minus one cost. It first looks at `c.req.raw.body`, and on @hono/node-server
 * that one property access builds a whole web Request (undici, a web stream over the socket)
 * for every POST, where the server would otherwise read the body straight off the socket when the
 * route parses it: about 5 % of a pack opening's CPU. With a Content-Length and no
 * Transfer-Encoding, Node's parser delivers exactly that many bytes, so the header decides, as in
 * hono's own check; anything else (chunked, or no length at all) goes through hono's bodyLimit,
 * which counts the bytes as they arrive.
 */
export function limitBody(maxSize: number, onError: (c: Context<AppEnv>) => Response | Promise<Response>): MiddlewareHandler<AppEnv> {
  const counted = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return counted(c, next);
    if (Number.parseInt(length, 10) > maxSize) return onError(c);
    await next();
  };
}
