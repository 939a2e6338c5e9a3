CREATE TABLE "vault_holdings" (
	"seq" integer NOT NULL,
	"owner_id" text NOT NULL,
	"leaves" jsonb NOT NULL,
	CONSTRAINT "vault_holdings_seq_owner_id_pk" PRIMARY KEY("seq","owner_id")
);
--> statement-breakpoint
CREATE TABLE "vault_snapshots" (
	"seq" integer PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"trigger" text NOT NULL,
	"leaf_count" integer NOT NULL,
	"stock_copies" integer NOT NULL,
	"vault_copies" integer NOT NULL,
	"root" text NOT NULL,
	"previous_root" text,
	"statement" text NOT NULL,
	"totals" text NOT NULL,
	"signature" text NOT NULL,
	"public_key" text NOT NULL,
	"build_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vault_tree_chunks" (
	"seq" integer NOT NULL,
	"level" integer NOT NULL,
	"chunk" integer NOT NULL,
	"hashes" "bytea" NOT NULL,
	CONSTRAINT "vault_tree_chunks_seq_level_chunk_pk" PRIMARY KEY("seq","level","chunk")
);
--> statement-breakpoint
ALTER TABLE "vault_holdings" ADD CONSTRAINT "vault_holdings_seq_vault_snapshots_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."vault_snapshots"("seq") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_holdings" ADD CONSTRAINT "vault_holdings_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_tree_chunks" ADD CONSTRAINT "vault_tree_chunks_seq_vault_snapshots_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."vault_snapshots"("seq") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vault_holdings_owner_idx" ON "vault_holdings" USING btree ("owner_id");--> statement-breakpoint
-- Proofs read one 32-byte hash per level: uncompressed out-of-line storage lets PostgreSQL fetch only those bytes (ADR 0030).
ALTER TABLE "vault_tree_chunks" ALTER COLUMN "hashes" SET STORAGE EXTERNAL;--> statement-breakpoint
-- The signed record is append-only: nothing updates or deletes a published snapshot.
CREATE FUNCTION "vault_snapshots_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'vault_snapshots is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "vault_snapshots_append_only" BEFORE UPDATE OR DELETE ON "vault_snapshots" FOR EACH ROW EXECUTE FUNCTION "vault_snapshots_append_only"();
