CREATE TYPE "public"."slab_state" AS ENUM('in_stock', 'held', 'reserved', 'owned', 'shipping', 'shipped', 'lost');--> statement-breakpoint
CREATE TABLE "card_slabs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"grader" text NOT NULL,
	"grade" numeric(3, 1) NOT NULL,
	"cert_number" text,
	"cert_missing" boolean DEFAULT false NOT NULL,
	"front_photo_key" text,
	"back_photo_key" text,
	"state" "slab_state" NOT NULL,
	"owned_card_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_slabs_grader" CHECK ("card_slabs"."grader" in ('PSA', 'BGS', 'CGC', 'SGC')),
	CONSTRAINT "card_slabs_grade_range" CHECK ("card_slabs"."grade" between 1 and 10),
	CONSTRAINT "card_slabs_cert_flag" CHECK ("card_slabs"."cert_missing" = ("card_slabs"."cert_number" is null)),
	CONSTRAINT "card_slabs_in_stock_cert" CHECK ("card_slabs"."state" <> 'in_stock' or not "card_slabs"."cert_missing"),
	CONSTRAINT "card_slabs_held" CHECK ("card_slabs"."state" <> 'held' or "card_slabs"."cert_missing"),
	CONSTRAINT "card_slabs_owner" CHECK (("card_slabs"."state" in ('in_stock', 'held', 'reserved')) = ("card_slabs"."owned_card_id" is null))
);
--> statement-breakpoint
ALTER TABLE "cards" DROP CONSTRAINT "cards_grading_complete";--> statement-breakpoint
ALTER TABLE "cards" DROP CONSTRAINT "cards_grading_company";--> statement-breakpoint
DROP INDEX "cards_cert_unique";--> statement-breakpoint
ALTER TABLE "card_slabs" ADD CONSTRAINT "card_slabs_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_slabs" ADD CONSTRAINT "card_slabs_front_photo_key_uploads_key_fk" FOREIGN KEY ("front_photo_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_slabs" ADD CONSTRAINT "card_slabs_back_photo_key_uploads_key_fk" FOREIGN KEY ("back_photo_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_slabs" ADD CONSTRAINT "card_slabs_owned_card_id_owned_cards_id_fk" FOREIGN KEY ("owned_card_id") REFERENCES "public"."owned_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_slabs_cert_unique" ON "card_slabs" USING btree ("grader","cert_number");--> statement-breakpoint
CREATE UNIQUE INDEX "card_slabs_owned_unique" ON "card_slabs" USING btree ("owned_card_id");--> statement-breakpoint
CREATE INDEX "card_slabs_in_stock_idx" ON "card_slabs" USING btree ("card_id","id") WHERE "card_slabs"."state" = 'in_stock';--> statement-breakpoint
CREATE INDEX "card_slabs_card_idx" ON "card_slabs" USING btree ("card_id","state");--> statement-breakpoint
CREATE INDEX "card_slabs_front_photo_idx" ON "card_slabs" USING btree ("front_photo_key");--> statement-breakpoint
CREATE INDEX "card_slabs_back_photo_idx" ON "card_slabs" USING btree ("back_photo_key");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_grading_pair" CHECK (("cards"."grading_company" is null and "cards"."grade" is null) or ("cards"."grading_company" is not null and "cards"."grade" between 1 and 10));--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_grading_company" CHECK ("cards"."grading_company" in ('PSA', 'BGS', 'CGC', 'SGC'));--> statement-breakpoint
-- Issue 38 (ADR 0023): every graded copy becomes a slab. The data moves come last: they update
-- cards, whose deferred pool triggers would then forbid any ALTER TABLE of cards in this transaction.
-- A card carried one certificate and a
-- stock count, so one certificate stood for several copies. The certificate (and the photos of that
-- copy) goes to one slab: the card's earliest-acquired copy still out of stock (in a vault, a
-- shipment, shipped, delivered, lost), else one slab in stock. Every other copy gets a slab with
-- its certificate missing: an owned one stays with its owner, one in stock is held out of stock
-- (stock −1, logged as an adjustment) until an admin fills its certificate in. Copies reserved for
-- a daily drop get reserved slabs (certificate missing). Enum values are compared as text: on a
-- fresh PostgreSQL database every migration runs in one transaction, where values added by an
-- earlier one cannot be used yet.
with owned as (
  select o.id, o.card_id, o.status, row_number() over (partition by o.card_id order by o.acquired_at, o.id) as rn
  from "owned_cards" o join "cards" c on c.id = o.card_id
  where c.grading_company is not null and o.status::text in ('in_vault', 'in_shipment', 'shipped', 'delivered', 'lost')
)
insert into "card_slabs" ("card_id", "grader", "grade", "cert_number", "cert_missing", "front_photo_key", "back_photo_key", "state", "owned_card_id")
select o.card_id, c.grading_company, c.grade,
  case when o.rn = 1 then c.cert_number end, o.rn <> 1 or c.cert_number is null,
  case when o.rn = 1 then c.front_photo_key end, case when o.rn = 1 then c.back_photo_key end,
  (case o.status::text when 'in_vault' then 'owned' when 'in_shipment' then 'shipping' when 'lost' then 'lost' else 'shipped' end)::slab_state,
  o.id
from owned o join "cards" c on c.id = o.card_id;--> statement-breakpoint
insert into "card_slabs" ("card_id", "grader", "grade", "cert_number", "cert_missing", "front_photo_key", "back_photo_key", "state")
select c.id, c.grading_company, c.grade,
  case when g = 1 and first_free then c.cert_number end, not (g = 1 and first_free and c.cert_number is not null),
  case when g = 1 and first_free then c.front_photo_key end, case when g = 1 and first_free then c.back_photo_key end,
  (case when g = 1 and first_free and c.cert_number is not null then 'in_stock' else 'held' end)::slab_state
from (
  select c.*, not exists (select 1 from "card_slabs" s where s.card_id = c.id) as first_free from "cards" c where c.grading_company is not null and c.stock > 0
) c, generate_series(1, c.stock) g;--> statement-breakpoint
insert into "card_slabs" ("card_id", "grader", "grade", "cert_number", "cert_missing", "state")
select c.id, c.grading_company, c.grade, null, true, 'reserved'
from "cards" c
join (
  select "card_id", -sum("delta") as n from "stock_movements" where "reason"::text in ('drop_reserve', 'drop_release') group by "card_id"
) r on r.card_id = c.id and r.n > 0,
generate_series(1, r.n::int) g
where c.grading_company is not null;--> statement-breakpoint
with held as (
  select "card_id", count(*)::int as n from "card_slabs" where "state" = 'held' group by "card_id"
),
upd as (
  update "cards" c set "stock" = c.stock - h.n, "updated_at" = now() from held h where c.id = h.card_id
  returning c.id, c.stock, h.n
)
insert into "stock_movements" ("card_id", "delta", "stock_after", "reason", "reference_type", "note")
select u.id, -u.n, u.stock, 'admin_adjust', 'migration', 'Held out of stock: certificate missing (slabs, migration 0026)' from upd u;--> statement-breakpoint
update "cards" set "cert_number" = null where "cert_number" is not null;
--> statement-breakpoint
-- Fire the deferred pool triggers of the cards just updated now, not at commit: a later migration
-- applied in this same transaction could not ALTER TABLE cards with their events pending. Every
-- deferrable constraint here is INITIALLY DEFERRED, so DEFERRED afterwards restores the default.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
SET CONSTRAINTS ALL DEFERRED;
