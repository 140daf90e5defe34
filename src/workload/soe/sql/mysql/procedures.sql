-- The Order Entry transactions as MariaDB stored procedures for --sql_mode=procedures, after the
-- ORDERENTRY package of Swingbench's PL/SQL benchmark (2.1 or 2.0; docs/soe.md): each runs the
-- statements of queries.sql in the order the client mode sends them, with the inputs the client
-- draws (so both modes leave the same rows for the same seed), commits where the client mode
-- commits, sleeps its think times itself, and returns one row: selects, inserts, updates,
-- deletes, commits, rollbacks, the milliseconds it slept, logons, and the rows it added (a
-- customer or an order). An error rolls back the open transaction and reaches the client as
-- itself (a deadlock stays a deadlock). Lists of ids arrive as text ('1,2,3'), read as JSON.
-- One "-- name:" section per routine, each installed on its own; local names never equal a
-- column name (in a procedure a variable would win over the column). p_logon, the logon's
-- steps: 1 writes the LOGON row, 2 reads the customer first (package 2.1, which writes the row
-- one time in three: the client draws which).

-- name: soe_sleep
CREATE OR REPLACE FUNCTION soe_sleep(p_min INT, p_max INT) RETURNS INT
NOT DETERMINISTIC NO SQL
BEGIN
  DECLARE v_ms INT DEFAULT 0;
  IF p_max > 0 THEN
    SET v_ms = p_min + FLOOR(RAND() * (p_max - p_min + 1));
    DO SLEEP(v_ms / 1000);
  END IF;
  RETURN v_ms;
END

