import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The extensions the migrations create (0036: pg_trgm, for the cards' name index). PGlite has no
 * shared library directory: every PGlite this app opens must load them itself, or a statement that
 * touches such an index fails. So every PGlite is made here.
 */
export function createPglite(dataDir?: string, options: Omit<PGliteOptions, 'dataDir'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, ...(dataDir ? { dataDir } : {}), extensions: { ...options.extensions, pg_trgm } });
}
