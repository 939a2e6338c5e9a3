import { migratePostgresUrl } from '/work/main/src/server/db/migrate.ts';
import { createDatabase, connect, dropDatabase } from '/work/main/bench/lib/pg.ts';
import { seedCatalog, seedUsers, PRODUCT_ID } from '/work/main/bench/lib/seed.ts';
import { startServer } from '/work/main/bench/lib/server.ts';
import { load } from '/work/main/bench/lib/load.ts';
import { userRotation, openOnce } from '/work/main/bench/lib/open.ts';
const url = await createDatabase('pv_bench_dbg');
await migratePostgresUrl(url);
const sql = connect(url, 2);
const exec = (s: string) => sql.unsafe(s) as any;
await seedCatalog(exec, { cards: 1000, stockPerCard: 100000 });
await seedUsers(exec, 50);
await sql.end();
const server = await startServer({ databaseUrl: url, poolSize: 10 });
try {
  console.log(await openOnce(server, 3).then((r) => [r.status, JSON.stringify(r.body).slice(0, 200)]));
  const rot = userRotation(50); await rot.prepare();
  const r = await load({ url: `${server.origin}/api/shop/open`, method: 'POST', body: JSON.stringify({ productId: PRODUCT_ID, quantity: 1 }), connections: 2, duration: 4, perRequest: () => ({ headers: rot.headers(server.origin) }) });
  console.log(r);
} finally { await server.stop(); console.log(server.output().slice(-2000)); await dropDatabase('pv_bench_dbg'); }
