-- Statements for load, readiness checks and verification (MySQL/MariaDB). Tables are looked up
-- in the connection's database only.

-- name: snapshot
SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items),
       (SELECT count(*) FROM customers), (SELECT count(*) FROM logon)

-- name: verify_orders_without_items
SELECT count(*) FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id)

-- name: verify_negative_inventory
SELECT count(*) FROM inventories WHERE quantity_on_hand < 0

-- name: verify_order_totals
SELECT count(*) FROM orders o
  JOIN (SELECT order_id, sum(unit_price * quantity) AS s FROM order_items GROUP BY order_id) i
    ON i.order_id = o.order_id
WHERE abs(o.order_total - i.s) > 0.005

-- name: query_timeout
-- MariaDB's statement timeout of this session, in seconds (0 = none); the server aborts a
-- statement that runs longer (error 1969).
SET SESSION max_statement_time = ?
