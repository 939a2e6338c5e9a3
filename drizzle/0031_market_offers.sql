CREATE TYPE "public"."market_offer_side" AS ENUM('buyer', 'seller');--> statement-breakpoint
CREATE TYPE "public"."market_offer_state" AS ENUM('open', 'countered', 'accepted', 'rejected', 'cancelled', 'expired', 'lapsed');--> statement-breakpoint
ALTER TYPE "public"."ledger_account_kind" ADD VALUE 'user_hold';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'market_hold';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'market_release';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'market_offer' BEFORE 'security';--> statement-breakpoint
CREATE TABLE "market_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid,
	"card_id" uuid NOT NULL,
	"buyer_id" text NOT NULL,
	"seller_id" text,
	"side" "market_offer_side" DEFAULT 'buyer' NOT NULL,
	"amount_cents" integer NOT NULL,
	"held_cents" integer DEFAULT 0 NOT NULL,
	"state" "market_offer_state" DEFAULT 'open' NOT NULL,
	"counter_of" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"owned_card_id" uuid,
	"fee_cents" integer,
	"ledger_entry_id" uuid,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_offers_amount_positive" CHECK ("market_offers"."amount_cents" > 0),
	CONSTRAINT "market_offers_held" CHECK ("market_offers"."held_cents" >= 0 and ("market_offers"."state" = 'open' or "market_offers"."held_cents" = 0)),
	CONSTRAINT "market_offers_counter" CHECK ("market_offers"."side" = 'buyer' or ("market_offers"."listing_id" is not null and "market_offers"."counter_of" is not null)),
	CONSTRAINT "market_offers_accepted" CHECK (("market_offers"."state" = 'accepted') = ("market_offers"."ledger_entry_id" is not null and "market_offers"."owned_card_id" is not null and "market_offers"."fee_cents" is not null))
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_owner";--> statement-breakpoint
ALTER TABLE "balances" ADD COLUMN "hold_account_id" uuid;--> statement-breakpoint
ALTER TABLE "balances" ADD COLUMN "held_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "sold_price_cents" integer;--> statement-breakpoint
ALTER TABLE "market_offers" ADD CONSTRAINT "market_offers_listing_id_market_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."market_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_offers" ADD CONSTRAINT "market_offers_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_offers" ADD CONSTRAINT "market_offers_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_offers" ADD CONSTRAINT "market_offers_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_offers" ADD CONSTRAINT "market_offers_ledger_entry_id_journal_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_offers_open_listing_uq" ON "market_offers" USING btree ("listing_id","buyer_id") WHERE "market_offers"."state" = 'open' and "market_offers"."listing_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "market_offers_open_card_uq" ON "market_offers" USING btree ("card_id","buyer_id") WHERE "market_offers"."state" = 'open' and "market_offers"."listing_id" is null;--> statement-breakpoint
CREATE INDEX "market_offers_buyer_idx" ON "market_offers" USING btree ("buyer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_offers_seller_idx" ON "market_offers" USING btree ("seller_id","created_at" DESC NULLS LAST) WHERE "market_offers"."seller_id" is not null;--> statement-breakpoint
CREATE INDEX "market_offers_open_listing_idx" ON "market_offers" USING btree ("listing_id") WHERE "market_offers"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_offers_open_card_idx" ON "market_offers" USING btree ("card_id","created_at" DESC NULLS LAST) WHERE "market_offers"."state" = 'open' and "market_offers"."listing_id" is null;--> statement-breakpoint
CREATE INDEX "market_offers_open_expiry_idx" ON "market_offers" USING btree ("expires_at") WHERE "market_offers"."state" = 'open';--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_hold_account_id_ledger_accounts_id_fk" FOREIGN KEY ("hold_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "balances_hold_account_uq" ON "balances" USING btree ("hold_account_id");--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_held_non_negative" CHECK ("balances"."held_cents" >= 0);--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_held_has_account" CHECK ("balances"."held_cents" = 0 or "balances"."hold_account_id" is not null);--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner" CHECK (("ledger_accounts"."kind"::text in ('user_wallet', 'user_hold')) = ("ledger_accounts"."user_id" is not null) and ("ledger_accounts"."code" is null) = ("ledger_accounts"."user_id" is not null));