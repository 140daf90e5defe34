-- Statements for snapshots and verification (MySQL/MariaDB). Tables are looked up
-- in the connection's database only.
-- storebench_meta is read and written through workload/store_meta.h (sql/<dialect>/meta.sql).

-- name: count_orders
SELECT count(*), coalesce(max(orderid), 0) FROM ORDERS

-- name: count_orderlines
SELECT count(*) FROM ORDERLINES

-- name: count_cust_hist
SELECT count(*) FROM CUST_HIST

-- name: count_customers
SELECT count(*) FROM CUSTOMERS

-- name: count_products
SELECT count(*) FROM PRODUCTS

-- name: verify_orders_without_lines
SELECT count(*) FROM ORDERS o
WHERE NOT EXISTS (SELECT 1 FROM ORDERLINES l WHERE l.orderid = o.orderid)

-- name: verify_lines_without_history
-- Orders whose purchase-history rows differ in number from their lines (one row per line).
SELECT count(*) FROM
  (SELECT orderid, count(*) AS n FROM ORDERLINES GROUP BY orderid) l
  LEFT JOIN (SELECT orderid, count(*) AS n FROM CUST_HIST GROUP BY orderid) h
    ON h.orderid = l.orderid
WHERE coalesce(h.n, 0) <> l.n

-- name: verify_sales
-- Products whose cumulative SALES differ from the quantities in ORDERLINES.
SELECT count(*) FROM INVENTORY i
  LEFT JOIN (SELECT prod_id, sum(quantity) AS q FROM ORDERLINES GROUP BY prod_id) o
    ON o.prod_id = i.prod_id
WHERE i.sales <> coalesce(o.q, 0)

-- name: verify_negative_stock
SELECT count(*) FROM INVENTORY WHERE quan_in_stock < 0

-- name: product_words
SELECT title, actor FROM PRODUCTS WHERE prod_id = ?

-- name: database_name
SELECT DATABASE()

-- name: restock_trigger
-- The trigger on INVENTORY (storebench's: restock; DVD Store 3's MySQL build installs none).
SELECT trigger_name FROM information_schema.triggers
WHERE trigger_schema = DATABASE() AND BINARY event_object_table = 'INVENTORY'

-- name: products_engine
SELECT engine FROM information_schema.tables
WHERE table_schema = DATABASE() AND BINARY table_name = 'PRODUCTS'

-- name: index_columns
-- Every index of the database's tables: table, its columns in order (lower case, comma-separated).
SELECT LOWER(table_name), LOWER(GROUP_CONCAT(column_name ORDER BY seq_in_index SEPARATOR ','))
FROM information_schema.statistics WHERE table_schema = DATABASE()
GROUP BY table_name, index_name
