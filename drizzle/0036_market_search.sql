-- Marketplace search at scale (issue 43, ADR 0033): the card's set, class and grade on the listing,
-- kept by the database; covering partial indexes for each filter and sort; a trigram index on the
-- card's name. Hand-written parts: the extension, INCLUDE columns (drizzle-kit does not model
-- them), the backfill and the triggers.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "set_name" text;--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "class_id" uuid;--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "grade" numeric(3, 1);--> statement-breakpoint
UPDATE "market_listings" l SET "set_name" = c."set_name", "class_id" = c."class_id", "grade" = c."grade" FROM "cards" c WHERE c."id" = l."card_id";--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_card_fields" CHECK ("market_listings"."set_name" is not null and "market_listings"."class_id" is not null);--> statement-breakpoint
-- Whatever an insert (or an update of these columns) says, the listing carries its card's fields.
CREATE FUNCTION "market_listings_card_fields"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.set_name, c.class_id, c.grade INTO NEW.set_name, NEW.class_id, NEW.grade FROM cards c WHERE c.id = NEW.card_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "market_listings_card_fields" BEFORE INSERT OR UPDATE OF "card_id", "set_name", "class_id", "grade" ON "market_listings"
  FOR EACH ROW EXECUTE FUNCTION "market_listings_card_fields"();--> statement-breakpoint
-- A catalog edit of a card's set, class or grade reaches its listings in the same transaction. The
-- column list keeps it off the open path's stock updates (they set no such column).
CREATE FUNCTION "cards_market_listing_fields"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE market_listings SET set_name = NEW.set_name, class_id = NEW.class_id, grade = NEW.grade WHERE card_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "cards_market_listing_fields" AFTER UPDATE OF "set_name", "class_id", "grade" ON "cards"
  FOR EACH ROW WHEN (OLD."set_name" IS DISTINCT FROM NEW."set_name" OR OLD."class_id" IS DISTINCT FROM NEW."class_id" OR OLD."grade" IS DISTINCT FROM NEW."grade")
  EXECUTE FUNCTION "cards_market_listing_fields"();--> statement-breakpoint
CREATE INDEX "cards_name_trgm_idx" ON "cards" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
-- The sort indexes again, now covering "unexpired" (and raw/graded) so a count reads only the index.
DROP INDEX "market_listings_active_card_price_idx";--> statement-breakpoint
CREATE INDEX "market_listings_active_card_price_idx" ON "market_listings" USING btree ("card_id","price_cents") INCLUDE ("expires_at", "created_at", "id") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
DROP INDEX "market_listings_active_price_idx";--> statement-breakpoint
CREATE INDEX "market_listings_active_price_idx" ON "market_listings" USING btree ("price_cents","id") INCLUDE ("expires_at", "grade") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
DROP INDEX "market_listings_active_created_idx";--> statement-breakpoint
CREATE INDEX "market_listings_active_created_idx" ON "market_listings" USING btree ("created_at" DESC NULLS LAST,"id") INCLUDE ("expires_at", "grade") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_set_price_idx" ON "market_listings" USING btree ("set_name","price_cents","id") INCLUDE ("expires_at") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_class_price_idx" ON "market_listings" USING btree ("class_id","price_cents","id") INCLUDE ("expires_at") WHERE "market_listings"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_listings_active_grade_price_idx" ON "market_listings" USING btree ("grade","price_cents","id") INCLUDE ("expires_at") WHERE "market_listings"."state" = 'active' and "market_listings"."grade" is not null;
