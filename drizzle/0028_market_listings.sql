CREATE TYPE "public"."market_listing_state" AS ENUM('active', 'sold', 'delisted', 'expired');--> statement-breakpoint
ALTER TYPE "public"."ledger_account_kind" ADD VALUE 'market_fees';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'market_sale';--> statement-breakpoint
ALTER TYPE "public"."owned_card_status" ADD VALUE 'listed';--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'market_list';--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'market_delist';--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'market_sale';--> statement-breakpoint
CREATE TABLE "market_listings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owned_card_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"seller_id" text NOT NULL,
	"price_cents" integer NOT NULL,
	"fee_bp" integer NOT NULL,
	"min_fee_cents" integer NOT NULL,
	"state" "market_listing_state" DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"expires_at" timestamp with time zone,
	"sold_to" text,
	"sold_at" timestamp with time zone,
	"fee_cents" integer,
	"ledger_entry_id" uuid,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_listings_price_positive" CHECK ("market_listings"."price_cents" > 0),
	CONSTRAINT "market_listings_fee_terms" CHECK ("market_listings"."fee_bp" between 0 and 10000 and "market_listings"."min_fee_cents" >= 0),
	CONSTRAINT "market_listings_sold" CHECK (("market_listings"."state" = 'sold') = ("market_listings"."sold_to" is not null and "market_listings"."sold_at" is not null and "market_listings"."fee_cents" is not null))
);
--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_ledger_entry_id_journal_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_listings_one_active_uq" ON "market_listings" USING btree ("owned_card_id") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_card_price_idx" ON "market_listings" USING btree ("card_id","price_cents") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_price_idx" ON "market_listings" USING btree ("price_cents","id") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_created_idx" ON "market_listings" USING btree ("created_at" DESC NULLS LAST,"id") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_expiry_idx" ON "market_listings" USING btree ("expires_at") WHERE "market_listings"."state" = 'active' and "market_listings"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "market_listings_seller_idx" ON "market_listings" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_listings_buyer_idx" ON "market_listings" USING btree ("sold_to","sold_at" DESC NULLS LAST) WHERE "market_listings"."sold_to" is not null;