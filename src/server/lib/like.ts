/**
 * A "contains" pattern for LIKE/ILIKE from what someone typed: `%` and `_` are wildcards and `\` is
 * Postgres' default escape character, so all three are escaped and "50%" finds "50%", not everything.
 */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}
