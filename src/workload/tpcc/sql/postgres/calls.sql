-- The calls of --sql_mode=procedures (procedures.sql); arrays travel as text ('{1,2,3}').

-- name: call_new_order
SELECT tpcc_new_order(?, ?, ?, ?, CAST(? AS INT[]), CAST(? AS INT[]), CAST(? AS INT[]),
                      CAST(? AS INT[]))

-- name: call_payment
SELECT tpcc_payment(?, ?, ?, ?, ?, ?, CAST(? AS NUMERIC))

-- name: call_order_status
SELECT tpcc_order_status(?, ?, ?, ?)

-- name: call_delivery
SELECT tpcc_delivery(?, ?)

-- name: call_stock_level
SELECT tpcc_stock_level(?, ?, ?)

-- name: call_hammerdb_new_order
-- --profile=hammerdb: warehouse, warehouse count, district, customer, line count.
SELECT tpcc_hammerdb_new_order(?, ?, ?, ?, ?)
