-- The essential work of buying and opening one 5-card pack, as ONE statement (one round trip, one
-- implicit transaction): the same rows and checks as essential-open.sql, with no client round trips
-- between them. A baseline written by hand with a PL/pgSQL function or a CTE chain runs about this
-- fast; the multi-statement script is the plain pgbench style. The bench reports the app against
-- both (bench/lib/essential.ts). Constants and variables as in essential-open.sql.
-- Every write is gated on the session and the debit, so an unknown session or too little money
-- writes nothing; every foreign key holds.
-- The session (and its user), with this transaction's new ids.
with s as materialized (
  select s."user_id" as uid, gen_random_uuid() as pid, gen_random_uuid() as eid, gen_random_uuid() as upid, gen_random_uuid() as oid,
    'essential-one-' || :r as ikey
  from "session" s join "user" u on u."id" = s."user_id"
  where s."token" = 'bt' || :n and s."expires_at" > now() and not u."banned" and u."deleted_at" is null
),
-- The debit, never below zero, and its journal entry with two postings.
debit as materialized (
  update "balances" b set "cents" = b."cents" - :price::bigint, "updated_at" = now() from s
  where b."user_id" = s.uid and b."cents" >= :price::bigint
  returning b."account_id" as acct, b."cents" as bal
),
entry as (
  insert into "journal_entries" ("id", "kind", "reference_type", "reference_id", "actor_id", "idempotency_key", "memo")
  select s.eid, 'pack_purchase', 'purchase', s.pid::text, s.uid, s.uid || ':' || s.ikey, '1 pack' from s, debit
  returning 1
),
post as (
  insert into "postings" ("entry_id", "account_id", "amount_cents", "currency", "balance_after")
  select s.eid, h."id", :price::bigint, h."currency", null from s, debit, "ledger_accounts" h where h."code" = 'pack_sales'
  union all
  select s.eid, debit.acct, -:price::bigint, h."currency", debit.bal from s, debit, "ledger_accounts" h where h."code" = 'pack_sales'
  returning 1
),
-- The Idempotency-Key with its answer.
key as (
  insert into "idempotency_keys" ("user_id", "key", "request_hash", "response_status", "response_body")
  select s.uid, s.ikey, 'essential', 201, jsonb_build_object('openedPurchaseId', s.pid::text) from s, debit
  returning 1
),
-- The nonce.
nonce as materialized (
  update "user_seeds" u set "next_nonce" = u."next_nonce" + 1 from s
  where u."user_id" = s.uid and u."active" and exists (select 1 from debit)
  returning u."id" as seed, u."next_nonce" - 1 as nonce, u."server_seed_hash" as sshash, u."client_seed" as cseed
),
-- The purchase and the opened pack (the opening's foreign keys).
purchase as (
  insert into "purchases" ("id", "user_id", "product_id", "pack_id", "quantity", "unit_price_cents", "total_cents", "ledger_entry_id")
  select s.pid, s.uid, :product::uuid, :pack::uuid, 1, :price::int, :price::int, s.eid from s, debit
  returning 1
),
pack as (
  insert into "user_packs" ("id", "user_id", "purchase_id", "product_id", "pack_id", "slots", "opening_id", "opened_at")
  select s.upid, s.uid, s.pid, :product::uuid, :pack::uuid, k."slots", s.oid, now() from s, debit, "packs" k where k."id" = :pack::uuid
  returning 1
),
-- The 5 stock takes (cards locked in id order, as the app does, so no two transactions deadlock).
want(id, slot) as (values (md5('card' || :k1)::uuid, 0), (md5('card' || :k2)::uuid, 1), (md5('card' || :k3)::uuid, 2), (md5('card' || :k4)::uuid, 3), (md5('card' || :k5)::uuid, 4)),
locked as materialized (select c."id" from "cards" c where c."id" in (select id from want) and exists (select 1 from debit) order by c."id" for update),
taken as materialized (
  update "cards" c set "stock" = c."stock" - 1 from want w
  where c."id" = w.id and c."id" in (select id from locked) and c."stock" >= 1 and c."active"
  returning c."id", c."value_cents", w.slot
),
-- The opening with its nonce, then its 5 owned cards.
opening as (
  insert into "openings" ("id", "user_id", "user_pack_id", "purchase_id", "product_id", "pack_id", "seed_id", "server_seed_hash", "client_seed", "nonce",
    "slots", "odds_hash", "pool_hash", "draws", "total_value_cents")
  select s.oid, s.uid, s.upid, s.pid, :product::uuid, :pack::uuid, n.seed, n.sshash, n.cseed, n.nonce, k."slots", 'essential', 'essential',
    (select json_agg(json_build_object('cardId', t."id", 'slot', t.slot, 'valueCents', t."value_cents") order by t.slot) from taken t),
    (select sum(t."value_cents") from taken t)
  from s, nonce n, "packs" k where k."id" = :pack::uuid
  returning 1
),
owned as (
  insert into "owned_cards" ("card_id", "owner_id", "acquired_via", "value_cents", "status", "opening_id", "product_id", "slot")
  select t."id", s.uid, 'opening', t."value_cents", 'in_vault', s.oid, :product::uuid, t.slot from taken t, s
  returning 1
),
-- One notification.
note as (
  insert into "notifications" ("user_id", "kind", "title", "body", "link", "data")
  select s.uid, 'big_pull', 'A big pull', 'You opened a pack', '/collect', jsonb_build_object('openingId', s.oid::text) from s, debit
  returning 1
)
select (select count(*) from key) k, (select count(*) from post) p, (select count(*) from entry) e, (select count(*) from purchase) pu, (select count(*) from pack) pa,
  (select count(*) from opening) o, (select count(*) from owned) ow, (select count(*) from note) no;
