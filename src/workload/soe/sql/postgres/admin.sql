-- Statements for load, readiness checks and verification (PostgreSQL). Tables are looked up in
-- the connection's current schema only.

-- name: user_table_count
-- Tables in the schema; a schema with tables but no storebench_meta was not made by storebench
-- and is never touched. Relations an extension owns (pg_stat_statements' views) do not count.
SELECT count(*) FROM information_schema.tables t WHERE t.table_schema = current_schema()
AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
  AND d.objid = format('%I.%I', t.table_schema, t.table_name)::regclass AND d.deptype = 'e')

-- name: meta_table_exists
SELECT count(*) FROM information_schema.tables
WHERE table_schema = current_schema() AND table_name = 'storebench_meta'

-- name: meta_get
SELECT value FROM storebench_meta WHERE key = ?

-- name: meta_set
INSERT INTO storebench_meta (key, value) VALUES (?, ?)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value

-- name: snapshot
SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items),
       (SELECT count(*) FROM customers), (SELECT count(*) FROM logon)

-- name: verify_orders_without_items
SELECT count(*) FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id)

-- name: verify_negative_inventory
SELECT count(*) FROM inventories WHERE quantity_on_hand < 0

-- name: verify_order_totals
-- Orders whose total differs from the sum of their items' unit price x quantity.
SELECT count(*) FROM orders o
  JOIN (SELECT order_id, sum(unit_price * quantity) AS s FROM order_items GROUP BY order_id) i
    ON i.order_id = o.order_id
WHERE abs(o.order_total - i.s) > 0.005

-- name: query_timeout
-- The statement timeout of this session from a number of seconds (0 = none); the server
-- cancels a statement that runs longer (SQLSTATE 57014).
SELECT set_config('statement_timeout', CAST(CAST(? AS INTEGER) * 1000 AS TEXT), false)
