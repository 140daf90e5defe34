-- The five transactions as MySQL/MariaDB stored procedures for --sql_mode=procedures, the
-- counterparts of HammerDB's MySQL NEWORD, PAYMENT, OSTAT, DELIVERY and SLEV (HammerDB's draw
-- their inputs inside; these take them from the driver, so that both modes run the same
-- transactions for one seed). Each does what the client statements of queries.sql do, in the
-- same order, so both modes leave the same rows for the same inputs; each returns one row. One
-- "-- name:" section per procedure, installed on its own as a multi-statement script (the
-- server parses a compound statement whole, so no DELIMITER is needed); the DROP first makes
-- `load --force` reinstall them. The client wraps each call in its transaction (the _txn
-- procedures at the end, of --profile=hammerdb, begin and commit their own). A New-Order
-- whose unused item is found signals SQLSTATE SB002: the client rolls the transaction back and
-- counts the rollback. Parameters and variables start with p_ and v_ so that none equals a
-- column name (in a procedure a variable would win over the column of the same name).

-- name: tpcc_new_order
-- The lines' numbers, items, supply warehouses and quantities come as '{1,2,3}' lists, the
-- form the PostgreSQL function reads as arrays.
DROP PROCEDURE IF EXISTS tpcc_new_order;
CREATE PROCEDURE tpcc_new_order(IN p_w INT, IN p_d INT, IN p_c INT, IN p_all_local INT,
    IN p_numbers VARCHAR(200), IN p_items VARCHAR(200), IN p_supply VARCHAR(200),
    IN p_qty VARCHAR(200))
MODIFIES SQL DATA
BEGIN
  DECLARE v_o INT;
  DECLARE v_n INT;
  DECLARE v_i INT DEFAULT 1;
  DECLARE v_number INT;
  DECLARE v_item INT;
  DECLARE v_supply INT;
  DECLARE v_qty INT;
  DECLARE v_price DECIMAL(5,2);
  DECLARE v_stock INT;
  DECLARE v_dist CHAR(24);
  DECLARE v_tax DECIMAL(4,4);
  DECLARE v_discount DECIMAL(4,4);
  SET p_numbers = SUBSTRING(p_numbers, 2, CHAR_LENGTH(p_numbers) - 2);
  SET p_items = SUBSTRING(p_items, 2, CHAR_LENGTH(p_items) - 2);
  SET p_supply = SUBSTRING(p_supply, 2, CHAR_LENGTH(p_supply) - 2);
  SET p_qty = SUBSTRING(p_qty, 2, CHAR_LENGTH(p_qty) - 2);
  SET v_n = CHAR_LENGTH(p_items) - CHAR_LENGTH(REPLACE(p_items, ',', '')) + 1;
  SELECT w_tax INTO v_tax FROM warehouse WHERE w_id = p_w;
  SELECT c_discount INTO v_discount FROM customer
  WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  SELECT d_next_o_id INTO v_o FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
  UPDATE district SET d_next_o_id = v_o + 1 WHERE d_w_id = p_w AND d_id = p_d;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,
                      o_all_local)
  VALUES (v_o, p_d, p_w, p_c, CURRENT_TIMESTAMP, NULL, v_n, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
  WHILE v_i <= v_n DO
    SET v_number = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_numbers, ',', v_i), ',', -1) AS SIGNED);
    SET v_item = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_items, ',', v_i), ',', -1) AS SIGNED);
    SET v_supply = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_supply, ',', v_i), ',', -1) AS SIGNED);
    SET v_qty = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_qty, ',', v_i), ',', -1) AS SIGNED);
    SET v_price = NULL;
    SELECT i_price INTO v_price FROM item WHERE i_id = v_item;
    IF v_price IS NULL THEN
      SIGNAL SQLSTATE 'SB002' SET MESSAGE_TEXT = 'the New-Order names the unused item';
    END IF;
    SELECT s_quantity, ELT(p_d, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
                           s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10)
    INTO v_stock, v_dist FROM stock WHERE s_i_id = v_item AND s_w_id = v_supply FOR UPDATE;
    UPDATE stock SET s_quantity = IF(v_stock - v_qty >= 10, v_stock - v_qty, v_stock - v_qty + 91),
      s_ytd = s_ytd + v_qty, s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + IF(v_supply <> p_w, 1, 0)
    WHERE s_i_id = v_item AND s_w_id = v_supply;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (v_o, p_d, p_w, v_number, v_item, v_supply, NULL, v_qty, v_qty * v_price, v_dist);
    SET v_i = v_i + 1;
  END WHILE;
  SELECT v_o AS o_id;
