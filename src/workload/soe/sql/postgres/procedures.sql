-- The Order Entry transactions as PL/pgSQL functions for --sql_mode=procedures, after the
-- ORDERENTRY package of Swingbench's PL/SQL benchmark (2.1 or 2.0; docs/soe.md): each runs the
-- statements of queries.sql in the order the client mode sends them, with the inputs the client
-- draws (so both modes leave the same rows for the same seed), sleeps its think times itself, and
-- returns one row: selects, inserts, updates, deletes, commits, rollbacks, the milliseconds it
-- slept, logons, and the rows it added (a customer or an order). A function call is one
-- transaction: the package's intermediate commits (after a logon, after a new customer) become
-- one commit at the end. One "-- name:" section per function, each installed on its own; lists
-- of ids arrive as arrays.

-- name: soe_sleep
-- A think time: uniform in [min, max] whole milliseconds, none when max is 0; the time slept.
CREATE OR REPLACE FUNCTION soe_sleep(p_min INT, p_max INT) RETURNS INT AS $$
DECLARE
  v_ms INT;
BEGIN
  IF p_max <= 0 THEN
    RETURN 0;
  END IF;
  v_ms := p_min + floor(random() * (p_max - p_min + 1))::INT;
  PERFORM pg_sleep(v_ms / 1000.0);
  RETURN v_ms;
END $$ LANGUAGE plpgsql

-- name: soe_logon
-- p_logon: 1 writes the LOGON row, 2 reads the customer first (package 2.1, which writes the
-- row one time in three: the client draws which). Returns the rows written (0 or 1).
CREATE OR REPLACE FUNCTION soe_logon(p_customer BIGINT, p_logon INT) RETURNS INT AS $$
DECLARE
  r RECORD;
BEGIN
  IF p_logon & 2 = 2 THEN
    FOR r IN SELECT * FROM customers WHERE customer_id = p_customer LOOP
    END LOOP;
  END IF;
  IF p_logon & 1 = 0 THEN
    RETURN 0;
  END IF;
  INSERT INTO logon (logon_id, customer_id, logon_date)
  VALUES (nextval('logon_seq'), p_customer, localtimestamp);
  RETURN 1;
END $$ LANGUAGE plpgsql

