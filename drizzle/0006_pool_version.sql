CREATE TABLE "catalog_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"pool_version" uuid DEFAULT gen_random_uuid() NOT NULL,
	CONSTRAINT "catalog_state_one_row" CHECK ("catalog_state"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "catalog_state" ("id") VALUES (1);
--> statement-breakpoint
-- Bumps the pool version at most once per transaction (a transaction-local setting remembers it),
-- so a bulk import of 100,000 cards updates the row once, not 100,000 times.
CREATE FUNCTION "bump_pool_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('packvault.pool_bumped', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE "catalog_state" SET "pool_version" = gen_random_uuid() WHERE "id" = 1;
    PERFORM set_config('packvault.pool_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Deferred to the commit: the one catalog_state row is then always the last lock a transaction
-- takes, and only for the moment of its commit, so two transactions that each sell out or
-- restock several cards can never deadlock on it.
CREATE CONSTRAINT TRIGGER "cards_pool_insert" AFTER INSERT ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."active" AND NEW."archived_at" IS NULL AND NEW."stock" > 0)
  EXECUTE FUNCTION "bump_pool_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cards_pool_delete" AFTER DELETE ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."active" AND OLD."archived_at" IS NULL AND OLD."stock" > 0)
  EXECUTE FUNCTION "bump_pool_version"();
--> statement-breakpoint
-- Only membership counts: openings and buybacks that move stock without emptying or refilling a
-- card leave the version (and every process's cached pools) alone.
CREATE CONSTRAINT TRIGGER "cards_pool_update" AFTER UPDATE ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (
    (OLD."active" AND OLD."archived_at" IS NULL AND OLD."stock" > 0)
      IS DISTINCT FROM (NEW."active" AND NEW."archived_at" IS NULL AND NEW."stock" > 0)
    OR NEW."class_id" IS DISTINCT FROM OLD."class_id"
  )
  EXECUTE FUNCTION "bump_pool_version"();
