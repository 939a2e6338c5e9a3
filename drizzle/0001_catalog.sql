CREATE TABLE "architects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"frame_image_key" text NOT NULL,
	"layout" jsonb NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_classes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"colour" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"default_texture_id" uuid,
	"buyback_rate_bp" integer,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_classes_buyback_range" CHECK ("card_classes"."buyback_rate_bp" is null or "card_classes"."buyback_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"set_name" text NOT NULL,
	"number" integer NOT NULL,
	"class_id" uuid NOT NULL,
	"architect_id" uuid NOT NULL,
	"texture_id" uuid,
	"image_key" text NOT NULL,
	"value_cents" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cards_stock_nonnegative" CHECK ("cards"."stock" >= 0),
	CONSTRAINT "cards_value_nonnegative" CHECK ("cards"."value_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"delta" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"reason" text NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "textures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"image_key" text NOT NULL,
	"blend_mode" text NOT NULL,
	"opacity" integer NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "textures_opacity_range" CHECK ("textures"."opacity" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"mime" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"variants" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "architects" ADD CONSTRAINT "architects_frame_image_key_uploads_key_fk" FOREIGN KEY ("frame_image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_classes" ADD CONSTRAINT "card_classes_default_texture_id_textures_id_fk" FOREIGN KEY ("default_texture_id") REFERENCES "public"."textures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_class_id_card_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."card_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_architect_id_architects_id_fk" FOREIGN KEY ("architect_id") REFERENCES "public"."architects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_texture_id_textures_id_fk" FOREIGN KEY ("texture_id") REFERENCES "public"."textures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_image_key_uploads_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "textures" ADD CONSTRAINT "textures_image_key_uploads_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "architects_name_idx" ON "architects" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "card_classes_name_unique" ON "card_classes" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "card_classes_sort_idx" ON "card_classes" USING btree ("sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_set_number_unique" ON "cards" USING btree ("set_name","number");--> statement-breakpoint
CREATE INDEX "cards_public_value_idx" ON "cards" USING btree ("value_cents" DESC NULLS LAST,"id") WHERE "cards"."active";--> statement-breakpoint
CREATE INDEX "cards_public_name_idx" ON "cards" USING btree (lower("name"),"id") WHERE "cards"."active";--> statement-breakpoint
CREATE INDEX "cards_public_newest_idx" ON "cards" USING btree ("created_at" DESC NULLS LAST,"id") WHERE "cards"."active";--> statement-breakpoint
CREATE INDEX "cards_public_class_value_idx" ON "cards" USING btree ("class_id","value_cents" DESC NULLS LAST) WHERE "cards"."active";--> statement-breakpoint
CREATE INDEX "cards_public_set_value_idx" ON "cards" USING btree ("set_name","value_cents" DESC NULLS LAST) WHERE "cards"."active";--> statement-breakpoint
CREATE INDEX "cards_class_idx" ON "cards" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "cards_architect_idx" ON "cards" USING btree ("architect_id");--> statement-breakpoint
CREATE INDEX "cards_texture_idx" ON "cards" USING btree ("texture_id");--> statement-breakpoint
CREATE INDEX "cards_image_idx" ON "cards" USING btree ("image_key");--> statement-breakpoint
CREATE INDEX "cards_created_idx" ON "cards" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "cards_stock_idx" ON "cards" USING btree ("stock");--> statement-breakpoint
CREATE INDEX "stock_adjustments_card_idx" ON "stock_adjustments" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "textures_name_idx" ON "textures" USING btree (lower("name"));