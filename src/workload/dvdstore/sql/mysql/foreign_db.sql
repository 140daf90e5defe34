-- How a database DVD Store's own scripts built (foreign_db.h, docs/dvdstore.md) differs from the
-- one storebench loads, in words for the result's "database" and "choices" entries: one
-- "-- name:" section each, {trigger} and {engine} standing for what admin.sql's restock_trigger
-- and products_engine read from the catalog. Not SQL. A section a dialect lacks says nothing.

-- name: storebench_restock_trigger
restock
-- name: no_restock_trigger
no restock trigger on INVENTORY (DVD Store 3's MySQL build installs none): stock only falls, so the rollback rate rises over a long run (storebench's trigger keeps it near 2 %)
-- name: other_restock_trigger_choice
the database's own trigger {trigger} on INVENTORY

-- name: storebench_products_engine
InnoDB
-- name: other_products_engine
PRODUCTS uses the {engine} engine (storebench: InnoDB): its FULLTEXT indexes follow ft_min_word_len and the MyISAM stop words, and its writes take table locks
-- name: other_products_engine_choice
{engine} FULLTEXT on TITLE/ACTOR (the database's own PRODUCTS), MATCH ... AGAINST ('+W1 +W2' IN BOOLEAN MODE): every word must occur; ft_min_word_len and the {engine} stop words decide which words are indexed