-- name: soe_new_customer
CREATE OR REPLACE PROCEDURE soe_new_customer(IN p_first VARCHAR(40), IN p_last VARCHAR(40),
    IN p_nls_language VARCHAR(3), IN p_nls_territory VARCHAR(30), IN p_credit INT,
    IN p_email VARCHAR(100), IN p_mgr INT, IN p_dob_days INT, IN p_house VARCHAR(60),
    IN p_town VARCHAR(60), IN p_county VARCHAR(60), IN p_country VARCHAR(60),
    IN p_card_number BIGINT, IN p_expiry_days INT, IN p_security INT, IN p_logon INT,
    IN p_min INT, IN p_max INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_customer BIGINT;
  DECLARE v_address BIGINT;
  DECLARE v_card BIGINT;
  DECLARE v_slept INT DEFAULT 0;
  DECLARE v_n INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SET v_customer = NEXTVAL(customer_seq);
  SET v_address = NEXTVAL(address_seq);
  SET v_card = NEXTVAL(card_details_seq);
  START TRANSACTION;
  INSERT INTO customers (customer_id, cust_first_name, cust_last_name, nls_language,
    nls_territory, credit_limit, cust_email, account_mgr_id, customer_since, customer_class,
    suggestions, dob, mailshot, partner_mailshot, preferred_address, preferred_card)
  VALUES (v_customer, p_first, p_last, p_nls_language, p_nls_territory, p_credit, p_email, p_mgr,
    CURRENT_DATE, 'Occasional', 'Music', CURRENT_DATE - INTERVAL p_dob_days DAY, 'Y', 'N',
    v_address, v_card);
  INSERT INTO addresses (address_id, customer_id, date_created, house_no_or_name, street_name,
    town, county, country, post_code, zip_code)
  VALUES (v_address, v_customer, CURRENT_DATE, p_house, 'Street Name', p_town, p_county,
    p_country, 'Postcode', NULL);
  INSERT INTO card_details (card_id, customer_id, card_type, card_number, expiry_date, is_valid,
    security_code)
  VALUES (v_card, v_customer, 'Visa (Debit)', p_card_number,
    CURRENT_DATE + INTERVAL p_expiry_days DAY, 'Y', p_security);
  COMMIT;
  SET v_slept = soe_sleep(p_min, p_max);
  IF p_logon & 2 = 2 THEN
    SELECT count(*) INTO v_n FROM (SELECT * FROM customers WHERE customer_id = v_customer) q;
  END IF;
  IF p_logon & 1 = 1 THEN
    INSERT INTO logon (logon_id, customer_id, logon_date)
    VALUES (NEXTVAL(logon_seq), v_customer, NOW());
  END IF;
  SELECT count(*) INTO v_n FROM (SELECT * FROM customers WHERE customer_id = v_customer) q;
  SELECT 4 + (p_logon >> 1) AS n_sel, 3 + (p_logon & 1) AS n_ins, 0 AS n_upd, 0 AS n_del,
    1 + (p_logon & 1) AS n_commit, 0 AS n_rollback, v_slept AS slept_ms,
    p_logon & 1 AS n_logon, 1 AS n_added;
END

-- name: soe_update_customer_details
CREATE OR REPLACE PROCEDURE soe_update_customer_details(IN p_first VARCHAR(40),
    IN p_last VARCHAR(40), IN p_house VARCHAR(60), IN p_town VARCHAR(60), IN p_county VARCHAR(60),
    IN p_country VARCHAR(60), IN p_min INT, IN p_max INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_customer BIGINT DEFAULT NULL;
  DECLARE v_found INT DEFAULT 0;
  DECLARE v_address BIGINT;
  DECLARE v_slept INT DEFAULT 0;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  -- The package updates only when two or more customers have the name; the first of them.
  SELECT min(q.customer_id), count(*) INTO v_customer, v_found
  FROM (SELECT customer_id FROM customers
        WHERE cust_last_name = p_last AND cust_first_name = p_first
        ORDER BY customer_id LIMIT 14) q;
  SET v_slept = soe_sleep(p_min, p_max);
  IF v_found < 2 THEN
    SELECT 1, 0, 0, 0, 0, 0, v_slept, 0, 0;
  ELSE
    SET v_address = NEXTVAL(address_seq);
    START TRANSACTION;
    INSERT INTO addresses (address_id, customer_id, date_created, house_no_or_name, street_name,
      town, county, country, post_code, zip_code)
    VALUES (v_address, v_customer, CURRENT_DATE, p_house, 'Street Name', p_town, p_county,
      p_country, 'Postcode', NULL);
    UPDATE customers SET preferred_address = v_address WHERE customer_id = v_customer;
    COMMIT;
    SELECT 2, 1, 1, 0, 1, 0, v_slept, 0, 0;
  END IF;
END

-- name: soe_browse_products
CREATE OR REPLACE PROCEDURE soe_browse_products(IN p_customer BIGINT, IN p_products TEXT,
    IN p_logon INT, IN p_min INT, IN p_max INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_list TEXT DEFAULT CONCAT('[', p_products, ']');
  DECLARE v_i INT DEFAULT 0;
  DECLARE v_product INT;
  DECLARE v_n INT;
  DECLARE v_slept INT DEFAULT 0;
  SELECT count(*) INTO v_n FROM (SELECT * FROM customers WHERE customer_id = p_customer) q;
  SET v_slept = soe_sleep(p_min, p_max);
  IF p_logon & 2 = 2 THEN
    SELECT count(*) INTO v_n FROM (SELECT * FROM customers WHERE customer_id = p_customer) q;
  END IF;
  IF p_logon & 1 = 1 THEN
    INSERT INTO logon (logon_id, customer_id, logon_date)
    VALUES (NEXTVAL(logon_seq), p_customer, NOW());
  END IF;
  SET v_slept = v_slept + soe_sleep(p_min, p_max);
  WHILE v_i < JSON_LENGTH(v_list) DO
    SET v_product = JSON_VALUE(v_list, CONCAT('$[', v_i, ']'));
    SELECT count(*) INTO v_n
    FROM (SELECT p.product_id, d.translated_name, d.translated_description, p.list_price,
            i.warehouse_id, i.quantity_on_hand
          FROM product_information p
            JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
            JOIN inventories i ON i.product_id = p.product_id
          WHERE p.product_id = v_product LIMIT 14) q;
    SET v_slept = v_slept + soe_sleep(p_min, p_max);
    SET v_i = v_i + 1;
  END WHILE;
  SELECT 1 + (p_logon >> 1) + JSON_LENGTH(v_list), p_logon & 1, 0, 0, p_logon & 1, 0, v_slept,
    p_logon & 1, 0;
END

-- name: soe_new_order
-- The order goes to the last browse's warehouse with the first `lines` products of that browse
-- that are in stock there; rolled back when none is, as the client mode does.
CREATE OR REPLACE PROCEDURE soe_new_order(IN p_customer BIGINT, IN p_warehouses TEXT,
    IN p_categories TEXT, IN p_lines INT, IN p_cost INT, IN p_status INT, IN p_logon INT,
    IN p_min INT, IN p_max INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_whs TEXT DEFAULT CONCAT('[', p_warehouses, ']');
  DECLARE v_cats TEXT DEFAULT CONCAT('[', p_categories, ']');
  DECLARE v_found INT DEFAULT 0;
  DECLARE v_mgr BIGINT DEFAULT 0;
  DECLARE v_address BIGINT DEFAULT NULL;
  DECLARE v_card BIGINT DEFAULT NULL;
  DECLARE v_class VARCHAR(40) DEFAULT NULL;
  DECLARE v_wh INT DEFAULT 0;
  DECLARE v_cat INT DEFAULT 0;
  DECLARE v_rows INT DEFAULT 0;
  DECLARE v_b INT DEFAULT 0;
  DECLARE v_l INT DEFAULT 0;
  DECLARE v_order BIGINT;
  DECLARE v_items INT DEFAULT 0;
  DECLARE v_product INT;
  DECLARE v_price DECIMAL(8,2);
  DECLARE v_on_hand INT;
  DECLARE v_total DECIMAL(12,2) DEFAULT 0;
  DECLARE v_sel INT DEFAULT 1;
  DECLARE v_n INT;
  DECLARE v_slept INT DEFAULT 0;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SELECT count(*) INTO v_found
  FROM (SELECT c.customer_id, c.cust_first_name, c.cust_last_name, c.account_mgr_id,
          c.preferred_address, c.preferred_card, c.customer_class, a.address_id, a.town,
          d.card_id, d.card_type
        FROM customers c
          LEFT JOIN addresses a ON a.customer_id = c.customer_id
          LEFT JOIN card_details d ON d.customer_id = c.customer_id
        WHERE c.customer_id = p_customer LIMIT 14) q;
  IF v_found > 0 THEN
    SELECT coalesce(account_mgr_id, 0), preferred_address, preferred_card, customer_class
      INTO v_mgr, v_address, v_card, v_class
    FROM customers WHERE customer_id = p_customer;
  END IF;
  SET v_slept = soe_sleep(p_min, p_max);
  IF p_logon & 2 = 2 THEN
    SELECT count(*) INTO v_n FROM (SELECT * FROM customers WHERE customer_id = p_customer) q;
  END IF;
  IF p_logon & 1 = 1 THEN
    INSERT INTO logon (logon_id, customer_id, logon_date)
    VALUES (NEXTVAL(logon_seq), p_customer, NOW());
  END IF;
  SET v_sel = v_sel + (p_logon >> 1);
  SET v_slept = v_slept + soe_sleep(p_min, p_max);
  WHILE v_b < JSON_LENGTH(v_whs) DO
    SET v_wh = JSON_VALUE(v_whs, CONCAT('$[', v_b, ']'));
    SET v_cat = JSON_VALUE(v_cats, CONCAT('$[', v_b, ']'));
    SELECT count(*) INTO v_rows
    FROM (SELECT p.product_id, d.translated_name, p.list_price, i.quantity_on_hand
          FROM product_information p
            JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
            JOIN inventories i ON i.product_id = p.product_id AND i.warehouse_id = v_wh
          WHERE p.category_id = v_cat ORDER BY p.product_id LIMIT 14) q;
    SET v_sel = v_sel + 1;
    SET v_slept = v_slept + soe_sleep(p_min, p_max);
    SET v_b = v_b + 1;
  END WHILE;
  SET v_slept = v_slept + soe_sleep(p_min, p_max);
  IF v_rows = 0 OR v_found = 0 THEN
    SELECT v_sel, p_logon & 1, 0, 0, p_logon & 1, 0, v_slept, p_logon & 1, 0;
  ELSE
    SET v_order = NEXTVAL(orders_seq);
    SET v_sel = v_sel + 1;
    START TRANSACTION;
    INSERT INTO orders (order_id, order_date, order_mode, customer_id, order_status, order_total,
      sales_rep_id, promotion_id, warehouse_id, delivery_type, cost_of_delivery,
      wait_till_all_available, delivery_address_id, customer_class, card_id, invoice_address_id)
    VALUES (v_order, NOW(), 'online', p_customer, 1, 0, v_mgr, NULL, v_wh, 'Standard', p_cost,
      'ship_asap', v_address, v_class, v_card, v_address);
    -- The package sleeps inside its transaction: after the order, around each line.
    SET v_slept = v_slept + soe_sleep(p_min, p_max);
    WHILE v_l < LEAST(p_lines, v_rows) DO
      SET v_slept = v_slept + soe_sleep(p_min, p_max);
      SELECT q.product_id, q.list_price INTO v_product, v_price
      FROM (SELECT p.product_id, p.list_price
            FROM product_information p
              JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
              JOIN inventories i ON i.product_id = p.product_id AND i.warehouse_id = v_wh
            WHERE p.category_id = v_cat ORDER BY p.product_id LIMIT 14) q
      ORDER BY q.product_id LIMIT 1 OFFSET v_l;
      SET v_on_hand = 0;
      SELECT coalesce(max(quantity_on_hand), 0) INTO v_on_hand FROM inventories
      WHERE product_id = v_product AND warehouse_id = v_wh FOR UPDATE;
      SET v_sel = v_sel + 1;
      IF v_on_hand > 0 THEN
        SET v_items = v_items + 1;
        INSERT INTO order_items (order_id, line_item_id, product_id, unit_price, quantity,
          dispatch_date, return_date, gift_wrap, item_condition, supplier_id, estimated_delivery)
        VALUES (v_order, v_items, v_product, v_price, 1, NULL, NULL, 'None', 'New', NULL,
          CURRENT_DATE + INTERVAL 3 DAY);
        UPDATE inventories SET quantity_on_hand = quantity_on_hand - 1
        WHERE product_id = v_product AND warehouse_id = v_wh AND quantity_on_hand > 0;
        SET v_total = v_total + v_price;
      END IF;
      SET v_slept = v_slept + soe_sleep(p_min, p_max);
      SET v_l = v_l + 1;
    END WHILE;
    IF v_items = 0 THEN
      ROLLBACK;
      SELECT v_sel, 1 + (p_logon & 1), 0, 0, p_logon & 1, 1, v_slept, p_logon & 1, 0;
    ELSE
      UPDATE orders SET order_mode = 'online', order_status = p_status, order_total = v_total
      WHERE order_id = v_order;
      COMMIT;
      SELECT v_sel, 1 + (p_logon & 1) + v_items, 1 + v_items, 0, 1 + (p_logon & 1), 0, v_slept,
        p_logon & 1, 1;
    END IF;
  END IF;
END

-- name: soe_process_orders
CREATE OR REPLACE PROCEDURE soe_process_orders(IN p_warehouse INT, IN p_status INT,
    IN p_limit INT, IN p_min INT, IN p_max INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_order BIGINT DEFAULT NULL;
  DECLARE v_slept INT DEFAULT 0;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SELECT min(q.order_id) INTO v_order
  FROM (SELECT o.order_id, o.order_status, c.cust_last_name, i.product_id
        FROM orders o
          JOIN customers c ON c.customer_id = o.customer_id
          LEFT JOIN order_items i ON i.order_id = o.order_id
        WHERE o.warehouse_id = p_warehouse AND o.order_status <= 4
        ORDER BY o.order_id LIMIT p_limit) q;
  SET v_slept = soe_sleep(p_min, p_max);
  IF v_order IS NULL THEN
    SELECT 1, 0, 0, 0, 0, 0, v_slept, 0, 0;
  ELSE
    START TRANSACTION;
    UPDATE orders SET order_status = p_status WHERE order_id = v_order AND order_status <= 4;
    COMMIT;
    SELECT 1, 0, 1, 0, 1, 0, v_slept, 0, 0;
  END IF;
END

-- name: soe_browse_and_update_orders
CREATE OR REPLACE PROCEDURE soe_browse_and_update_orders(IN p_customer BIGINT,
    IN p_pick_order BIGINT, IN p_pick_line BIGINT, IN p_limit INT, IN p_logon INT, IN p_min INT,
    IN p_max INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_n INT;
  DECLARE v_order BIGINT;
  DECLARE v_line INT;
  DECLARE v_price DECIMAL(8,2);
  DECLARE v_offset BIGINT;
  DECLARE v_slept INT DEFAULT 0;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SELECT count(*) INTO v_n
  FROM (SELECT c.customer_id, c.cust_first_name, c.cust_last_name, c.account_mgr_id,
          c.preferred_address, c.preferred_card, c.customer_class, a.address_id, a.town,
          d.card_id, d.card_type
        FROM customers c
          LEFT JOIN addresses a ON a.customer_id = c.customer_id
          LEFT JOIN card_details d ON d.customer_id = c.customer_id
        WHERE c.customer_id = p_customer LIMIT 14) q;
  SET v_slept = soe_sleep(p_min, p_max);
  IF p_logon & 2 = 2 THEN
    SELECT count(*) INTO v_n FROM (SELECT * FROM customers WHERE customer_id = p_customer) q;
  END IF;
  IF p_logon & 1 = 1 THEN
    INSERT INTO logon (logon_id, customer_id, logon_date)
    VALUES (NEXTVAL(logon_seq), p_customer, NOW());
  END IF;
  SET v_slept = v_slept + soe_sleep(p_min, p_max);
  SELECT count(*) INTO v_n
  FROM (SELECT order_id FROM orders WHERE customer_id = p_customer ORDER BY order_id LIMIT 14) q;
  -- The package writes only with two or more orders and never picks the last one.
  IF v_n < 2 THEN
    SELECT 2 + (p_logon >> 1), p_logon & 1, 0, 0, p_logon & 1, 0, v_slept, p_logon & 1, 0;
  ELSE
    SET v_offset = p_pick_order % (v_n - 1);
    SELECT order_id INTO v_order FROM orders WHERE customer_id = p_customer
    ORDER BY order_id LIMIT 1 OFFSET v_offset;
    START TRANSACTION;
    SELECT count(*) INTO v_n
    FROM (SELECT line_item_id FROM order_items WHERE order_id = v_order
          ORDER BY line_item_id LIMIT p_limit) q;
    IF v_n > 0 THEN
      SET v_offset = p_pick_line % GREATEST(1, v_n - 1);
      SELECT line_item_id, unit_price INTO v_line, v_price FROM order_items
      WHERE order_id = v_order ORDER BY line_item_id LIMIT 1 OFFSET v_offset;
      UPDATE order_items SET quantity = quantity + 1
      WHERE order_id = v_order AND line_item_id = v_line;
      UPDATE orders SET order_total = order_total + v_price WHERE order_id = v_order;
    END IF;
    COMMIT;
    SELECT 3 + (p_logon >> 1), p_logon & 1, IF(v_n > 0, 2, 0), 0, 1 + (p_logon & 1), 0, v_slept,
      p_logon & 1, 0;
  END IF;
END

-- name: soe_sales_rep_query
CREATE OR REPLACE PROCEDURE soe_sales_rep_query(IN p_rep INT, IN p_min INT, IN p_max INT)
READS SQL DATA
BEGIN
  DECLARE v_n INT;
  SELECT count(*) INTO v_n
  FROM (SELECT o.order_id, o.order_total, c.cust_last_name
        FROM orders o JOIN customers c ON c.customer_id = o.customer_id
        WHERE o.sales_rep_id = p_rep ORDER BY o.order_total DESC LIMIT 10) q;
  SELECT 1, 0, 0, 0, 0, 0, soe_sleep(p_min, p_max), 0, 0;
END

-- name: soe_warehouse_query
CREATE OR REPLACE PROCEDURE soe_warehouse_query(IN p_warehouse INT, IN p_min INT, IN p_max INT)
READS SQL DATA
BEGIN
  DECLARE v_n INT;
  SELECT count(*) INTO v_n
  FROM (SELECT o.order_mode, o.warehouse_id, sum(o.order_total), count(*)
        FROM orders o JOIN warehouses w ON w.warehouse_id = o.warehouse_id
        WHERE o.warehouse_id = p_warehouse
        GROUP BY o.order_mode, o.warehouse_id WITH ROLLUP) q;
  SELECT 1, 0, 0, 0, 0, 0, soe_sleep(p_min, p_max), 0, 0;
END

-- name: soe_warehouse_activity
CREATE OR REPLACE PROCEDURE soe_warehouse_activity(IN p_warehouse INT, IN p_min INT,
    IN p_max INT)
READS SQL DATA
BEGIN
  DECLARE v_n INT;
  SELECT count(*) INTO v_n
  FROM (SELECT floor(TIMESTAMPDIFF(SECOND, o.order_date, NOW()) / 300) AS bucket, count(*),
          coalesce(sum(o.order_total), 0)
        FROM orders o
        WHERE o.warehouse_id = p_warehouse AND o.order_date > NOW() - INTERVAL 1 HOUR
        GROUP BY 1 ORDER BY 1) q;
  SELECT 1, 0, 0, 0, 0, 0, soe_sleep(p_min, p_max), 0, 0;
END
