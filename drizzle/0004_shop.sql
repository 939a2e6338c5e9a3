CREATE TYPE "public"."acquired_via" AS ENUM('opening', 'drop', 'grant');--> statement-breakpoint
CREATE TYPE "public"."owned_card_status" AS ENUM('in_vault', 'in_shipment', 'shipped', 'delivered', 'sold_back');--> statement-breakpoint
CREATE TYPE "public"."product_status" AS ENUM('draft', 'live', 'archived');--> statement-breakpoint
CREATE TABLE "fairness_pools" (
	"hash" text PRIMARY KEY NOT NULL,
	"classes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "openings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"user_pack_id" uuid NOT NULL,
	"purchase_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"pack_id" uuid NOT NULL,
	"seed_id" uuid NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"nonce" integer NOT NULL,
	"slots" jsonb NOT NULL,
	"odds_hash" text NOT NULL,
	"pool_hash" text NOT NULL,
	"draws" jsonb NOT NULL,
	"total_value_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owned_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"owner_id" text NOT NULL,
	"acquired_via" "acquired_via" NOT NULL,
	"value_cents" integer NOT NULL,
	"status" "owned_card_status" DEFAULT 'in_vault' NOT NULL,
	"opening_id" uuid,
	"product_id" uuid,
	"slot" integer,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owned_cards_value_nonnegative" CHECK ("owned_cards"."value_cents" >= 0),
	CONSTRAINT "owned_cards_opening_link" CHECK (("owned_cards"."acquired_via" = 'opening') = ("owned_cards"."opening_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pool" jsonb DEFAULT '{"mode":"classes"}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_key" text,
	"price_cents" integer NOT NULL,
	"status" "product_status" DEFAULT 'draft' NOT NULL,
	"release_at" timestamp with time zone,
	"purchase_limit_per_user" integer,
	"featured" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"pack_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_positive" CHECK ("products"."price_cents" > 0),
	CONSTRAINT "products_limit_positive" CHECK ("products"."purchase_limit_per_user" is null or "products"."purchase_limit_per_user" > 0)
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"product_id" uuid NOT NULL,
	"pack_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"ledger_entry_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchases_quantity_range" CHECK ("purchases"."quantity" between 1 and 10),
	CONSTRAINT "purchases_total" CHECK ("purchases"."total_cents" = "purchases"."quantity" * "purchases"."unit_price_cents")
);
--> statement-breakpoint
CREATE TABLE "user_packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"purchase_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"pack_id" uuid NOT NULL,
	"slots" jsonb NOT NULL,
	"opening_id" uuid,
	"opened_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_packs_opened_consistent" CHECK (("user_packs"."opening_id" is null) = ("user_packs"."opened_at" is null))
);
--> statement-breakpoint
CREATE TABLE "user_seeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"server_seed" text NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"next_nonce" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"revealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_seeds_revealed_inactive" CHECK ("user_seeds"."active" = ("user_seeds"."revealed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_user_pack_id_user_packs_id_fk" FOREIGN KEY ("user_pack_id") REFERENCES "public"."user_packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_seed_id_user_seeds_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."user_seeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_cards" ADD CONSTRAINT "owned_cards_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_cards" ADD CONSTRAINT "owned_cards_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_cards" ADD CONSTRAINT "owned_cards_opening_id_openings_id_fk" FOREIGN KEY ("opening_id") REFERENCES "public"."openings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_cards" ADD CONSTRAINT "owned_cards_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_image_key_uploads_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_packs" ADD CONSTRAINT "user_packs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_packs" ADD CONSTRAINT "user_packs_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_packs" ADD CONSTRAINT "user_packs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_packs" ADD CONSTRAINT "user_packs_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_seeds" ADD CONSTRAINT "user_seeds_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "openings_seed_nonce_uq" ON "openings" USING btree ("seed_id","nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "openings_user_pack_uq" ON "openings" USING btree ("user_pack_id");--> statement-breakpoint
CREATE INDEX "openings_user_created_idx" ON "openings" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "openings_purchase_idx" ON "openings" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "owned_cards_owner_status_idx" ON "owned_cards" USING btree ("owner_id","status","acquired_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "owned_cards_card_idx" ON "owned_cards" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "owned_cards_opening_idx" ON "owned_cards" USING btree ("opening_id");--> statement-breakpoint
CREATE INDEX "owned_cards_top_pulls_idx" ON "owned_cards" USING btree ("value_cents" DESC NULLS LAST,"acquired_at" DESC NULLS LAST) WHERE "owned_cards"."opening_id" is not null;--> statement-breakpoint
CREATE INDEX "owned_cards_recent_pulls_idx" ON "owned_cards" USING btree ("acquired_at" DESC NULLS LAST) WHERE "owned_cards"."opening_id" is not null;--> statement-breakpoint
CREATE INDEX "owned_cards_product_pulls_idx" ON "owned_cards" USING btree ("product_id","value_cents" DESC NULLS LAST) WHERE "owned_cards"."opening_id" is not null;--> statement-breakpoint
CREATE INDEX "products_live_idx" ON "products" USING btree ("featured" DESC NULLS LAST,"sort_order","created_at") WHERE "products"."status" = 'live';--> statement-breakpoint
CREATE INDEX "products_pack_idx" ON "products" USING btree ("pack_id");--> statement-breakpoint
CREATE INDEX "purchases_user_product_idx" ON "purchases" USING btree ("user_id","product_id");--> statement-breakpoint
CREATE INDEX "purchases_user_created_idx" ON "purchases" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "user_packs_unopened_idx" ON "user_packs" USING btree ("user_id","created_at") WHERE "user_packs"."opened_at" is null;--> statement-breakpoint
CREATE INDEX "user_packs_purchase_idx" ON "user_packs" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_seeds_one_active_uq" ON "user_seeds" USING btree ("user_id") WHERE "user_seeds"."active";--> statement-breakpoint
CREATE INDEX "user_seeds_user_idx" ON "user_seeds" USING btree ("user_id","created_at");