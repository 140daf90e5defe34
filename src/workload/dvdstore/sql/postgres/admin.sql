-- Statements for snapshots and verification (PostgreSQL). Tables are looked up in
-- the connection's current schema only.
-- storebench_meta is read and written through workload/store_meta.h (sql/<dialect>/meta.sql).

-- name: count_orders
SELECT count(*), coalesce(max(orderid), 0) FROM orders

-- name: count_orderlines
SELECT count(*) FROM orderlines

-- name: count_cust_hist
SELECT count(*) FROM cust_hist

-- name: count_customers
SELECT count(*) FROM customers

-- name: count_products
SELECT count(*) FROM products

-- name: verify_orders_without_lines
SELECT count(*) FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM orderlines l WHERE l.orderid = o.orderid)

-- name: verify_lines_without_history
-- Orders whose purchase-history rows differ in number from their lines (one row per line).
SELECT count(*) FROM
  (SELECT orderid, count(*) AS n FROM orderlines GROUP BY orderid) l
  LEFT JOIN (SELECT orderid, count(*) AS n FROM cust_hist GROUP BY orderid) h
    ON h.orderid = l.orderid
WHERE coalesce(h.n, 0) <> l.n

-- name: verify_sales
-- Products whose cumulative SALES differ from the quantities in ORDERLINES.
SELECT count(*) FROM inventory i
  LEFT JOIN (SELECT prod_id, sum(quantity) AS q FROM orderlines GROUP BY prod_id) o
    ON o.prod_id = i.prod_id
WHERE i.sales <> coalesce(o.q, 0)

-- name: verify_negative_stock
SELECT count(*) FROM inventory WHERE quan_in_stock < 0

-- name: product_words
SELECT title, actor FROM products WHERE prod_id = ?

-- name: restock_trigger
-- The function behind the trigger on INVENTORY (storebench's: storebench_restock; DVD Store's
-- pgsqlds3_create_trig.sql: restock_order).
SELECT p.proname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
WHERE t.tgrelid = to_regclass('inventory') AND NOT t.tgisinternal

-- name: index_columns
-- Every index of the current schema's tables: table, its key columns in order (comma-separated;
-- expression columns left out).
SELECT t.relname, string_agg(a.attname, ',' ORDER BY k.ord)
FROM pg_index i
  JOIN pg_class t ON t.oid = i.indrelid
  JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
WHERE t.relnamespace = to_regnamespace(current_schema())
GROUP BY i.indexrelid, t.relname
