-- Statements for load, readiness checks and verification (SQLite). SQLite has no statement
-- timeout, so there is no query_timeout section (the choice is recorded).

-- name: snapshot
SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items),
       (SELECT count(*) FROM customers), (SELECT count(*) FROM logon)

-- name: verify_orders_without_items
SELECT count(*) FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id)

-- name: verify_negative_inventory
SELECT count(*) FROM inventories WHERE quantity_on_hand < 0

-- name: verify_order_totals
-- SQLite keeps NUMERIC(8,2) values as floating point: totals agree within half a cent.
SELECT count(*) FROM orders o
  JOIN (SELECT order_id, sum(unit_price * quantity) AS s FROM order_items GROUP BY order_id) i
    ON i.order_id = o.order_id
WHERE abs(o.order_total - i.s) > 0.005
