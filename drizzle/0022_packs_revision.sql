ALTER TABLE "packs" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- A new revision whenever the documents an opening draws from change, whoever writes them.
CREATE FUNCTION "packs_bump_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."revision" := OLD."revision" + 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "packs_bump_revision" BEFORE UPDATE ON "packs" FOR EACH ROW
  WHEN (OLD."slots" IS DISTINCT FROM NEW."slots" OR OLD."pool" IS DISTINCT FROM NEW."pool")
  EXECUTE FUNCTION "packs_bump_revision"();
