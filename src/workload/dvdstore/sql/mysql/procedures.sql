-- Stored procedures for --sql_mode=procedures (MySQL/MariaDB): one CALL per step of the order
-- loop, with the semantics of the procedures DVD Store ships (spec §5.2-5.9), written for
-- storebench's schema. `load` installs them after the data; drop_procedures.sql removes exactly
-- these. Every procedure does what the client mode's statements in queries.sql do, in the same
-- order, so both modes leave the same database state for the same seed. Results come back as
-- one result set per call (DVD Store's MySQL procedures used OUT parameters, which prepared
-- statements cannot read portably).
--
-- Sent as one multi-statement script: the server parses each compound statement whole, so no
-- DELIMITER is needed. Local variables are named so that none equals a column name (in a
-- MySQL procedure a variable would win over the column of the same name).

-- Login: one row per purchase-history row (newest order first) with the product's title and
-- actor and the title of its related product; one row with NULL titles for a customer without
-- history; no row when username and password match nobody. The driver reads at most 100 rows.
CREATE PROCEDURE storebench_login(IN username_in VARCHAR(50), IN password_in VARCHAR(50))
READS SQL DATA
BEGIN
  SELECT c.customerid, p.title, p.actor, p2.title AS related_title
  FROM CUSTOMERS c
  LEFT JOIN (CUST_HIST h
             JOIN PRODUCTS p ON p.prod_id = h.prod_id
             JOIN PRODUCTS p2 ON p2.prod_id = p.common_prod_id)
    ON h.customerid = c.customerid
  WHERE c.username = username_in AND c.password = password_in
  ORDER BY h.orderid DESC;
END;

