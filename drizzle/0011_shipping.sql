CREATE TYPE "public"."shipment_status" AS ENUM('requested', 'packing', 'shipped', 'delivered', 'cancelled', 'lost', 'returned');--> statement-breakpoint
ALTER TYPE "public"."owned_card_status" ADD VALUE 'lost';--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'ship_return';--> statement-breakpoint
ALTER TYPE "public"."stock_movement_reason" ADD VALUE 'ship_lost';--> statement-breakpoint
CREATE TABLE "card_locations" (
	"card_id" uuid PRIMARY KEY NOT NULL,
	"origin_id" uuid NOT NULL,
	"shelf_location" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shipment_id" uuid NOT NULL,
	"owned_card_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"value_cents" integer NOT NULL,
	"origin_id" uuid,
	"shelf_location" text DEFAULT '' NOT NULL,
	"picked_at" timestamp with time zone,
	"picked_by" text
);
--> statement-breakpoint
CREATE TABLE "shipment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shipment_id" uuid NOT NULL,
	"type" text NOT NULL,
	"actor_id" text,
	"actor_role" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "shipments_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1),
	"user_id" text NOT NULL,
	"address_id" uuid,
	"address" jsonb NOT NULL,
	"origin_id" uuid,
	"status" "shipment_status" DEFAULT 'requested' NOT NULL,
	"card_count" integer NOT NULL,
	"declared_value_cents" integer NOT NULL,
	"insured" boolean DEFAULT false NOT NULL,
	"base_fee_cents" integer NOT NULL,
	"cards_fee_cents" integer NOT NULL,
	"insurance_cents" integer DEFAULT 0 NOT NULL,
	"fee_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"fee_entry_id" uuid,
	"refund_entry_id" uuid,
	"carrier" text,
	"tracking_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_amounts_nonnegative" CHECK ("shipments"."fee_cents" >= 0 and "shipments"."refunded_cents" >= 0 and "shipments"."refunded_cents" <= "shipments"."fee_cents" + "shipments"."declared_value_cents")
);
--> statement-breakpoint
CREATE TABLE "shipping_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"line1" text NOT NULL,
	"line2" text DEFAULT '' NOT NULL,
	"city" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"phone" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_origins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"line1" text NOT NULL,
	"line2" text DEFAULT '' NOT NULL,
	"city" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"phone" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_locations" ADD CONSTRAINT "card_locations_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_locations" ADD CONSTRAINT "card_locations_origin_id_shipping_origins_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."shipping_origins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_cards" ADD CONSTRAINT "shipment_cards_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_cards" ADD CONSTRAINT "shipment_cards_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_cards" ADD CONSTRAINT "shipment_cards_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_cards" ADD CONSTRAINT "shipment_cards_origin_id_shipping_origins_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."shipping_origins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_address_id_shipping_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."shipping_addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_origin_id_shipping_origins_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."shipping_origins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_addresses" ADD CONSTRAINT "shipping_addresses_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_locations_origin_idx" ON "card_locations" USING btree ("origin_id","shelf_location");--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_cards_shipment_owned_unique" ON "shipment_cards" USING btree ("shipment_id","owned_card_id");--> statement-breakpoint
CREATE INDEX "shipment_cards_owned_idx" ON "shipment_cards" USING btree ("owned_card_id");--> statement-breakpoint
CREATE INDEX "shipment_cards_origin_shelf_idx" ON "shipment_cards" USING btree ("origin_id","shelf_location");--> statement-breakpoint
CREATE INDEX "shipment_events_shipment_idx" ON "shipment_events" USING btree ("shipment_id","created_at");--> statement-breakpoint
CREATE INDEX "shipments_status_created_idx" ON "shipments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "shipments_user_created_idx" ON "shipments" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shipping_addresses_user_idx" ON "shipping_addresses" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_addresses_one_default" ON "shipping_addresses" USING btree ("user_id") WHERE "shipping_addresses"."is_default" and "shipping_addresses"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_origins_one_default" ON "shipping_origins" USING btree ("is_default") WHERE "shipping_origins"."is_default";--> statement-breakpoint
-- Every card's stock belongs to an origin: the default one exists from the start (an admin edits its address).
INSERT INTO "shipping_origins" ("name", "line1", "city", "postal_code", "country", "phone", "is_default")
VALUES ('Main vault', 'Address to be set', 'City', '94105', 'US', '+1 000 000 0000', true);
