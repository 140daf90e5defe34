-- Drops exactly the objects schema.sql and indexes.sql create (load --force), nothing else.
-- Tables go children first, so no CASCADE is needed.
DROP TABLE IF EXISTS order_items;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS inventories;
DROP TABLE IF EXISTS product_descriptions;
DROP TABLE IF EXISTS product_information;
DROP TABLE IF EXISTS categories;
DROP TABLE IF EXISTS warehouses;
DROP TABLE IF EXISTS card_details;
DROP TABLE IF EXISTS addresses;
DROP TABLE IF EXISTS customers;
DROP TABLE IF EXISTS logon;
DROP SEQUENCE IF EXISTS customer_seq;
DROP SEQUENCE IF EXISTS address_seq;
DROP SEQUENCE IF EXISTS card_details_seq;
DROP SEQUENCE IF EXISTS orders_seq;
DROP SEQUENCE IF EXISTS logon_seq;
DROP TABLE IF EXISTS storebench_meta;
