ALTER TYPE "public"."owned_card_status" ADD VALUE 'revoked';--> statement-breakpoint
CREATE TABLE "buyback_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyback_id" uuid NOT NULL,
	"owned_card_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"market_value_cents" integer NOT NULL,
	"rate_bp" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "buyback_lines_rate_range" CHECK ("buyback_lines"."rate_bp" between 0 and 10000),
	CONSTRAINT "buyback_lines_amount_nonnegative" CHECK ("buyback_lines"."amount_cents" >= 0 and "buyback_lines"."market_value_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "buybacks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"card_count" integer NOT NULL,
	"market_value_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"ledger_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buybacks_card_count_positive" CHECK ("buybacks"."card_count" > 0),
	CONSTRAINT "buybacks_total_nonnegative" CHECK ("buybacks"."total_cents" >= 0),
	CONSTRAINT "buybacks_ledger_when_paid" CHECK (("buybacks"."total_cents" > 0) = ("buybacks"."ledger_entry_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "buyback_lines" ADD CONSTRAINT "buyback_lines_buyback_id_buybacks_id_fk" FOREIGN KEY ("buyback_id") REFERENCES "public"."buybacks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyback_lines" ADD CONSTRAINT "buyback_lines_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyback_lines" ADD CONSTRAINT "buyback_lines_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyback_lines" ADD CONSTRAINT "buyback_lines_class_id_card_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."card_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buybacks" ADD CONSTRAINT "buybacks_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buybacks" ADD CONSTRAINT "buybacks_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "buyback_lines_owned_card_uq" ON "buyback_lines" USING btree ("owned_card_id");--> statement-breakpoint
CREATE INDEX "buyback_lines_buyback_idx" ON "buyback_lines" USING btree ("buyback_id");--> statement-breakpoint
CREATE INDEX "buyback_lines_class_idx" ON "buyback_lines" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "buybacks_user_created_idx" ON "buybacks" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "buybacks_created_idx" ON "buybacks" USING btree ("created_at" DESC NULLS LAST);