CREATE TABLE "card_value_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"from_cents" integer NOT NULL,
	"to_cents" integer NOT NULL,
	"proposed_by" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_value_proposals_values_nonnegative" CHECK ("card_value_proposals"."from_cents" >= 0 and "card_value_proposals"."to_cents" >= 0),
	CONSTRAINT "card_value_proposals_status" CHECK ("card_value_proposals"."status" in ('pending', 'approved', 'rejected', 'superseded'))
);
--> statement-breakpoint
ALTER TABLE "card_value_proposals" ADD CONSTRAINT "card_value_proposals_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_value_proposals" ADD CONSTRAINT "card_value_proposals_proposed_by_user_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_value_proposals" ADD CONSTRAINT "card_value_proposals_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_value_proposals_one_pending" ON "card_value_proposals" USING btree ("card_id") WHERE "card_value_proposals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "card_value_proposals_status_idx" ON "card_value_proposals" USING btree ("status","created_at" DESC NULLS LAST);