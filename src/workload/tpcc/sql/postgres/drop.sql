DROP TABLE IF EXISTS item, warehouse, district, customer, history, orders, new_order, order_line,
  stock;
DELETE FROM storebench_meta;
