CREATE TYPE "public"."stock_movement_reason" AS ENUM('initial', 'admin_adjust', 'csv_import', 'pack_open', 'grant', 'drop', 'buyback_return', 'revoke', 'ship', 'ship_cancel', 'ship_dispatch', 'ship_deliver');--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"delta" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"reason" "stock_movement_reason" NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"note" text,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_card_idx" ON "stock_movements" USING btree ("card_id","created_at");--> statement-breakpoint
-- Data (issue 14, not generated): the history so far, so that each card's movements sum to its
-- stock. The manual changes logged in stock_adjustments are copied with their own text as the
-- note (that table stays, written by the inventory module only, for the catalog's history).
INSERT INTO "stock_movements" ("id", "card_id", "delta", "stock_after", "reason", "reference_type", "reference_id", "note", "actor_id", "created_at")
SELECT a."id", a."card_id", a."delta", a."stock_after",
  (CASE WHEN a."reason" IN ('Initial stock', 'Demo seed') THEN 'initial'
        WHEN a."reason" = 'CSV import' THEN 'csv_import'
        WHEN a."reason" LIKE 'Buyback %' THEN 'buyback_return'
        WHEN a."reason" LIKE 'Granted to %' THEN 'grant'
        WHEN a."reason" LIKE 'Revoked from %' THEN 'revoke'
        ELSE 'admin_adjust' END)::"stock_movement_reason",
  CASE WHEN a."reason" LIKE 'Buyback %' THEN 'buyback' END,
  CASE WHEN a."reason" LIKE 'Buyback %' THEN substr(a."reason", 9) END,
  a."reason", a."actor_id", a."created_at"
FROM "stock_adjustments" a;--> statement-breakpoint
-- Pack openings (and copies put in vaults by hand) were never logged: one 'pack_open' row per card
-- takes the copies that are out of stock today and not explained by a logged grant, sale or
-- revocation; then one 'initial' row explains the rest, so that for every card
--   sum(delta) = stock   and   stock + copies out of stock = initial + adjustments + imports.
WITH m AS (
  SELECT c."id" AS card_id, c."stock", c."created_at",
    coalesce((SELECT sum(s."delta") FROM "stock_movements" s WHERE s."card_id" = c."id"), 0) AS net,
    coalesce((SELECT sum(s."delta") FROM "stock_movements" s WHERE s."card_id" = c."id"
      AND s."reason" IN ('pack_open', 'grant', 'drop', 'buyback_return', 'revoke')), 0) AS circ,
    (SELECT count(*) FROM "owned_cards" o WHERE o."card_id" = c."id"
      AND o."status" IN ('in_vault', 'in_shipment', 'shipped', 'delivered')) AS out_of_stock
  FROM "cards" c
), r AS (
  SELECT card_id, stock, created_at, (-out_of_stock - circ)::int AS taken, (stock - net + out_of_stock + circ)::int AS initial FROM m
)
INSERT INTO "stock_movements" ("card_id", "delta", "stock_after", "reason", "note", "created_at")
SELECT card_id, initial, initial, 'initial'::"stock_movement_reason", 'Stock before the movement history (migration)', created_at FROM r WHERE initial <> 0
UNION ALL
SELECT card_id, taken, stock, 'pack_open'::"stock_movement_reason", 'Copies out of stock before the movement history: pack openings (migration)', now() FROM r WHERE taken <> 0;
