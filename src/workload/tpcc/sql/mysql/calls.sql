-- The calls of --sql_mode=procedures (procedures.sql); each returns one row. The New-Order's
-- lines travel as '{1,2,3}' lists, as on PostgreSQL.

-- name: call_new_order
CALL tpcc_new_order(?, ?, ?, ?, ?, ?, ?, ?)

-- name: call_payment
CALL tpcc_payment(?, ?, ?, ?, ?, ?, ?)

-- name: call_order_status
CALL tpcc_order_status(?, ?, ?, ?)

-- name: call_delivery
CALL tpcc_delivery(?, ?)

-- name: call_stock_level
CALL tpcc_stock_level(?, ?, ?)

-- name: call_hammerdb_new_order
-- --profile=hammerdb: warehouse, warehouse count, district, customer, line count.
CALL tpcc_hammerdb_new_order(?, ?, ?, ?, ?)
