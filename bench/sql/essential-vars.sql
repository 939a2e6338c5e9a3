-- The per-transaction variables of both essential scripts (bench/lib/essential.ts puts this first):
-- a user from the client's own share, a fresh key, and 5 distinct cards spread over the catalogue.
\set n 1 + :client_id + :nclients * random(0, :users / :nclients - 1)
\set r random(1, 9000000000000000000)
\set kb random(0, :cards - 1)
\set k1 1 + (:kb + 0 * (:cards / 16)) % :cards
\set k2 1 + (:kb + 1 * (:cards / 16)) % :cards
\set k3 1 + (:kb + 2 * (:cards / 16)) % :cards
\set k4 1 + (:kb + 3 * (:cards / 16)) % :cards
\set k5 1 + (:kb + 4 * (:cards / 16)) % :cards
