CREATE TABLE "odds_class_pools" (
	"hash" text PRIMARY KEY NOT NULL,
	"class_id" text NOT NULL,
	"cards" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "odds_revisions" (
	"hash" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"product_id" uuid NOT NULL,
	"price_cents" integer NOT NULL,
	"slots" jsonb NOT NULL,
	"classes" jsonb NOT NULL,
	"mean_cents" double precision NOT NULL,
	"variance_cents2" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_state" ADD COLUMN "odds_version" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "openings" ADD COLUMN "revision_hash" text;--> statement-breakpoint
ALTER TABLE "odds_revisions" ADD CONSTRAINT "odds_revisions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "odds_revisions_seq_uq" ON "odds_revisions" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "odds_revisions_product_idx" ON "odds_revisions" USING btree ("product_id","seq");--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_revision_hash_odds_revisions_hash_fk" FOREIGN KEY ("revision_hash") REFERENCES "public"."odds_revisions"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Issue 44. Published odds revisions are a public record: nothing may rewrite or remove one.
CREATE FUNCTION "odds_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: published odds revisions are never changed or removed', TG_TABLE_NAME;
END $$;
--> statement-breakpoint
CREATE TRIGGER "odds_revisions_append_only" BEFORE UPDATE OR DELETE ON "odds_revisions"
  FOR EACH ROW EXECUTE FUNCTION "odds_append_only"();
--> statement-breakpoint
CREATE TRIGGER "odds_class_pools_append_only" BEFORE UPDATE OR DELETE ON "odds_class_pools"
  FOR EACH ROW EXECUTE FUNCTION "odds_append_only"();
--> statement-breakpoint
-- What a revision publishes of the catalogue: which cards a class holds, whatever their stock
-- (active, not archived, class), and their values. Once per transaction, at the commit, like
-- bump_pool_version (migration 0006): stock movements alone never fire it.
CREATE FUNCTION "bump_odds_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('packvault.odds_bumped', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE "catalog_state" SET "odds_version" = gen_random_uuid() WHERE "id" = 1;
    PERFORM set_config('packvault.odds_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cards_odds_insert" AFTER INSERT ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."active" AND NEW."archived_at" IS NULL)
  EXECUTE FUNCTION "bump_odds_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cards_odds_delete" AFTER DELETE ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."active" AND OLD."archived_at" IS NULL)
  EXECUTE FUNCTION "bump_odds_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cards_odds_update" AFTER UPDATE ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (
    (OLD."active" AND OLD."archived_at" IS NULL) IS DISTINCT FROM (NEW."active" AND NEW."archived_at" IS NULL)
    OR NEW."class_id" IS DISTINCT FROM OLD."class_id"
    OR NEW."value_cents" IS DISTINCT FROM OLD."value_cents"
  )
  EXECUTE FUNCTION "bump_odds_version"();
