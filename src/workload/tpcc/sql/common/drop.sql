-- Drops the TPC-C-like tables (load --force) on PostgreSQL and MySQL/MariaDB; SQLite drops
-- one table a statement (sqlite/drop.sql).
DROP TABLE IF EXISTS item, warehouse, district, customer, history, orders, new_order, order_line,
  stock;
DELETE FROM storebench_meta;
