-- Drops exactly the objects schema.sql, indexes.sql and procedures.sql create (load --force),
-- nothing else.
-- Tables go children first, so no CASCADE is needed.
-- The routines of procedures.sql.
DROP FUNCTION IF EXISTS soe_sleep;
DROP PROCEDURE IF EXISTS soe_new_customer;
DROP PROCEDURE IF EXISTS soe_update_customer_details;
DROP PROCEDURE IF EXISTS soe_browse_products;
DROP PROCEDURE IF EXISTS soe_new_order;
DROP PROCEDURE IF EXISTS soe_process_orders;
DROP PROCEDURE IF EXISTS soe_browse_and_update_orders;
DROP PROCEDURE IF EXISTS soe_sales_rep_query;
DROP PROCEDURE IF EXISTS soe_warehouse_query;
DROP PROCEDURE IF EXISTS soe_warehouse_activity;
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
