-- The essential work of buying and opening one 5-card pack, hand-written on Packvault's own schema
-- (issue 21): the floor the app's buy-and-open path is measured against (bench/lib/essential.ts).
-- Constants come with -D (product, pack, price, users, cards, nclients), variables from
-- essential-vars.sql; every foreign key holds.
-- Left out on purpose, as not essential to a sale: the guess re-checks of the one-statement opening
-- (product, pool version, self-exclusion), stock_movements rows, the draw itself (cards are random).
begin;
-- The session (and its user), with this transaction's new ids.
select s."user_id" as uid, u."username" as uname, 'essential-' || :r as ikey, gen_random_uuid() as pid, gen_random_uuid() as eid,
  gen_random_uuid() as upid, gen_random_uuid() as oid
from "session" s join "user" u on u."id" = s."user_id"
where s."token" = 'bt' || :n and s."expires_at" > now() and not u."banned" and u."deleted_at" is null
\gset
-- The Idempotency-Key with its answer.
insert into "idempotency_keys" ("user_id", "key", "request_hash", "response_status", "response_body")
values (:uid, :ikey, 'essential', 201, jsonb_build_object('openedPurchaseId', :pid::text));
-- The debit, never below zero (no row: \gset fails the transaction), and its two postings.
update "balances" set "cents" = "cents" - :price::bigint, "updated_at" = now()
where "user_id" = :uid and "cents" >= :price::bigint
returning "account_id" as acct, "cents" as bal
\gset
insert into "journal_entries" ("id", "kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "memo")
values (:eid::uuid, 'pack_purchase', 'purchase', :pid::text, :uid, :uid::text || ':' || :ikey::text, '1 pack');
insert into "postings" ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
select :eid::uuid, h."id", :price::bigint, h."currency", null from "ledger_accounts" h where h."code" = 'pack_sales'
union all
select :eid::uuid, :acct::uuid, -:price::bigint, h."currency", :bal::bigint from "ledger_accounts" h where h."code" = 'pack_sales';
-- The nonce.
update "user_seeds" set "next_nonce" = "next_nonce" + 1 where "user_id" = :uid and "active"
returning "id" as seed, "next_nonce" - 1 as nonce, "server_seed_hash" as sshash, "client_seed" as cseed
\gset
-- The purchase and the opened pack (the opening's foreign keys).
insert into "purchases" ("id", "user_id", "product_id", "pack_id", "quantity", "unit_price_cents", "total_cents", "ledger_entry_id")
values (:pid::uuid, :uid, :product::uuid, :pack::uuid, 1, :price::int, :price::int, :eid::uuid);
insert into "user_packs" ("id", "user_id", "purchase_id", "product_id", "pack_id", "slots", "opening_id", "opened_at")
select :upid::uuid, :uid, :pid::uuid, :product::uuid, :pack::uuid, k."slots", :oid::uuid, now() from "packs" k where k."id" = :pack::uuid;
-- The 5 stock takes (cards locked in id order, as the app does, so no two transactions deadlock).
with want(id, slot) as (values (md5('card' || :k1)::uuid, 0), (md5('card' || :k2)::uuid, 1), (md5('card' || :k3)::uuid, 2), (md5('card' || :k4)::uuid, 3), (md5('card' || :k5)::uuid, 4)),
locked as materialized (select c."id" from "cards" c where c."id" in (select id from want) order by c."id" for update),
taken as (
  update "cards" c set "stock" = c."stock" - 1 from want w
  where c."id" = w.id and c."id" in (select id from locked) and c."stock" >= 1 and c."active"
  returning c."id", c."value_cents", w.slot
)
select json_agg(json_build_object('cardId', t."id", 'slot', t.slot, 'valueCents', t."value_cents") order by t.slot) as draws,
  sum(t."value_cents") as total, count(*) as taken_count
from taken t
\gset
-- The opening with its nonce, then its 5 owned cards.
insert into "openings" ("id", "user_id", "user_pack_id", "purchase_id", "product_id", "pack_id", "seed_id", "server_seed_hash", "client_seed", "nonce",
  "slots", "odds_hash", "pool_hash", "draws", "total_value_cents")
select :oid::uuid, :uid, :upid::uuid, :pid::uuid, :product::uuid, :pack::uuid, :seed::uuid, :sshash, :cseed, :nonce::int,
  k."slots", 'essential', 'essential', :draws::jsonb, :total::int
from "packs" k where k."id" = :pack::uuid;
insert into "owned_cards" ("card_id", "owner_id", "acquired_via", "value_cents", "status", "opening_id", "product_id", "slot")
select (d->>'cardId')::uuid, :uid, 'opening', (d->>'valueCents')::int, 'in_vault', :oid::uuid, :product::uuid, (d->>'slot')::int
from json_array_elements(:draws::json) d;
-- One notification.
insert into "notifications" ("user_id", "kind", "title", "body", "link", "data")
values (:uid, 'big_pull', 'A big pull', 'You opened a pack', '/collect', jsonb_build_object('openingId', :oid::text));
commit;
