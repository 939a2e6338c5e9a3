CREATE TYPE "public"."market_swap_state" AS ENUM('open', 'accepted', 'declined', 'cancelled', 'expired', 'stale');--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'market_swap';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'market_swap' BEFORE 'security';--> statement-breakpoint
CREATE TABLE "market_binder" (
	"owned_card_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"card_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_binder_owned_card_id_user_id_pk" PRIMARY KEY("owned_card_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "market_swap_items" (
	"swap_id" uuid NOT NULL,
	"owned_card_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"from_proposer" boolean NOT NULL,
	CONSTRAINT "market_swap_items_swap_id_owned_card_id_pk" PRIMARY KEY("swap_id","owned_card_id")
);
--> statement-breakpoint
CREATE TABLE "market_swaps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proposer_id" text NOT NULL,
	"recipient_id" text NOT NULL,
	"cash_cents" integer DEFAULT 0 NOT NULL,
	"held_cents" integer DEFAULT 0 NOT NULL,
	"state" "market_swap_state" DEFAULT 'open' NOT NULL,
	"fee_cents" integer,
	"ledger_entry_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_swaps_two_parties" CHECK ("market_swaps"."proposer_id" <> "market_swaps"."recipient_id"),
	CONSTRAINT "market_swaps_held" CHECK ("market_swaps"."held_cents" >= 0 and "market_swaps"."held_cents" <= greatest("market_swaps"."cash_cents", 0) and ("market_swaps"."state" = 'open' or "market_swaps"."held_cents" = 0))
);
--> statement-breakpoint
ALTER TABLE "market_binder" ADD CONSTRAINT "market_binder_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_binder" ADD CONSTRAINT "market_binder_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_binder" ADD CONSTRAINT "market_binder_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_swap_items" ADD CONSTRAINT "market_swap_items_swap_id_market_swaps_id_fk" FOREIGN KEY ("swap_id") REFERENCES "public"."market_swaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_swap_items" ADD CONSTRAINT "market_swap_items_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_swap_items" ADD CONSTRAINT "market_swap_items_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_swaps" ADD CONSTRAINT "market_swaps_proposer_id_user_id_fk" FOREIGN KEY ("proposer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_swaps" ADD CONSTRAINT "market_swaps_recipient_id_user_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_swaps" ADD CONSTRAINT "market_swaps_ledger_entry_id_journal_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_binder_card_idx" ON "market_binder" USING btree ("card_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_binder_user_idx" ON "market_binder" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_swap_items_copy_idx" ON "market_swap_items" USING btree ("owned_card_id");--> statement-breakpoint
CREATE INDEX "market_swaps_proposer_idx" ON "market_swaps" USING btree ("proposer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_swaps_recipient_idx" ON "market_swaps" USING btree ("recipient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_swaps_open_expiry_idx" ON "market_swaps" USING btree ("expires_at") WHERE "market_swaps"."state" = 'open';