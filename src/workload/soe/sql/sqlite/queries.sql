-- The Order Entry transactions' statements (SQLite), one "-- name:" section each; every
-- value is bound. docs/soe.md lists which transaction runs which statement.

-- name: next_customer_id
UPDATE soe_sequences SET next_value = next_value + 1 WHERE name = 'customer'
RETURNING next_value - 1

-- name: next_address_id
UPDATE soe_sequences SET next_value = next_value + 1 WHERE name = 'address'
RETURNING next_value - 1

-- name: next_card_id
UPDATE soe_sequences SET next_value = next_value + 1 WHERE name = 'card'
RETURNING next_value - 1

-- name: next_order_id
UPDATE soe_sequences SET next_value = next_value + 1 WHERE name = 'order'
RETURNING next_value - 1

-- name: insert_customer
-- customer_since and dob are today minus the bound number of days.
INSERT INTO customers (customer_id, cust_first_name, cust_last_name, nls_language, nls_territory,
  credit_limit, cust_email, account_mgr_id, customer_since, customer_class, suggestions, dob,
  mailshot, partner_mailshot, preferred_address, preferred_card)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, date('now', '-' || ? || ' days'), 'Occasional', 'Music',
  date('now', '-' || ? || ' days'), 'Y', 'N', ?, ?)

-- name: insert_address
INSERT INTO addresses (address_id, customer_id, date_created, house_no_or_name, street_name, town,
  county, country, post_code, zip_code)
VALUES (?, ?, date('now'), ?, ?, ?, ?, ?, ?, NULL)

-- name: insert_card
-- expiry_date is today plus the bound number of days.
INSERT INTO card_details (card_id, customer_id, card_type, card_number, expiry_date, is_valid,
  security_code)
VALUES (?, ?, 'Visa (Debit)', ?, date('now', '+' || ? || ' days'), 'Y', ?)

-- name: insert_logon
INSERT INTO logon (customer_id, logon_date) VALUES (?, datetime('now'))

-- name: get_customer
SELECT customer_id, cust_first_name, cust_last_name, nls_language, nls_territory, credit_limit,
  cust_email, account_mgr_id, customer_since, customer_class, suggestions, dob, mailshot,
  partner_mailshot, preferred_address, preferred_card
FROM customers WHERE customer_id = ?

-- name: get_customer_details
-- The customer with its addresses and cards (at most 14 rows): columns 0-5 are the customer's.
SELECT c.customer_id, c.cust_first_name, c.cust_last_name, c.account_mgr_id,
  c.preferred_address, c.preferred_card, c.customer_class, a.address_id, a.town, d.card_id,
  d.card_type
FROM customers c
  LEFT JOIN addresses a ON a.customer_id = c.customer_id
  LEFT JOIN card_details d ON d.customer_id = c.customer_id
WHERE c.customer_id = ? LIMIT 14

-- name: find_customers_by_name
SELECT customer_id, cust_first_name, cust_last_name FROM customers
WHERE lower(cust_last_name) = ? AND lower(cust_first_name) = ?
ORDER BY customer_id LIMIT 14

-- name: update_preferred_address
UPDATE customers SET preferred_address = ? WHERE customer_id = ?

-- name: product_details
SELECT p.product_id, d.translated_name, d.translated_description, p.list_price, i.warehouse_id,
  i.quantity_on_hand
FROM product_information p
  JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
  JOIN inventories i ON i.product_id = p.product_id
WHERE p.product_id = ? LIMIT 14

-- name: browse_category
-- Products of a category stocked at a warehouse: product_id, name, list_price, quantity.
SELECT p.product_id, d.translated_name, p.list_price, i.quantity_on_hand
FROM product_information p
  JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
  JOIN inventories i ON i.product_id = p.product_id AND i.warehouse_id = ?
WHERE p.category_id = ? ORDER BY p.product_id LIMIT 14

-- name: insert_order
INSERT INTO orders (order_id, order_date, order_mode, customer_id, order_status, order_total,
  sales_rep_id, promotion_id, warehouse_id, delivery_type, cost_of_delivery,
  wait_till_all_available, delivery_address_id, customer_class, card_id, invoice_address_id)
VALUES (?, datetime('now'), 'online', ?, 1, 0, ?, NULL, ?, 'Standard', ?, 'ship_asap', ?, ?, ?, ?)

-- name: stock_for_update
SELECT quantity_on_hand FROM inventories WHERE product_id = ? AND warehouse_id = ?

-- name: insert_order_item
INSERT INTO order_items (order_id, line_item_id, product_id, unit_price, quantity, dispatch_date,
  return_date, gift_wrap, item_condition, supplier_id, estimated_delivery)
VALUES (?, ?, ?, CAST(? AS REAL), 1, NULL, NULL, 'None', 'New', NULL, date('now', '+3 days'))

-- name: decrement_inventory
UPDATE inventories SET quantity_on_hand = quantity_on_hand - 1
WHERE product_id = ? AND warehouse_id = ? AND quantity_on_hand > 0

-- name: finish_order
UPDATE orders SET order_mode = 'online', order_status = ?, order_total = CAST(? AS REAL)
WHERE order_id = ?

-- name: pending_orders
-- Up to ? (--soe_variant's limit) unprocessed orders (status <= 4) of a warehouse, with
-- customer and items.
SELECT o.order_id, o.order_status, c.cust_last_name, i.product_id
FROM orders o
  JOIN customers c ON c.customer_id = o.customer_id
  LEFT JOIN order_items i ON i.order_id = o.order_id
WHERE o.warehouse_id = ? AND o.order_status <= 4 ORDER BY o.order_id LIMIT ?

-- name: process_order
UPDATE orders SET order_status = ? WHERE order_id = ? AND order_status <= 4

-- name: customer_orders
SELECT order_id, order_date, order_total, order_status FROM orders
WHERE customer_id = ? ORDER BY order_id LIMIT 14

-- name: order_items_of
SELECT line_item_id, product_id, unit_price, quantity FROM order_items
WHERE order_id = ? ORDER BY line_item_id LIMIT ?

-- name: bump_item
UPDATE order_items SET quantity = quantity + 1 WHERE order_id = ? AND line_item_id = ?

-- name: bump_order_total
UPDATE orders SET order_total = order_total + CAST(? AS REAL) WHERE order_id = ?

-- name: sales_rep_query
SELECT o.order_id, o.order_total, c.cust_last_name
FROM orders o JOIN customers c ON c.customer_id = o.customer_id
WHERE o.sales_rep_id = ? ORDER BY o.order_total DESC LIMIT 10

-- name: warehouse_query
SELECT o.order_mode, o.warehouse_id, sum(o.order_total), count(*)
FROM orders o JOIN warehouses w ON w.warehouse_id = o.warehouse_id
WHERE o.warehouse_id = ? GROUP BY o.order_mode, o.warehouse_id

-- name: warehouse_activity
-- Orders of a warehouse in the last hour, in twelve 5-minute buckets.
SELECT CAST((strftime('%s', 'now') - strftime('%s', o.order_date)) / 300 AS INTEGER) AS bucket,
  count(*), coalesce(sum(o.order_total), 0)
FROM orders o
WHERE o.warehouse_id = ? AND o.order_date > datetime('now', '-1 hour')
GROUP BY 1 ORDER BY 1
