-- Drops exactly the objects schema.sql and indexes.sql create (load --force), nothing else.
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
DROP TABLE IF EXISTS soe_sequences;
DROP TABLE IF EXISTS storebench_meta;
