-- Run after indexes.sql, each section on its own: statistics for the optimizer.

-- name: analyze
ANALYZE TABLE customers, addresses, card_details, warehouses, categories, product_information,
  product_descriptions, inventories, orders, order_items, logon
