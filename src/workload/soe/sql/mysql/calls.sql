-- The calls of --sql_mode=procedures (procedures.sql), one per transaction; every call ends with
-- the think-time range (min, max ms); NCR, BP, OP and BO take the logon's steps before it.
-- Lists of ids travel as text ('1,2,3').

-- name: call_ncr
CALL soe_new_customer(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: call_ucd
CALL soe_update_customer_details(?, ?, ?, ?, ?, ?, ?, ?)

-- name: call_bp
CALL soe_browse_products(?, ?, ?, ?, ?)

-- name: call_op
CALL soe_new_order(?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: call_po
CALL soe_process_orders(?, ?, ?, ?, ?)

-- name: call_bo
CALL soe_browse_and_update_orders(?, ?, ?, ?, ?, ?, ?)

-- name: call_sq
CALL soe_sales_rep_query(?, ?, ?)

-- name: call_wq
CALL soe_warehouse_query(?, ?, ?)

-- name: call_wa
CALL soe_warehouse_activity(?, ?, ?)
