CREATE TYPE "public"."ledger_account_kind" AS ENUM('user_wallet', 'payments_clearing', 'pack_sales', 'buyback_expense', 'promo_expense', 'referral_expense', 'shipping_fees', 'shipping_refunds', 'admin_adjustments', 'chargeback_loss');
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "journal_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" "ledger_kind" NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"actor_id" text,
	"idempotency_key" text,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "ledger_account_kind" NOT NULL,
	"code" text,
	"user_id" text,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_owner" CHECK (("ledger_accounts"."kind" = 'user_wallet') = ("ledger_accounts"."user_id" is not null) and ("ledger_accounts"."code" is null) = ("ledger_accounts"."user_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"entry_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "postings_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"balance_after" bigint,
	CONSTRAINT "postings_entry_id_account_id_pk" PRIMARY KEY("entry_id","account_id"),
	CONSTRAINT "postings_amount_non_zero" CHECK ("postings"."amount_cents" <> 0),
	CONSTRAINT "postings_balance_after_non_negative" CHECK ("postings"."balance_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_ledger_entry_id_ledger_entries_id_fk";
--> statement-breakpoint
ALTER TABLE "buybacks" DROP CONSTRAINT "buybacks_ledger_entry_id_ledger_entries_id_fk";
--> statement-breakpoint
-- Hand-written (issue 14): move the one-sided journal into journal entries and postings.
-- One currency per deployment: the currency of the deposits taken so far, else USD.
ALTER TABLE "balances" ADD COLUMN "account_id" uuid;
--> statement-breakpoint
INSERT INTO "ledger_accounts" ("kind", "code", "currency")
SELECT k::"ledger_account_kind", c, (SELECT coalesce(upper(min("currency")), 'USD') FROM "deposits")
FROM (VALUES
  ('payments_clearing', 'clearing:stripe'),
  ('payments_clearing', 'clearing:sandbox'),
  ('pack_sales', 'pack_sales'),
  ('buyback_expense', 'buyback_expense'),
  ('promo_expense', 'promo_expense'),
  ('referral_expense', 'referral_expense'),
  ('shipping_fees', 'shipping_fees'),
  ('shipping_refunds', 'shipping_refunds'),
  ('admin_adjustments', 'admin_adjustments'),
  ('chargeback_loss', 'chargeback_loss')
) AS h(k, c);
--> statement-breakpoint
-- A wallet account for every user with a balance row or an entry (an entry without a balance row
-- would be a broken book: it gets a balance row holding the sum, and reconciliation shows it).
INSERT INTO "ledger_accounts" ("kind", "user_id", "currency", "created_at")
SELECT 'user_wallet', u."user_id", (SELECT "currency" FROM "ledger_accounts" WHERE "code" = 'pack_sales'), u."at"
FROM (
  SELECT "user_id", min("at") AS "at" FROM (
    SELECT "user_id", "updated_at" AS "at" FROM "balances"
    UNION ALL SELECT "user_id", "created_at" FROM "ledger_entries"
  ) x GROUP BY "user_id"
) u ORDER BY u."at", u."user_id";
--> statement-breakpoint
INSERT INTO "balances" ("user_id", "cents")
SELECT l."user_id", sum(l."amount_cents") FROM "ledger_entries" l
WHERE NOT EXISTS (SELECT 1 FROM "balances" b WHERE b."user_id" = l."user_id")
GROUP BY l."user_id";
--> statement-breakpoint
UPDATE "balances" b SET "account_id" = a."id" FROM "ledger_accounts" a WHERE a."kind" = 'user_wallet' AND a."user_id" = b."user_id";
--> statement-breakpoint
ALTER TABLE "balances" ALTER COLUMN "account_id" SET NOT NULL;
--> statement-breakpoint
-- Entries keep their ids (purchases and buybacks point at them) and their order. An idempotency
-- key was unique per user; it is now scoped by the wallet's user id in one unique index.
INSERT INTO "journal_entries" ("id", "kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "memo", "created_at")
SELECT "id", "kind", "reference_type", "reference_id", "actor_id",
  CASE WHEN "idempotency_key" IS NULL THEN NULL ELSE "user_id" || ':' || "idempotency_key" END, "memo", "created_at"
FROM "ledger_entries" ORDER BY "seq";
--> statement-breakpoint
-- Two postings per old entry: the wallet's (as it was, with its balance after) and the house
-- account's opposite one, chosen by the entry's kind (deposits and their refunds: the clearing
-- account of the deposit's provider).
INSERT INTO "postings" ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
SELECT p."entry_id", p."account_id", p."amount_cents", p."currency", p."balance_after" FROM (
  SELECT l."seq", 0 AS "leg", l."id" AS "entry_id", w."id" AS "account_id", l."amount_cents", w."currency", l."balance_after"
  FROM "ledger_entries" l JOIN "ledger_accounts" w ON w."kind" = 'user_wallet' AND w."user_id" = l."user_id"
  UNION ALL
  SELECT l."seq", 1, l."id", h."id", -l."amount_cents", h."currency", NULL
  FROM "ledger_entries" l
  LEFT JOIN "deposits" d ON l."reference_type" = 'deposit' AND d."id"::text = l."reference_id"
  JOIN "ledger_accounts" h ON h."code" = CASE l."kind"
    WHEN 'deposit' THEN 'clearing:' || coalesce(d."provider", 'sandbox')
    WHEN 'refund' THEN 'clearing:' || coalesce(d."provider", 'sandbox')
    WHEN 'pack_purchase' THEN 'pack_sales'
    WHEN 'buyback' THEN 'buyback_expense'
    WHEN 'promo_credit' THEN 'promo_expense'
    WHEN 'referral_reward' THEN 'referral_expense'
    WHEN 'shipping_fee' THEN 'shipping_fees'
    WHEN 'shipping_refund' THEN 'shipping_refunds'
    WHEN 'admin_adjustment' THEN 'admin_adjustments'
  END
) p ORDER BY p."seq", p."leg";
--> statement-breakpoint
DROP TABLE "ledger_entries" CASCADE;
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_idem_uq" ON "journal_entries" USING btree ("idempotency_key");
--> statement-breakpoint
CREATE INDEX "journal_entries_reference_idx" ON "journal_entries" USING btree ("reference_type","reference_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_kind_user_uq" ON "ledger_accounts" USING btree ("kind","user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_uq" ON "ledger_accounts" USING btree ("code");
--> statement-breakpoint
CREATE INDEX "postings_account_seq_idx" ON "postings" USING btree ("account_id","seq","amount_cents");
--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_ledger_entry_id_journal_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "buybacks" ADD CONSTRAINT "buybacks_ledger_entry_id_journal_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "balances_account_uq" ON "balances" USING btree ("account_id");
--> statement-breakpoint
-- A user's wallet lines, read as the old one-sided journal was (reports, old queries).
CREATE VIEW "ledger_entries" AS
SELECT j."id", p."seq", a."user_id", p."amount_cents", j."kind", j."reference_type", j."reference_id", j."actor_id",
  substr(j."idempotency_key", length(a."user_id") + 2) AS "idempotency_key", p."balance_after", j."memo", j."created_at"
FROM "postings" p
JOIN "ledger_accounts" a ON a."id" = p."account_id" AND a."kind" = 'user_wallet'
JOIN "journal_entries" j ON j."id" = p."entry_id";
--> statement-breakpoint
-- Every entry balances: at commit, each entry a transaction posted to sums to zero per currency
-- (SQLSTATE PV002 otherwise, and the whole transaction rolls back).
CREATE FUNCTION "packvault_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "off" record;
BEGIN
  SELECT "currency", sum("amount_cents") AS "total" INTO "off" FROM "postings"
  WHERE "entry_id" = NEW."entry_id" GROUP BY "currency" HAVING sum("amount_cents") <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'PV002',
      MESSAGE = format('journal entry %s does not balance: %s %s', NEW."entry_id", "off"."total", "off"."currency");
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "postings_entry_balanced" AFTER INSERT ON "postings"
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "packvault_entry_balanced"();
--> statement-breakpoint
-- The books are append-only: a correction is a new entry.
CREATE FUNCTION "packvault_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'PV003', MESSAGE = format('%s is append-only', TG_TABLE_NAME);
END $$;
--> statement-breakpoint
CREATE TRIGGER "postings_append_only" BEFORE UPDATE OR DELETE ON "postings" FOR EACH ROW EXECUTE FUNCTION "packvault_append_only"();
--> statement-breakpoint
CREATE TRIGGER "journal_entries_append_only" BEFORE UPDATE OR DELETE ON "journal_entries" FOR EACH ROW EXECUTE FUNCTION "packvault_append_only"();
