-- Hand-written (issue 38): the dashboard's rollups gain the card facts behind the gross margin
-- ('awarded', 'buyback' and 'revoked' rows of dashboard_hourly / dashboard_daily). Hours rolled
-- before this release lack them, so the rollups start again from the raw rows: with no
-- rolled_until, the dashboard reads the raw rows (correct, only slower) until the next
-- dashboard-rollup run, which rolls everything from scratch (modules/dashboard/rollup.ts).
DELETE FROM "dashboard_rollup_state";
