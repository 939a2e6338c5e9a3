-- Stock takes stay HOT updates (docs/decisions/0021): no index may name cards.stock, and each page
-- keeps room for the new row versions. Pages written before this fill up to 85 % from now on;
-- PostgreSQL's page pruning already frees room on the older ones.
DROP INDEX IF EXISTS "cards_stock_idx";--> statement-breakpoint
ALTER TABLE "cards" SET (fillfactor = 85);