END

-- name: tpcc_payment
-- p_c = 0: the customer is chosen by p_last (the row at ceil(n / 2) in first-name order).
DROP PROCEDURE IF EXISTS tpcc_payment;
CREATE PROCEDURE tpcc_payment(IN p_w INT, IN p_d INT, IN p_c_w INT, IN p_c_d INT, IN p_c INT,
    IN p_last VARCHAR(16), IN p_amount DECIMAL(6,2))
MODIFIES SQL DATA
BEGIN
  DECLARE v_w_name VARCHAR(10);
  DECLARE v_d_name VARCHAR(10);
  DECLARE v_c INT DEFAULT p_c;
  DECLARE v_n INT;
  DECLARE v_skip INT;
  DECLARE v_credit CHAR(2);
  DECLARE v_data VARCHAR(500);
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
  SELECT w_name INTO v_w_name FROM warehouse WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
  SELECT d_name INTO v_d_name FROM district WHERE d_w_id = p_w AND d_id = p_d;
  IF v_c = 0 THEN
    SELECT count(*) INTO v_n FROM customer
    WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no customer of that last name';
    END IF;
    SET v_skip = (v_n + 1) DIV 2 - 1;
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last
    ORDER BY c_first LIMIT v_skip, 1;
  END IF;
  SELECT c_credit INTO v_credit FROM customer
  WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c FOR UPDATE;
  IF v_credit = 'BC' THEN
    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
    SET v_data = LEFT(CONCAT(v_c, ' ', p_c_d, ' ', p_c_w, ' ', p_d, ' ', p_w, ' ', p_amount,
                             ' | ', v_data), 500);
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
          CONCAT(v_w_name, '    ', v_d_name));
  SELECT v_c AS c_id;
END