-- New customer: the new CUSTOMERID, or 0 when the user name is taken (check, then insert only
-- a free name, as DVD Store's MySQL procedure and the client mode). Two workers racing for one
-- free name get a duplicate-key error, which the driver maps to 0 as in the client mode.
CREATE PROCEDURE storebench_new_customer(
  IN firstname_in VARCHAR(50), IN lastname_in VARCHAR(50), IN address1_in VARCHAR(50),
  IN address2_in VARCHAR(50), IN city_in VARCHAR(50), IN state_in VARCHAR(50),
  IN zip_in VARCHAR(9), IN country_in VARCHAR(50), IN region_in INT, IN email_in VARCHAR(50),
  IN phone_in VARCHAR(50), IN creditcardtype_in INT, IN creditcard_in VARCHAR(50),
  IN creditcardexpiration_in VARCHAR(50), IN username_in VARCHAR(50),
  IN password_in VARCHAR(50), IN age_in INT, IN income_in INT, IN gender_in VARCHAR(1))
MODIFIES SQL DATA
BEGIN
  IF EXISTS (SELECT 1 FROM CUSTOMERS WHERE username = username_in) THEN
    SELECT 0 AS customerid;
  ELSE
    INSERT INTO CUSTOMERS (firstname, lastname, address1, address2, city, state, zip, country,
      region, email, phone, creditcardtype, creditcard, creditcardexpiration, username,
      password, age, income, gender)
    VALUES (firstname_in, lastname_in, address1_in, address2_in, city_in, state_in, zip_in,
      country_in, region_in, email_in, phone_in, creditcardtype_in, creditcard_in,
      creditcardexpiration_in, username_in, password_in, age_in, income_in, gender_in);
    SELECT LAST_INSERT_ID() AS customerid;
  END IF;
END;

-- Product browse (spec §5.5): at most batch_in rows. The full-text searches require every
-- word (BOOLEAN MODE with '+' before each), as queries.sql.
CREATE PROCEDURE storebench_browse_by_category(IN category_in INT, IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT prod_id, category, title, actor, price, special, common_prod_id
  FROM PRODUCTS WHERE category = category_in AND special = 1 LIMIT batch_in;
END;

CREATE PROCEDURE storebench_browse_by_actor(IN words_in VARCHAR(100), IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT prod_id, category, title, actor, price, special, common_prod_id
  FROM PRODUCTS
  WHERE MATCH (actor) AGAINST (CONCAT('+', REPLACE(words_in, ' ', ' +')) IN BOOLEAN MODE)
  LIMIT batch_in;
END;

CREATE PROCEDURE storebench_browse_by_title(IN words_in VARCHAR(100), IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT prod_id, category, title, actor, price, special, common_prod_id
  FROM PRODUCTS
  WHERE MATCH (title) AGAINST (CONCAT('+', REPLACE(words_in, ' ', ' +')) IN BOOLEAN MODE)
  LIMIT batch_in;
END;

-- Purchase (spec §5.9): one transaction. Inserts the order, then for each line locks and reads
-- the stock, and either rolls everything back and returns 0 (insufficient stock) or updates
-- INVENTORY and adds the order line and the purchase-history row; commits and returns the
-- order id. The order's AUTO_INCREMENT value is used either way, as in the client mode. Any
-- error (a deadlock, ...) rolls back and reaches the driver with its own code, for its retry.
CREATE PROCEDURE storebench_purchase(
  IN customerid_in INT, IN number_items INT, IN netamount_in DECIMAL(12,2),
  IN taxamount_in DECIMAL(12,2), IN totalamount_in DECIMAL(12,2),
  IN prod1 INT, IN qty1 INT, IN prod2 INT, IN qty2 INT, IN prod3 INT, IN qty3 INT,
  IN prod4 INT, IN qty4 INT, IN prod5 INT, IN qty5 INT, IN prod6 INT, IN qty6 INT,
  IN prod7 INT, IN qty7 INT, IN prod8 INT, IN qty8 INT, IN prod9 INT, IN qty9 INT,
  IN prod10 INT, IN qty10 INT)
MODIFIES SQL DATA
proc: BEGIN
  DECLARE new_orderid INT;
  DECLARE item INT DEFAULT 1;
  DECLARE line_prod INT;
  DECLARE line_qty INT;
  DECLARE stock INT;
  DECLARE sold INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  START TRANSACTION;
  INSERT INTO ORDERS (orderdate, customerid, netamount, tax, totalamount)
  VALUES (CURDATE(), customerid_in, netamount_in, taxamount_in, totalamount_in);
  SET new_orderid = LAST_INSERT_ID();
  WHILE item <= number_items DO
    SET line_prod = CASE item WHEN 1 THEN prod1 WHEN 2 THEN prod2 WHEN 3 THEN prod3
      WHEN 4 THEN prod4 WHEN 5 THEN prod5 WHEN 6 THEN prod6 WHEN 7 THEN prod7
      WHEN 8 THEN prod8 WHEN 9 THEN prod9 ELSE prod10 END;
    SET line_qty = CASE item WHEN 1 THEN qty1 WHEN 2 THEN qty2 WHEN 3 THEN qty3
      WHEN 4 THEN qty4 WHEN 5 THEN qty5 WHEN 6 THEN qty6 WHEN 7 THEN qty7
      WHEN 8 THEN qty8 WHEN 9 THEN qty9 ELSE qty10 END;
    SET stock = NULL;
    -- FOR UPDATE for the reason given in queries.sql (read_stock).
    SELECT quan_in_stock, sales INTO stock, sold
    FROM INVENTORY WHERE prod_id = line_prod FOR UPDATE;
    IF stock IS NULL THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a purchased product has no INVENTORY row';
    END IF;
    IF stock - line_qty < 0 THEN
      ROLLBACK;
      SELECT 0 AS orderid;
      LEAVE proc;
    END IF;
    UPDATE INVENTORY SET quan_in_stock = stock - line_qty, sales = sold + line_qty
    WHERE prod_id = line_prod;
    INSERT INTO ORDERLINES (orderlineid, orderid, prod_id, quantity, orderdate)
    VALUES (item, new_orderid, line_prod, line_qty, CURDATE());
    INSERT INTO CUST_HIST (customerid, orderid, prod_id)
    VALUES (customerid_in, new_orderid, line_prod);
    SET item = item + 1;
  END WHILE;
  COMMIT;
  SELECT new_orderid AS orderid;
END;
{DS3_ONLY_BEGIN}
-- New premium member (spec §5.4): the customer id, or 0 when already a member.
CREATE PROCEDURE storebench_new_member(IN customerid_in INT, IN membershiptype_in INT)
MODIFIES SQL DATA
BEGIN
  IF EXISTS (SELECT 1 FROM MEMBERSHIP WHERE customerid = customerid_in) THEN
    SELECT 0 AS customerid;
  ELSE
    INSERT INTO MEMBERSHIP (customerid, membershiptype, expiredate)
    VALUES (customerid_in, membershiptype_in, CURDATE());
    SELECT customerid_in AS customerid;
  END IF;
END;

-- Review browse (spec §5.6): the first depth_in product x review rows whose ACTOR (TITLE)
-- contains the word, ranked by summed helpfulness, at most batch_in of them; the same query as
-- queries.sql (sum per review by index lookups, see there).
CREATE PROCEDURE storebench_reviews_by_actor(IN word_in VARCHAR(100), IN depth_in INT,
                                             IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
         t.review_summary, t.review_text,
         (SELECT SUM(h.helpfulness) FROM REVIEWS_HELPFULNESS h
          WHERE h.review_id = t.review_id) AS totalhelp
  FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
               r.review_summary, r.review_text
        FROM PRODUCTS p
        JOIN REVIEWS r ON r.prod_id = p.prod_id
        WHERE MATCH (p.actor) AGAINST (CONCAT('+', REPLACE(word_in, ' ', ' +')) IN BOOLEAN MODE)
        LIMIT depth_in) t
  HAVING totalhelp IS NOT NULL
  ORDER BY totalhelp DESC LIMIT batch_in;
END;

CREATE PROCEDURE storebench_reviews_by_title(IN word_in VARCHAR(100), IN depth_in INT,
                                             IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
         t.review_summary, t.review_text,
         (SELECT SUM(h.helpfulness) FROM REVIEWS_HELPFULNESS h
          WHERE h.review_id = t.review_id) AS totalhelp
  FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
               r.review_summary, r.review_text
        FROM PRODUCTS p
        JOIN REVIEWS r ON r.prod_id = p.prod_id
        WHERE MATCH (p.title) AGAINST (CONCAT('+', REPLACE(word_in, ' ', ' +')) IN BOOLEAN MODE)
        LIMIT depth_in) t
  HAVING totalhelp IS NOT NULL
  ORDER BY totalhelp DESC LIMIT batch_in;
END;

-- Review reads by product (spec §5.7): ranked by summed helpfulness, restricted to one star
-- count, or newest first.
CREATE PROCEDURE storebench_reviews_by_product(IN prod_in INT, IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
         r.review_text, SUM(h.helpfulness) AS totalhelp
  FROM REVIEWS r JOIN REVIEWS_HELPFULNESS h ON h.review_id = r.review_id
  WHERE r.prod_id = prod_in
  GROUP BY r.review_id
  ORDER BY totalhelp DESC LIMIT batch_in;
END;

CREATE PROCEDURE storebench_reviews_by_product_stars(IN prod_in INT, IN stars_in INT,
                                                     IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
         r.review_text, SUM(h.helpfulness) AS totalhelp
  FROM REVIEWS r JOIN REVIEWS_HELPFULNESS h ON h.review_id = r.review_id
  WHERE r.prod_id = prod_in AND r.stars = stars_in
  GROUP BY r.review_id
  ORDER BY totalhelp DESC LIMIT batch_in;
END;

CREATE PROCEDURE storebench_reviews_by_product_date(IN prod_in INT, IN batch_in INT)
READS SQL DATA
BEGIN
  SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
         r.review_text, SUM(h.helpfulness) AS totalhelp
  FROM REVIEWS r JOIN REVIEWS_HELPFULNESS h ON h.review_id = r.review_id
  WHERE r.prod_id = prod_in
  GROUP BY r.review_id
  ORDER BY r.review_date DESC LIMIT batch_in;
END;

-- New review and helpfulness rating (spec §5.8): the new id.
CREATE PROCEDURE storebench_new_review(IN prod_in INT, IN stars_in INT, IN customerid_in INT,
                                       IN summary_in VARCHAR(50), IN text_in VARCHAR(1000))
MODIFIES SQL DATA
BEGIN
  INSERT INTO REVIEWS (prod_id, review_date, stars, customerid, review_summary, review_text)
  VALUES (prod_in, CURDATE(), stars_in, customerid_in, summary_in, text_in);
  SELECT LAST_INSERT_ID() AS review_id;
END;

CREATE PROCEDURE storebench_new_helpfulness(IN review_in INT, IN customerid_in INT,
                                            IN helpfulness_in INT)
MODIFIES SQL DATA
BEGIN
  INSERT INTO REVIEWS_HELPFULNESS (review_id, customerid, helpfulness)
  VALUES (review_in, customerid_in, helpfulness_in);
  SELECT LAST_INSERT_ID() AS REVIEWS_HELPFULNESS_ID;
END;
{DS3_ONLY_END}
