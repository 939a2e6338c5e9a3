import { connect } from './pg.ts';
import { log } from './util.ts';

/**
 * PostgreSQL's autoanalyze, done by the bench when the server runs with `autovacuum = off` (this
 * machine's PostgreSQL does).
 *
 * Why it matters: each foreign-key check is a small query that a backend plans once and keeps for
 * the life of its connection. Planned while `purchases` and `openings` were empty, it is a
 * sequential scan, and without an ANALYZE nothing tells the backend to plan it again: every check
 * then reads the whole table, so a run slowed down as its own openings piled up (one pair of
 * servers went from 470 to 215 opens/s over two minutes, with 384 million tuples read by 41,000
 * sequential scans of `openings`). A production server analyzes a table once its changes pass
 * 50 rows + 10 % of its size, which also makes every backend plan those checks again. This does
 * that for the tables that grow (rule below, checked once a second), so every phase measures a
 * database in the state a real one is in: checks planned for the size its tables have.
 */
export function startAutoanalyze(url: string): { stop: () => Promise<void> } {
  const sql = connect(url, 1);
  let stopped = false;
  let analyzed = 0;
  const loop = (async () => {
    const [setting] = await sql<Array<{ on: boolean }>>`select current_setting('autovacuum') = 'on' as on`;
    if (setting?.on) return;
    while (!stopped) {
      // A table is analyzed when it has doubled (plus 50 rows) since its last ANALYZE: what makes
      // a backend re-plan a check is a table outgrowing its first plan, and doubling does that in a
      // few ANALYZE runs per table. Autovacuum's own rule (50 rows + 10 % of changes, updates
      // included), checked every second, ran ANALYZE 330 times in two minutes: more database work
      // than the plans it fixes, and more than a real server's autovacuum (one visit per minute).
      const due = await sql<Array<{ name: string }>>`
        select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.n_live_tup > 50 + 2 * greatest(c.reltuples, 0)`;
      for (const t of due) {
        if (stopped) break;
        await sql.unsafe(`analyze ${t.name}`);
        analyzed++;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })().catch((err: Error) => log(`autoanalyze stopped: ${err.message}`));
  return {
    async stop() {
      stopped = true;
      await loop;
      await sql.end();
      if (analyzed) log(`autoanalyze (autovacuum is off on this server): ${analyzed} ANALYZE runs on ${new URL(url).pathname.slice(1)}`);
    },
  };
}
