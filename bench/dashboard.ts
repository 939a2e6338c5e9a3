// `node --import tsx bench/dashboard.ts`: the admin dashboard at ~1M ledger postings on
// PostgreSQL (issue 18); the same as `npm run bench -- --only=dashboard` (bench/lib/dashboard.ts).
// Flags: --keep (leave the database), --db=NAME (reuse one a --keep run left: no seed),
// --users=N, --entries=N (journal entries; each has two postings), --rounds=N (requests per case).
import { dashboardBench, dashboardTable } from './lib/dashboard.ts';

const value = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const arg = (name: string, d: number) => Number(value(name) ?? d);

dashboardBench({
  users: arg('users', 20_000),
  entries: arg('entries', 500_000),
  rounds: arg('rounds', 40),
  keep: process.argv.includes('--keep'),
  ...(value('db') ? { database: value('db') } : {}),
}).then(
  (r) => {
    console.log(`\n${dashboardTable(r)}`);
    if (r.database && process.argv.includes('--keep')) console.log(`kept database ${r.database}`);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
