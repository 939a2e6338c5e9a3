CREATE TABLE "card_value_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"value_cents" integer NOT NULL,
	"source" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_value_history_value_nonnegative" CHECK ("card_value_history"."value_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "grading_company" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "grade" numeric(3, 1);--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "cert_number" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "front_photo_key" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "back_photo_key" text;--> statement-breakpoint
ALTER TABLE "card_value_history" ADD CONSTRAINT "card_value_history_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_value_history_card_idx" ON "card_value_history" USING btree ("card_id","recorded_at");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_front_photo_key_uploads_key_fk" FOREIGN KEY ("front_photo_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_back_photo_key_uploads_key_fk" FOREIGN KEY ("back_photo_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cards_cert_unique" ON "cards" USING btree ("grading_company","cert_number");--> statement-breakpoint
CREATE INDEX "cards_public_graded_value_idx" ON "cards" USING btree ("value_cents" DESC NULLS LAST,"id") WHERE "cards"."active" and "cards"."grading_company" is not null;--> statement-breakpoint
CREATE INDEX "cards_front_photo_idx" ON "cards" USING btree ("front_photo_key");--> statement-breakpoint
CREATE INDEX "cards_back_photo_idx" ON "cards" USING btree ("back_photo_key");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_grading_company" CHECK ("cards"."grading_company" in ('PSA', 'BGS', 'CGC'));--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_grading_complete" CHECK (("cards"."grading_company" is null and "cards"."grade" is null and "cards"."cert_number" is null) or ("cards"."grading_company" is not null and "cards"."grade" between 1 and 10 and "cards"."cert_number" is not null));--> statement-breakpoint
-- Cards that exist before the history starts get their value now as the first point.
INSERT INTO "card_value_history" ("card_id", "value_cents", "source", "recorded_at") SELECT "id", "value_cents", 'created', "created_at" FROM "cards";
