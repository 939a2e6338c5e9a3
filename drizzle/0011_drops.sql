CREATE TYPE "public"."drop_status" AS ENUM('scheduled', 'open', 'drawing', 'closed', 'cancelled');--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'drop_reserve';--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'drop_release';--> statement-breakpoint
CREATE TABLE "drop_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"drop_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"public_id" text NOT NULL,
	"in_draw" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_prizes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"drop_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "drop_prizes_quantity" CHECK ("drop_prizes"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "drop_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_key" text,
	"open_time" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"winner_count" integer NOT NULL,
	"verified_email_required" boolean DEFAULT true NOT NULL,
	"min_account_age_days" integer DEFAULT 0 NOT NULL,
	"prizes" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_winners" (
	"drop_id" uuid NOT NULL,
	"place" integer NOT NULL,
	"entry_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"card_id" uuid NOT NULL,
	"owned_card_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drop_winners_drop_id_place_pk" PRIMARY KEY("drop_id","place")
);
--> statement-breakpoint
CREATE TABLE "drops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_key" text,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"winner_count" integer NOT NULL,
	"verified_email_required" boolean DEFAULT true NOT NULL,
	"min_account_age_days" integer DEFAULT 0 NOT NULL,
	"status" "drop_status" DEFAULT 'scheduled' NOT NULL,
	"seed" text,
	"commitment" text,
	"entry_list_hash" text,
	"entry_count" integer,
	"drawn_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"template_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drops_closes_after_opens" CHECK ("drops"."closes_at" > "drops"."opens_at"),
	CONSTRAINT "drops_winner_count" CHECK ("drops"."winner_count" >= 1),
	CONSTRAINT "drops_seed_when_open" CHECK ("drops"."status" in ('scheduled', 'cancelled') or ("drops"."seed" is not null and "drops"."commitment" is not null))
);
--> statement-breakpoint
ALTER TABLE "drop_entries" ADD CONSTRAINT "drop_entries_drop_id_drops_id_fk" FOREIGN KEY ("drop_id") REFERENCES "public"."drops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_entries" ADD CONSTRAINT "drop_entries_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_prizes" ADD CONSTRAINT "drop_prizes_drop_id_drops_id_fk" FOREIGN KEY ("drop_id") REFERENCES "public"."drops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_prizes" ADD CONSTRAINT "drop_prizes_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_templates" ADD CONSTRAINT "drop_templates_image_key_uploads_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_templates" ADD CONSTRAINT "drop_templates_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_winners" ADD CONSTRAINT "drop_winners_drop_id_drops_id_fk" FOREIGN KEY ("drop_id") REFERENCES "public"."drops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_winners" ADD CONSTRAINT "drop_winners_entry_id_drop_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."drop_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_winners" ADD CONSTRAINT "drop_winners_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_winners" ADD CONSTRAINT "drop_winners_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_winners" ADD CONSTRAINT "drop_winners_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drops" ADD CONSTRAINT "drops_image_key_uploads_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drops" ADD CONSTRAINT "drops_template_id_drop_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."drop_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drops" ADD CONSTRAINT "drops_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drop_entries_drop_user_uq" ON "drop_entries" USING btree ("drop_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drop_entries_drop_public_uq" ON "drop_entries" USING btree ("drop_id","public_id");--> statement-breakpoint
CREATE INDEX "drop_entries_user_idx" ON "drop_entries" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drop_prizes_drop_card_uq" ON "drop_prizes" USING btree ("drop_id","card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drop_winners_entry_uq" ON "drop_winners" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "drop_winners_user_idx" ON "drop_winners" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "drops_status_opens_idx" ON "drops" USING btree ("status","opens_at");--> statement-breakpoint
CREATE INDEX "drops_status_closes_idx" ON "drops" USING btree ("status","closes_at");--> statement-breakpoint
CREATE INDEX "drops_drawn_idx" ON "drops" USING btree ("drawn_at");--> statement-breakpoint
CREATE UNIQUE INDEX "drops_template_opens_uq" ON "drops" USING btree ("template_id","opens_at");