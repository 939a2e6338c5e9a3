import { z } from 'zod';

/**
 * A PATCH body from a create schema: every field optional and, unlike zod 4's `.partial()`, with
 * no defaults, so a field the request leaves out stays as it is instead of being reset to its
 * create-time default (`.partial()` keeps `.default()`, which re-activated archived cards and
 * cleared textures on a rename).
 */
export function patchOf<S extends z.ZodObject>(schema: S): ReturnType<S['partial']> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field).optional(),
    ]),
  );
  const catchall = schema.def.catchall;
  const out = catchall ? z.object(shape).catchall(catchall) : z.object(shape);
  return out as unknown as ReturnType<S['partial']>;
}
