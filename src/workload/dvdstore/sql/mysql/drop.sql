-- Drops exactly the objects schema.sql and indexes.sql create (load --force), nothing else.
-- Tables go children first (foreign keys); the trigger goes with INVENTORY.
DROP TABLE IF EXISTS REVIEWS_HELPFULNESS;
DROP TABLE IF EXISTS REVIEWS;
DROP TABLE IF EXISTS MEMBERSHIP;
DROP TABLE IF EXISTS REORDER;
DROP TABLE IF EXISTS INVENTORY;
DROP TABLE IF EXISTS ORDERLINES;
DROP TABLE IF EXISTS CUST_HIST;
DROP TABLE IF EXISTS ORDERS;
DROP TABLE IF EXISTS PRODUCTS;
DROP TABLE IF EXISTS CUSTOMERS;
DROP TABLE IF EXISTS CATEGORIES;
-- The lower-case tables of storebench versions before schema_version 2 (load --force over one).
DROP TABLE IF EXISTS reviews_helpfulness, reviews, membership, reorder, inventory, orderlines,
  cust_hist, orders, products, customers, categories;
DROP TABLE IF EXISTS storebench_meta;
