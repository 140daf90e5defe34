-- The calls of --sql_mode=procedures (procedures.sql), one per transaction; every call ends with
-- the think-time range (min, max ms); NCR, BP, OP and BO take the logon's steps before it.
-- Lists of ids travel as text ('1,2,3').

-- name: call_ncr
SELECT * FROM soe_new_customer(?, ?, ?, ?, CAST(? AS INT), ?, CAST(? AS INT), CAST(? AS INT), ?,
  ?, ?, ?, CAST(? AS BIGINT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT),
  CAST(? AS INT))

-- name: call_ucd
SELECT * FROM soe_update_customer_details(?, ?, ?, ?, ?, ?, CAST(? AS INT), CAST(? AS INT))

-- name: call_bp
SELECT * FROM soe_browse_products(CAST(? AS BIGINT), CAST(string_to_array(?, ',') AS BIGINT[]),
  CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))

-- name: call_op
SELECT * FROM soe_new_order(CAST(? AS BIGINT), CAST(string_to_array(?, ',') AS INT[]),
  CAST(string_to_array(?, ',') AS INT[]), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT),
  CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))

-- name: call_po
SELECT * FROM soe_process_orders(CAST(? AS INT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT),
  CAST(? AS INT))

-- name: call_bo
SELECT * FROM soe_browse_and_update_orders(CAST(? AS BIGINT), CAST(? AS BIGINT),
  CAST(? AS BIGINT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))

-- name: call_sq
SELECT * FROM soe_sales_rep_query(CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))

-- name: call_wq
SELECT * FROM soe_warehouse_query(CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))

-- name: call_wa
SELECT * FROM soe_warehouse_activity(CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))
