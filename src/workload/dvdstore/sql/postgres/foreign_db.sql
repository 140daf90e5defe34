-- How a database DVD Store's own scripts built (foreign_db.h, docs/dvdstore.md) differs from the
-- one storebench loads, in words for the result's "database" and "choices" entries: one
-- "-- name:" section each, {trigger} standing for what admin.sql's restock_trigger reads from
-- the catalog. Not SQL. A section a dialect lacks says nothing.

-- name: storebench_restock_trigger
storebench_restock
-- name: no_restock_trigger
no restock trigger on INVENTORY: stock only falls over a run
-- name: other_restock_trigger
INVENTORY's restock trigger is {trigger} (DVD Store's refills to 250, 2500 for PROD_ID+1 a multiple of 10000) instead of storebench's, which reverts updates below 3
-- name: other_restock_trigger_choice
the database's own trigger {trigger} on INVENTORY
-- The trigger DVD Store's PostgreSQL build installs (pgsqlds3_create_trig.sql), and what it does.
-- name: ds3_restock_trigger
restock_order
-- name: ds3_restock_trigger_choice
the database's own trigger restock_order (DVD Store's PostgreSQL build): an update leaving fewer than 3 in stock is logged in REORDER and the stock refilled to 250 (2500 when PROD_ID+1 is a multiple of 10000), so the rollback rate drifts down over a run
