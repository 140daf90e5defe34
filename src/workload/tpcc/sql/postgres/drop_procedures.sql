DROP FUNCTION IF EXISTS tpcc_new_order, tpcc_payment, tpcc_order_status, tpcc_delivery,
  tpcc_stock_level, tpcc_hammerdb_new_order;
