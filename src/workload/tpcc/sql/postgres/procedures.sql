-- The five transactions as PL/pgSQL functions for --sql_mode=procedures: each does what the
-- client statements of queries.sql do, in the same order, so both modes leave the same rows for
-- the same inputs. One "-- name:" section per function (each installed on its own); the client
-- wraps each call in its transaction. A New-Order whose unused item is found raises SQLSTATE
-- SB002: the client rolls the transaction back and counts the rollback.

-- name: tpcc_new_order
CREATE OR REPLACE FUNCTION tpcc_new_order(p_w INT, p_d INT, p_c INT, p_all_local INT,
    p_numbers INT[], p_items INT[], p_supply INT[], p_qty INT[]) RETURNS INT AS $$
DECLARE
  v_o INT;
  v_price NUMERIC;
  v_qty INT;
  v_dist CHAR(24);
  n INT := array_length(p_items, 1);
BEGIN
  PERFORM w_tax FROM warehouse WHERE w_id = p_w;
  PERFORM c_discount FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  SELECT d_next_o_id INTO v_o FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
  UPDATE district SET d_next_o_id = v_o + 1 WHERE d_w_id = p_w AND d_id = p_d;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,
                      o_all_local)
  VALUES (v_o, p_d, p_w, p_c, CURRENT_TIMESTAMP, NULL, n, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
  FOR i IN 1..n LOOP
    SELECT i_price INTO v_price FROM item WHERE i_id = p_items[i];
    IF NOT FOUND THEN
      RAISE EXCEPTION 'item % is unused', p_items[i] USING ERRCODE = 'SB002';
    END IF;
    SELECT s_quantity, CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
      WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07
      WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
    INTO v_qty, v_dist FROM stock WHERE s_i_id = p_items[i] AND s_w_id = p_supply[i] FOR UPDATE;
    UPDATE stock SET s_quantity = CASE WHEN v_qty - p_qty[i] >= 10 THEN v_qty - p_qty[i]
                                       ELSE v_qty - p_qty[i] + 91 END,
      s_ytd = s_ytd + p_qty[i], s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + CASE WHEN p_supply[i] <> p_w THEN 1 ELSE 0 END
    WHERE s_i_id = p_items[i] AND s_w_id = p_supply[i];
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (v_o, p_d, p_w, p_numbers[i], p_items[i], p_supply[i], NULL, p_qty[i],
            p_qty[i] * v_price, v_dist);
  END LOOP;
  RETURN v_o;
END $$ LANGUAGE plpgsql

-- name: tpcc_payment
-- p_c = 0: the customer is chosen by p_last (the row at ceil(n / 2) in first-name order).
CREATE OR REPLACE FUNCTION tpcc_payment(p_w INT, p_d INT, p_c_w INT, p_c_d INT, p_c INT,
    p_last TEXT, p_amount NUMERIC) RETURNS INT AS $$
DECLARE
  v_w_name TEXT;
  v_d_name TEXT;
  v_c INT := p_c;
  v_n INT;
  v_credit TEXT;
  v_data TEXT;
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
  SELECT w_name INTO v_w_name FROM warehouse WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
  SELECT d_name INTO v_d_name FROM district WHERE d_w_id = p_w AND d_id = p_d;
  IF v_c = 0 THEN
    SELECT count(*) INTO v_n FROM customer
    WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;
    IF v_n = 0 THEN
      RAISE EXCEPTION 'no customer named %', p_last;
    END IF;
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last
    ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;
  END IF;
  SELECT c_credit INTO v_credit FROM customer
  WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c FOR UPDATE;
  IF v_credit = 'BC' THEN
    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
    v_data := left(v_c || ' ' || p_c_d || ' ' || p_c_w || ' ' || p_d || ' ' || p_w || ' ' ||
                   p_amount || ' | ' || v_data, 500);
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
      c_payment_cnt = c_payment_cnt + 1, c_data = v_data
    WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
  ELSE
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
      c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
  END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (v_c, p_c_d, p_c_w, p_d, p_w, CURRENT_TIMESTAMP, p_amount,
          v_w_name || '    ' || v_d_name);
  RETURN v_c;
END $$ LANGUAGE plpgsql

-- name: tpcc_order_status
CREATE OR REPLACE FUNCTION tpcc_order_status(p_w INT, p_d INT, p_c INT, p_last TEXT)
RETURNS INT AS $$
DECLARE
  v_c INT := p_c;
  v_n INT;
  v_o INT;
  v_lines INT;
BEGIN
  IF v_c = 0 THEN
    SELECT count(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last
    ORDER BY c_first OFFSET GREATEST((v_n + 1) / 2 - 1, 0) LIMIT 1;
  END IF;
  PERFORM c_balance FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c;
  SELECT o_id INTO v_o FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c
  ORDER BY o_id DESC LIMIT 1;
  SELECT count(*) INTO v_lines FROM order_line
  WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
  RETURN v_lines;
END $$ LANGUAGE plpgsql

-- name: tpcc_delivery
-- Returns the number of districts that had an order to deliver.
CREATE OR REPLACE FUNCTION tpcc_delivery(p_w INT, p_carrier INT) RETURNS INT AS $$
DECLARE
  v_o INT;
  v_c INT;
  v_done INT := 0;
  v_n INT;
BEGIN
  FOR d IN 1..10 LOOP
    SELECT no_o_id INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = d
    ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = d AND no_o_id = v_o;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    CONTINUE WHEN v_n = 0;
    SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = d AND o_id = v_o;
    UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = d AND o_id = v_o;
    UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP
    WHERE ol_w_id = p_w AND ol_d_id = d AND ol_o_id = v_o;
    UPDATE customer SET c_balance = c_balance + (SELECT COALESCE(SUM(ol_amount), 0)
        FROM order_line WHERE ol_w_id = p_w AND ol_d_id = d AND ol_o_id = v_o),
      c_delivery_cnt = c_delivery_cnt + 1
    WHERE c_w_id = p_w AND c_d_id = d AND c_id = v_c;
    v_done := v_done + 1;
  END LOOP;
  RETURN v_done;
END $$ LANGUAGE plpgsql

-- name: tpcc_stock_level
CREATE OR REPLACE FUNCTION tpcc_stock_level(p_w INT, p_d INT, p_threshold INT) RETURNS INT AS $$
DECLARE
  v_next INT;
  v_low INT;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock
  WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20
    AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;
  RETURN v_low;
END $$ LANGUAGE plpgsql

-- name: tpcc_hammerdb_new_order
-- --profile=hammerdb with --sql_mode=procedures: New-Order the way HammerDB's PostgreSQL NEWORD
-- runs it (docs/tpcc.md, Profiles), written for this schema. The driver gives the warehouse,
-- the warehouse count, the district, the customer and the line count; the function draws each
-- line itself, with the server's random(): item uniform in 1..100000 (in 1 % of orders the
-- last line names the unused item 100001), in 1 % of lines the supply warehouse
-- 1 + (w + r) mod W with r uniform in 0..W-1 (which may be w itself; the order is then no
-- longer all-local), quantity 1..10; lines in the order drawn. The unused item has no price and
-- no STOCK row: its line is inserted with amount 0 and the order commits, as HammerDB's
-- PostgreSQL NEWORD lets it commit. Returns the lines supplied by another warehouse.
CREATE OR REPLACE FUNCTION tpcc_hammerdb_new_order(p_w INT, p_max_w INT, p_d INT, p_c INT,
    p_ol_cnt INT) RETURNS INT AS $$
DECLARE
  v_o INT;
  v_price NUMERIC;
  v_dist CHAR(24);
  v_items INT[];
  v_supply INT[];
  v_qty INT[];
  v_all_local INT := 1;
  v_remote INT := 0;
  v_rbk INT := 1 + floor(random() * 100)::INT;
BEGIN
  FOR i IN 1..p_ol_cnt LOOP
    IF i = p_ol_cnt AND v_rbk = 1 THEN
      v_items[i] := 100001;
    ELSE
      v_items[i] := 1 + floor(random() * 100000)::INT;
    END IF;
    v_supply[i] := p_w;
    IF 1 + floor(random() * 100)::INT = 1 THEN
      v_all_local := 0;
      v_supply[i] := 1 + mod(p_w + floor(random() * p_max_w)::INT, p_max_w);
      IF v_supply[i] <> p_w THEN
        v_remote := v_remote + 1;
      END IF;
    END IF;
    v_qty[i] := 1 + floor(random() * 10)::INT;
  END LOOP;
  PERFORM w_tax FROM warehouse WHERE w_id = p_w;
  PERFORM c_discount FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d
  RETURNING d_next_o_id - 1 INTO v_o;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,
                      o_all_local)
  VALUES (v_o, p_d, p_w, p_c, CURRENT_TIMESTAMP, NULL, p_ol_cnt, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
  FOR i IN 1..p_ol_cnt LOOP
    SELECT i_price INTO v_price FROM item WHERE i_id = v_items[i];
    IF NOT FOUND THEN
      INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                              ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_o, p_d, p_w, i, v_items[i], v_supply[i], NULL, v_qty[i], 0, '');
      CONTINUE;
    END IF;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity - v_qty[i] >= 10
                                       THEN s_quantity - v_qty[i]
                                       ELSE s_quantity - v_qty[i] + 91 END,
      s_ytd = s_ytd + v_qty[i], s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + CASE WHEN v_supply[i] <> p_w THEN 1 ELSE 0 END
    WHERE s_i_id = v_items[i] AND s_w_id = v_supply[i]
    RETURNING CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
      WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07
      WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END INTO v_dist;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (v_o, p_d, p_w, i, v_items[i], v_supply[i], NULL, v_qty[i], v_qty[i] * v_price,
            v_dist);
  END LOOP;
  RETURN v_remote;
END $$ LANGUAGE plpgsql
