-- --profile=hammerdb with --sql_mode=procedures: the calls of calls.sql by the same names, each
-- a procedure that begins and commits its transaction itself (procedures.sql, the _txn
-- procedures), so that the client sends one call per transaction and no BEGIN or COMMIT, as
-- HammerDB does (docs/tpcc.md, Profiles).

-- name: call_payment
CALL tpcc_payment_txn(?, ?, ?, ?, ?, ?, ?)

-- name: call_order_status
CALL tpcc_order_status_txn(?, ?, ?, ?)

-- name: call_delivery
CALL tpcc_delivery_txn(?, ?)

-- name: call_stock_level
CALL tpcc_stock_level_txn(?, ?, ?)

-- name: call_hammerdb_new_order
-- warehouse, warehouse count, district, customer, line count.
CALL tpcc_hammerdb_new_order_txn(?, ?, ?, ?, ?)