-- name: soe_new_customer
CREATE OR REPLACE FUNCTION soe_new_customer(p_first TEXT, p_last TEXT, p_nls_language TEXT,
    p_nls_territory TEXT, p_credit INT, p_email TEXT, p_mgr INT, p_dob_days INT, p_house TEXT,
    p_town TEXT, p_county TEXT, p_country TEXT, p_card_number BIGINT, p_expiry_days INT,
    p_security INT, p_logon INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  v_customer BIGINT := nextval('customer_seq');
  v_address BIGINT := nextval('address_seq');
  v_card BIGINT := nextval('card_details_seq');
  r RECORD;
BEGIN
  n_sel := 3; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  INSERT INTO customers (customer_id, cust_first_name, cust_last_name, nls_language,
    nls_territory, credit_limit, cust_email, account_mgr_id, customer_since, customer_class,
    suggestions, dob, mailshot, partner_mailshot, preferred_address, preferred_card)
  VALUES (v_customer, p_first, p_last, p_nls_language, p_nls_territory, p_credit, p_email, p_mgr,
    current_date, 'Occasional', 'Music', current_date - p_dob_days, 'Y', 'N', v_address, v_card);
  INSERT INTO addresses (address_id, customer_id, date_created, house_no_or_name, street_name,
    town, county, country, post_code, zip_code)
  VALUES (v_address, v_customer, current_date, p_house, 'Street Name', p_town, p_county,
    p_country, 'Postcode', NULL);
  INSERT INTO card_details (card_id, customer_id, card_type, card_number, expiry_date, is_valid,
    security_code)
  VALUES (v_card, v_customer, 'Visa (Debit)', p_card_number, current_date + p_expiry_days, 'Y',
    p_security);
  n_ins := 3; n_commit := 1; n_added := 1;
  slept_ms := soe_sleep(p_min, p_max);
  n_logon := soe_logon(v_customer, p_logon);
  n_sel := n_sel + (p_logon >> 1); n_ins := n_ins + n_logon; n_commit := n_commit + n_logon;
  FOR r IN SELECT * FROM customers WHERE customer_id = v_customer LOOP
  END LOOP;
  n_sel := n_sel + 1;
END $$ LANGUAGE plpgsql

-- name: soe_update_customer_details
CREATE OR REPLACE FUNCTION soe_update_customer_details(p_first TEXT, p_last TEXT, p_house TEXT,
    p_town TEXT, p_county TEXT, p_country TEXT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  v_customer BIGINT;
  v_found INT;
  v_address BIGINT;
BEGIN
  n_sel := 1; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  -- The package updates only when two or more customers have the name; the first of them.
  SELECT min(q.customer_id), count(*) INTO v_customer, v_found
  FROM (SELECT customer_id FROM customers
        WHERE lower(cust_last_name) = p_last AND lower(cust_first_name) = p_first
        ORDER BY customer_id LIMIT 14) q;
  slept_ms := soe_sleep(p_min, p_max);
  IF v_found < 2 THEN
    RETURN;
  END IF;
  v_address := nextval('address_seq');
  INSERT INTO addresses (address_id, customer_id, date_created, house_no_or_name, street_name,
    town, county, country, post_code, zip_code)
  VALUES (v_address, v_customer, current_date, p_house, 'Street Name', p_town, p_county,
    p_country, 'Postcode', NULL);
  UPDATE customers SET preferred_address = v_address WHERE customer_id = v_customer;
  n_sel := 2; n_ins := 1; n_upd := 1; n_commit := 1;
END $$ LANGUAGE plpgsql

-- name: soe_browse_products
CREATE OR REPLACE FUNCTION soe_browse_products(p_customer BIGINT, p_products BIGINT[],
    p_logon INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  r RECORD;
  v_product BIGINT;
BEGIN
  n_sel := 0; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  FOR r IN SELECT * FROM customers WHERE customer_id = p_customer LOOP
  END LOOP;
  n_sel := 1;
  slept_ms := soe_sleep(p_min, p_max);
  n_logon := soe_logon(p_customer, p_logon);
  n_sel := n_sel + (p_logon >> 1); n_ins := n_logon; n_commit := n_logon;
  slept_ms := slept_ms + soe_sleep(p_min, p_max);
  FOREACH v_product IN ARRAY p_products LOOP
    FOR r IN SELECT p.product_id, d.translated_name, d.translated_description, p.list_price,
        i.warehouse_id, i.quantity_on_hand
      FROM product_information p
        JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
        JOIN inventories i ON i.product_id = p.product_id
      WHERE p.product_id = v_product LIMIT 14 LOOP
    END LOOP;
    n_sel := n_sel + 1;
    slept_ms := slept_ms + soe_sleep(p_min, p_max);
  END LOOP;
END $$ LANGUAGE plpgsql

-- name: soe_new_order
-- The order goes to the last browse's warehouse with the first `lines` products of that browse
-- that are in stock there; no order when none is (the client mode rolls its order back).
CREATE OR REPLACE FUNCTION soe_new_order(p_customer BIGINT, p_warehouses INT[],
    p_categories INT[], p_lines INT, p_cost INT, p_status INT, p_logon INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  r RECORD;
  v_found BOOLEAN := FALSE;
  v_mgr BIGINT;
  v_address BIGINT;
  v_card BIGINT;
  v_class VARCHAR(40);
  v_wh INT;
  v_ids INT[];
  v_prices NUMERIC[];
  v_stocked INT[] := '{}';
  v_stocked_prices NUMERIC[] := '{}';
  v_on_hand INT;
  v_order BIGINT;
  v_total NUMERIC := 0;
BEGIN
  n_sel := 0; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  FOR r IN SELECT c.customer_id, c.cust_first_name, c.cust_last_name, c.account_mgr_id,
      c.preferred_address, c.preferred_card, c.customer_class, a.address_id, a.town, d.card_id,
      d.card_type
    FROM customers c
      LEFT JOIN addresses a ON a.customer_id = c.customer_id
      LEFT JOIN card_details d ON d.customer_id = c.customer_id
    WHERE c.customer_id = p_customer LIMIT 14 LOOP
    IF NOT v_found THEN
      v_found := TRUE;
      v_mgr := coalesce(r.account_mgr_id, 0);
      v_address := r.preferred_address;
      v_card := r.preferred_card;
      v_class := r.customer_class;
    END IF;
  END LOOP;
  n_sel := 1;
  slept_ms := soe_sleep(p_min, p_max);
  n_logon := soe_logon(p_customer, p_logon);
  n_sel := n_sel + (p_logon >> 1); n_ins := n_logon; n_commit := n_logon;
  slept_ms := slept_ms + soe_sleep(p_min, p_max);
  FOR b IN 1..coalesce(array_length(p_warehouses, 1), 0) LOOP
    v_wh := p_warehouses[b];
    SELECT array_agg(q.product_id ORDER BY q.product_id), array_agg(q.list_price ORDER BY q.product_id)
      INTO v_ids, v_prices
    FROM (SELECT p.product_id, d.translated_name, p.list_price, i.quantity_on_hand
          FROM product_information p
            JOIN product_descriptions d ON d.product_id = p.product_id AND d.language_id = 'US'
            JOIN inventories i ON i.product_id = p.product_id AND i.warehouse_id = v_wh
          WHERE p.category_id = p_categories[b] ORDER BY p.product_id LIMIT 14) q;
    n_sel := n_sel + 1;
    slept_ms := slept_ms + soe_sleep(p_min, p_max);
  END LOOP;
  slept_ms := slept_ms + soe_sleep(p_min, p_max);
  IF v_ids IS NULL OR NOT v_found THEN
    RETURN;
  END IF;
  v_order := nextval('orders_seq');
  n_sel := n_sel + 1;
  -- The package's sleeps after its order insert and around each line, with the inventory rows
  -- read so far locked (the order row itself is inserted below, once a line is in stock).
  slept_ms := slept_ms + soe_sleep(p_min, p_max);
  FOR l IN 1..least(p_lines, array_length(v_ids, 1)) LOOP
    slept_ms := slept_ms + soe_sleep(p_min, p_max);
    SELECT quantity_on_hand INTO v_on_hand FROM inventories
    WHERE product_id = v_ids[l] AND warehouse_id = v_wh FOR UPDATE;
    n_sel := n_sel + 1;
    IF coalesce(v_on_hand, 0) > 0 THEN
      v_stocked := v_stocked || v_ids[l];
      v_stocked_prices := v_stocked_prices || v_prices[l];
    END IF;
    slept_ms := slept_ms + soe_sleep(p_min, p_max);
  END LOOP;
  IF coalesce(array_length(v_stocked, 1), 0) = 0 THEN
    n_rollback := 1;
    RETURN;
  END IF;
  INSERT INTO orders (order_id, order_date, order_mode, customer_id, order_status, order_total,
    sales_rep_id, promotion_id, warehouse_id, delivery_type, cost_of_delivery,
    wait_till_all_available, delivery_address_id, customer_class, card_id, invoice_address_id)
  VALUES (v_order, localtimestamp, 'online', p_customer, 1, 0, v_mgr, NULL, v_wh, 'Standard',
    p_cost, 'ship_asap', v_address, v_class, v_card, v_address);
  n_ins := n_ins + 1;
  FOR l IN 1..array_length(v_stocked, 1) LOOP
    INSERT INTO order_items (order_id, line_item_id, product_id, unit_price, quantity,
      dispatch_date, return_date, gift_wrap, item_condition, supplier_id, estimated_delivery)
    VALUES (v_order, l, v_stocked[l], v_stocked_prices[l], 1, NULL, NULL, 'None', 'New', NULL,
      current_date + 3);
    UPDATE inventories SET quantity_on_hand = quantity_on_hand - 1
    WHERE product_id = v_stocked[l] AND warehouse_id = v_wh AND quantity_on_hand > 0;
    v_total := v_total + v_stocked_prices[l];
    n_ins := n_ins + 1;
    n_upd := n_upd + 1;
  END LOOP;
  UPDATE orders SET order_mode = 'online', order_status = p_status, order_total = v_total
  WHERE order_id = v_order;
  n_upd := n_upd + 1; n_commit := n_commit + 1; n_added := 1;
END $$ LANGUAGE plpgsql

-- name: soe_process_orders
CREATE OR REPLACE FUNCTION soe_process_orders(p_warehouse INT, p_status INT, p_limit INT,
    p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  v_order BIGINT;
BEGIN
  n_sel := 1; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  SELECT q.order_id INTO v_order
  FROM (SELECT o.order_id, o.order_status, c.cust_last_name, i.product_id
        FROM orders o
          JOIN customers c ON c.customer_id = o.customer_id
          LEFT JOIN order_items i ON i.order_id = o.order_id
        WHERE o.warehouse_id = p_warehouse AND o.order_status <= 4
        ORDER BY o.order_id LIMIT p_limit) q
  ORDER BY q.order_id LIMIT 1;
  slept_ms := soe_sleep(p_min, p_max);
  IF v_order IS NULL THEN
    RETURN;
  END IF;
  UPDATE orders SET order_status = p_status WHERE order_id = v_order AND order_status <= 4;
  n_upd := 1; n_commit := 1;
END $$ LANGUAGE plpgsql

-- name: soe_browse_and_update_orders
CREATE OR REPLACE FUNCTION soe_browse_and_update_orders(p_customer BIGINT, p_pick_order BIGINT,
    p_pick_line BIGINT, p_limit INT, p_logon INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  r RECORD;
  v_orders BIGINT[];
  v_order BIGINT;
  v_lines INT[];
  v_prices NUMERIC[];
  v_pick INT;
BEGIN
  n_sel := 0; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  FOR r IN SELECT c.customer_id, c.cust_first_name, c.cust_last_name, c.account_mgr_id,
      c.preferred_address, c.preferred_card, c.customer_class, a.address_id, a.town, d.card_id,
      d.card_type
    FROM customers c
      LEFT JOIN addresses a ON a.customer_id = c.customer_id
      LEFT JOIN card_details d ON d.customer_id = c.customer_id
    WHERE c.customer_id = p_customer LIMIT 14 LOOP
  END LOOP;
  n_sel := 1;
  slept_ms := soe_sleep(p_min, p_max);
  n_logon := soe_logon(p_customer, p_logon);
  n_sel := n_sel + (p_logon >> 1); n_ins := n_logon; n_commit := n_logon;
  slept_ms := slept_ms + soe_sleep(p_min, p_max);
  SELECT array_agg(q.order_id ORDER BY q.order_id) INTO v_orders
  FROM (SELECT order_id, order_date, order_total, order_status FROM orders
        WHERE customer_id = p_customer ORDER BY order_id LIMIT 14) q;
  n_sel := n_sel + 1;
  -- The package writes only with two or more orders and never picks the last one.
  IF coalesce(array_length(v_orders, 1), 0) < 2 THEN
    RETURN;
  END IF;
  v_order := v_orders[1 + p_pick_order % (array_length(v_orders, 1) - 1)];
  SELECT array_agg(q.line_item_id ORDER BY q.line_item_id),
         array_agg(q.unit_price ORDER BY q.line_item_id) INTO v_lines, v_prices
  FROM (SELECT line_item_id, product_id, unit_price, quantity FROM order_items
        WHERE order_id = v_order ORDER BY line_item_id LIMIT p_limit) q;
  n_sel := n_sel + 1;
  IF v_lines IS NOT NULL THEN
    v_pick := 1 + p_pick_line % greatest(1, array_length(v_lines, 1) - 1);
    UPDATE order_items SET quantity = quantity + 1
    WHERE order_id = v_order AND line_item_id = v_lines[v_pick];
    UPDATE orders SET order_total = order_total + v_prices[v_pick] WHERE order_id = v_order;
    n_upd := n_upd + 2;
  END IF;
  n_commit := n_commit + 1;
END $$ LANGUAGE plpgsql

-- name: soe_sales_rep_query
CREATE OR REPLACE FUNCTION soe_sales_rep_query(p_rep INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  r RECORD;
BEGIN
  n_sel := 1; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  FOR r IN SELECT o.order_id, o.order_total, c.cust_last_name
    FROM orders o JOIN customers c ON c.customer_id = o.customer_id
    WHERE o.sales_rep_id = p_rep ORDER BY o.order_total DESC LIMIT 10 LOOP
  END LOOP;
  slept_ms := soe_sleep(p_min, p_max);
END $$ LANGUAGE plpgsql

-- name: soe_warehouse_query
CREATE OR REPLACE FUNCTION soe_warehouse_query(p_warehouse INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  r RECORD;
BEGIN
  n_sel := 1; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  FOR r IN SELECT o.order_mode, o.warehouse_id, sum(o.order_total), count(*)
    FROM orders o JOIN warehouses w ON w.warehouse_id = o.warehouse_id
    WHERE o.warehouse_id = p_warehouse GROUP BY CUBE (o.order_mode, o.warehouse_id) LOOP
  END LOOP;
  slept_ms := soe_sleep(p_min, p_max);
END $$ LANGUAGE plpgsql

-- name: soe_warehouse_activity
CREATE OR REPLACE FUNCTION soe_warehouse_activity(p_warehouse INT, p_min INT, p_max INT,
    OUT n_sel INT, OUT n_ins INT, OUT n_upd INT, OUT n_del INT, OUT n_commit INT,
    OUT n_rollback INT, OUT slept_ms INT, OUT n_logon INT, OUT n_added INT) AS $$
DECLARE
  r RECORD;
BEGIN
  n_sel := 1; n_ins := 0; n_upd := 0; n_del := 0; n_commit := 0; n_rollback := 0;
  n_logon := 0; n_added := 0;
  FOR r IN SELECT floor(extract(epoch FROM localtimestamp - o.order_date) / 300) AS bucket,
      count(*), coalesce(sum(o.order_total), 0)
    FROM orders o
    WHERE o.warehouse_id = p_warehouse AND o.order_date > localtimestamp - interval '1 hour'
    GROUP BY 1 ORDER BY 1 LOOP
  END LOOP;
  slept_ms := soe_sleep(p_min, p_max);
END $$ LANGUAGE plpgsql
