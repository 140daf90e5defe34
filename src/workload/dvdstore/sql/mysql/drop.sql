-- Drops exactly the objects schema.sql and indexes.sql create (load --force), nothing else.
-- Tables go children first (foreign keys); the trigger goes with INVENTORY.
DROP TABLE IF EXISTS reviews_helpfulness;
DROP TABLE IF EXISTS reviews;
DROP TABLE IF EXISTS membership;
DROP TABLE IF EXISTS reorder;
DROP TABLE IF EXISTS inventory;
DROP TABLE IF EXISTS orderlines;
DROP TABLE IF EXISTS cust_hist;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS products;
DROP TABLE IF EXISTS customers;
DROP TABLE IF EXISTS categories;
DROP TABLE IF EXISTS storebench_meta;
