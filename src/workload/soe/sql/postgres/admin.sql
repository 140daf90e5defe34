-- Statements for load, readiness checks and verification (PostgreSQL). Tables are looked up in
-- the connection's current schema only.

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