-- name: tpcc_order_status
DROP PROCEDURE IF EXISTS tpcc_order_status;
CREATE PROCEDURE tpcc_order_status(IN p_w INT, IN p_d INT, IN p_c INT, IN p_last VARCHAR(16))
READS SQL DATA
BEGIN
  DECLARE v_c INT DEFAULT p_c;
  DECLARE v_n INT;
  DECLARE v_skip INT;
  DECLARE v_balance DECIMAL(12,2);
  DECLARE v_o INT;
  DECLARE v_lines INT;
  IF v_c = 0 THEN
    SELECT count(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    SET v_skip = GREATEST((v_n + 1) DIV 2 - 1, 0);
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last
    ORDER BY c_first LIMIT v_skip, 1;
  END IF;
  SELECT c_balance INTO v_balance FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c;
  SELECT o_id INTO v_o FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c
  ORDER BY o_id DESC LIMIT 1;
  SELECT count(*) INTO v_lines FROM order_line
  WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
  SELECT v_lines AS line_count;
END

-- name: tpcc_delivery
-- Returns the number of districts that had an order to deliver.
DROP PROCEDURE IF EXISTS tpcc_delivery;
CREATE PROCEDURE tpcc_delivery(IN p_w INT, IN p_carrier INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_d INT DEFAULT 1;
  DECLARE v_o INT;
  DECLARE v_c INT;
  DECLARE v_done INT DEFAULT 0;
  WHILE v_d <= 10 DO
    SET v_o = NULL;
    SELECT no_o_id INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d
    ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    IF v_o IS NOT NULL THEN
      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o;
      IF ROW_COUNT() > 0 THEN
        SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
        UPDATE orders SET o_carrier_id = p_carrier
        WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
        UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP
        WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
        UPDATE customer SET c_balance = c_balance + (SELECT COALESCE(SUM(ol_amount), 0)
            FROM order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o),
          c_delivery_cnt = c_delivery_cnt + 1
        WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c;
        SET v_done = v_done + 1;
      END IF;
    END IF;
    SET v_d = v_d + 1;
  END WHILE;
  SELECT v_done AS delivered;
END

-- name: tpcc_stock_level
DROP PROCEDURE IF EXISTS tpcc_stock_level;
CREATE PROCEDURE tpcc_stock_level(IN p_w INT, IN p_d INT, IN p_threshold INT)
READS SQL DATA
BEGIN
  DECLARE v_next INT;
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SELECT COUNT(DISTINCT s_i_id) AS low_stock FROM order_line, stock
  WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20
    AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END

-- name: tpcc_hammerdb_new_order
-- --profile=hammerdb with --sql_mode=procedures: New-Order the way HammerDB's MariaDB NEWORD
-- runs it (docs/tpcc.md, Profiles), written for this schema. The driver gives the warehouse,
-- the warehouse count, the district, the customer and the line count; the procedure draws each
-- line itself, with the server's RAND(): item uniform in 1..100000 (when a draw in 1..99 is 1,
-- the last line names the unused item 100001), in 1 % of lines another supply warehouse drawn
-- uniformly until it differs, quantity 1..10; lines in the order drawn. The unused item has no
-- price: HammerDB's procedure rolls the order back there, and this one signals SQLSTATE SB002,
-- on which the client rolls back and counts the rollback. Returns the lines supplied by
-- another warehouse.
DROP PROCEDURE IF EXISTS tpcc_hammerdb_new_order;
CREATE PROCEDURE tpcc_hammerdb_new_order(IN p_w INT, IN p_max_w INT, IN p_d INT, IN p_c INT,
    IN p_ol_cnt INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_o INT;
  DECLARE v_i INT DEFAULT 1;
  DECLARE v_item INT;
  DECLARE v_supply INT;
  DECLARE v_qty INT;
  DECLARE v_price DECIMAL(5,2);
  DECLARE v_stock INT;
  DECLARE v_dist CHAR(24);
  DECLARE v_tax DECIMAL(4,4);
  DECLARE v_discount DECIMAL(4,4);
  DECLARE v_remote INT DEFAULT 0;
  DECLARE v_rbk INT DEFAULT FLOOR(1 + RAND() * 99);
  SELECT w_tax INTO v_tax FROM warehouse WHERE w_id = p_w;
  SELECT c_discount INTO v_discount FROM customer
  WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  SELECT d_next_o_id INTO v_o FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
  UPDATE district SET d_next_o_id = v_o + 1 WHERE d_w_id = p_w AND d_id = p_d;
  -- O_ALL_LOCAL is set after the lines, once their supply warehouses are drawn.
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,
                      o_all_local)
  VALUES (v_o, p_d, p_w, p_c, CURRENT_TIMESTAMP, NULL, p_ol_cnt, 1);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
  WHILE v_i <= p_ol_cnt DO
    IF v_i = p_ol_cnt AND v_rbk = 1 THEN
      SET v_item = 100001;
    ELSE
      SET v_item = FLOOR(1 + RAND() * 100000);
    END IF;
    SET v_supply = p_w;
    IF FLOOR(1 + RAND() * 100) = 1 THEN
      WHILE v_supply = p_w AND p_max_w <> 1 DO
        SET v_supply = FLOOR(1 + RAND() * p_max_w);
      END WHILE;
    END IF;
    SET v_qty = FLOOR(1 + RAND() * 10);
    SET v_price = NULL;
    SELECT i_price INTO v_price FROM item WHERE i_id = v_item;
    IF v_price IS NULL THEN
      SIGNAL SQLSTATE 'SB002' SET MESSAGE_TEXT = 'the New-Order names the unused item';
    END IF;
    SELECT s_quantity, ELT(p_d, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
                           s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10)
    INTO v_stock, v_dist FROM stock WHERE s_i_id = v_item AND s_w_id = v_supply FOR UPDATE;
    UPDATE stock SET s_quantity = IF(v_stock - v_qty >= 10, v_stock - v_qty, v_stock - v_qty + 91),
      s_ytd = s_ytd + v_qty, s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + IF(v_supply <> p_w, 1, 0)
    WHERE s_i_id = v_item AND s_w_id = v_supply;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (v_o, p_d, p_w, v_i, v_item, v_supply, NULL, v_qty, v_qty * v_price, v_dist);
    IF v_supply <> p_w THEN
      SET v_remote = v_remote + 1;
    END IF;
    SET v_i = v_i + 1;
  END WHILE;
  IF v_remote > 0 THEN
    UPDATE orders SET o_all_local = 0 WHERE o_w_id = p_w AND o_d_id = p_d AND o_id = v_o;
  END IF;
  SELECT v_remote AS remote_lines;
END

-- name: tpcc_payment_txn
-- The transactions of --profile=hammerdb with --sql_mode=procedures (hammerdb_calls.sql): each
-- of the procedures above in a transaction of its own, begun and committed inside, so that a
-- transaction is one call, one round trip, as HammerDB's MariaDB procedures are (they commit
-- inside themselves; docs/tpcc.md, Profiles). On any error the transaction rolls back and the
-- error goes on to the client unchanged (the unused item's SB002, a deadlock to retry).
DROP PROCEDURE IF EXISTS tpcc_payment_txn;
CREATE PROCEDURE tpcc_payment_txn(IN p_w INT, IN p_d INT, IN p_c_w INT, IN p_c_d INT, IN p_c INT,
    IN p_last VARCHAR(16), IN p_amount DECIMAL(6,2))
MODIFIES SQL DATA
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  CALL tpcc_payment(p_w, p_d, p_c_w, p_c_d, p_c, p_last, p_amount);
  COMMIT;
END

-- name: tpcc_order_status_txn
DROP PROCEDURE IF EXISTS tpcc_order_status_txn;
CREATE PROCEDURE tpcc_order_status_txn(IN p_w INT, IN p_d INT, IN p_c INT, IN p_last VARCHAR(16))
READS SQL DATA
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  CALL tpcc_order_status(p_w, p_d, p_c, p_last);
  COMMIT;
END

-- name: tpcc_delivery_txn
DROP PROCEDURE IF EXISTS tpcc_delivery_txn;
CREATE PROCEDURE tpcc_delivery_txn(IN p_w INT, IN p_carrier INT)
MODIFIES SQL DATA
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  CALL tpcc_delivery(p_w, p_carrier);
  COMMIT;
END

-- name: tpcc_stock_level_txn
DROP PROCEDURE IF EXISTS tpcc_stock_level_txn;
CREATE PROCEDURE tpcc_stock_level_txn(IN p_w INT, IN p_d INT, IN p_threshold INT)
READS SQL DATA
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  CALL tpcc_stock_level(p_w, p_d, p_threshold);
  COMMIT;
END

-- name: tpcc_hammerdb_new_order_txn
DROP PROCEDURE IF EXISTS tpcc_hammerdb_new_order_txn;
CREATE PROCEDURE tpcc_hammerdb_new_order_txn(IN p_w INT, IN p_max_w INT, IN p_d INT, IN p_c INT,
    IN p_ol_cnt INT)
MODIFIES SQL DATA
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  CALL tpcc_hammerdb_new_order(p_w, p_max_w, p_d, p_c, p_ol_cnt);
  COMMIT;
END
