-- Stored functions for --sql_mode=procedures (PostgreSQL): one call per step of the order loop,
-- with the semantics of the functions DVD Store ships for PostgreSQL (spec §5.2-5.9), written
-- for storebench's schema. `load` installs them after the data; drop_procedures.sql removes
-- exactly these. Every function does what the client mode's statements in queries.sql do, in
-- the same order, so both modes leave the same database state for the same seed.
--
-- PL/pgSQL throughout: its plans are prepared once per connection and reused, as the client
-- mode's prepared statements are. Output columns are named out_* so they never shadow a table
-- column inside the function bodies.

-- Login: one row per purchase-history row (newest order first) with the product's title and
-- actor and the title of its related product; one row with NULL titles for a customer without
-- history; no row when username and password match nobody. The driver reads at most 100 rows.
CREATE FUNCTION storebench_login(username_in TEXT, password_in TEXT)
RETURNS TABLE (out_customerid INT, out_title TEXT, out_actor TEXT, out_related_title TEXT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT c.customerid, p.title, p.actor, p2.title
  FROM customers c
  LEFT JOIN (cust_hist h
             JOIN products p ON p.prod_id = h.prod_id
             JOIN products p2 ON p2.prod_id = p.common_prod_id)
    ON h.customerid = c.customerid
  WHERE c.username = username_in AND c.password = password_in
  ORDER BY h.orderid DESC;
END
$$;

-- New customer: the new CUSTOMERID, or 0 when the user name is taken. Checks first and inserts
-- only a free name (as DVD Store's SQL Server and MySQL procedures), so a taken name consumes
-- no sequence value, exactly like the client mode. Two workers racing for one free name get a
-- unique violation (SQLSTATE 23505), which the driver maps to 0 as in the client mode.
CREATE FUNCTION storebench_new_customer(
  firstname_in TEXT, lastname_in TEXT, address1_in TEXT, address2_in TEXT, city_in TEXT,
  state_in TEXT, zip_in TEXT, country_in TEXT, region_in INT, email_in TEXT, phone_in TEXT,
  creditcardtype_in INT, creditcard_in TEXT, creditcardexpiration_in TEXT, username_in TEXT,
  password_in TEXT, age_in INT, income_in INT, gender_in TEXT)
RETURNS INT LANGUAGE plpgsql AS $$
DECLARE
  new_id INT;
BEGIN
  PERFORM 1 FROM customers WHERE username = username_in;
  IF FOUND THEN
    RETURN 0;
  END IF;
  INSERT INTO customers (firstname, lastname, address1, address2, city, state, zip, country,
    region, email, phone, creditcardtype, creditcard, creditcardexpiration, username, password,
    age, income, gender)
  VALUES (firstname_in, lastname_in, address1_in, address2_in, city_in, state_in, zip_in,
    country_in, region_in, email_in, phone_in, creditcardtype_in, creditcard_in,
    creditcardexpiration_in, username_in, password_in, age_in, income_in, gender_in)
  RETURNING customerid INTO new_id;
  RETURN new_id;
END
$$;

-- Product browse (spec §5.5): at most batch_in rows. The full-text searches require every
-- word, with the 'simple' configuration on both sides, as queries.sql.
CREATE FUNCTION storebench_browse_by_category(category_in INT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_category SMALLINT, out_title TEXT, out_actor TEXT,
               out_price NUMERIC, out_special SMALLINT, out_common_prod_id INT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT p.prod_id, p.category, p.title, p.actor, p.price, p.special, p.common_prod_id
  FROM products p WHERE p.category = category_in AND p.special = 1 LIMIT batch_in;
END
$$;

CREATE FUNCTION storebench_browse_by_actor(words_in TEXT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_category SMALLINT, out_title TEXT, out_actor TEXT,
               out_price NUMERIC, out_special SMALLINT, out_common_prod_id INT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT p.prod_id, p.category, p.title, p.actor, p.price, p.special, p.common_prod_id
  FROM products p
  WHERE to_tsvector('simple', p.actor) @@ plainto_tsquery('simple', words_in) LIMIT batch_in;
END
$$;

CREATE FUNCTION storebench_browse_by_title(words_in TEXT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_category SMALLINT, out_title TEXT, out_actor TEXT,
               out_price NUMERIC, out_special SMALLINT, out_common_prod_id INT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT p.prod_id, p.category, p.title, p.actor, p.price, p.special, p.common_prod_id
  FROM products p
  WHERE to_tsvector('simple', p.title) @@ plainto_tsquery('simple', words_in) LIMIT batch_in;
END
$$;

-- Purchase (spec §5.9): one transaction (the calling statement's). Inserts the order, then for
-- each line locks and reads the stock, and either raises SQLSTATE SB001 ("insufficient stock",
-- which undoes the whole call and which the driver counts as a rollback, as DVD Store's driver
-- does with its function's exception) or updates INVENTORY and adds the order line and the
-- purchase-history row. The order's sequence value is used either way, as in the client mode.
CREATE FUNCTION storebench_purchase(
  customerid_in INT, number_items INT, netamount_in NUMERIC, taxamount_in NUMERIC,
  totalamount_in NUMERIC,
  prod1 INT, qty1 INT, prod2 INT, qty2 INT, prod3 INT, qty3 INT, prod4 INT, qty4 INT,
  prod5 INT, qty5 INT, prod6 INT, qty6 INT, prod7 INT, qty7 INT, prod8 INT, qty8 INT,
  prod9 INT, qty9 INT, prod10 INT, qty10 INT)
RETURNS INT LANGUAGE plpgsql AS $$
DECLARE
  prods INT[] := ARRAY[prod1, prod2, prod3, prod4, prod5, prod6, prod7, prod8, prod9, prod10];
  qtys INT[] := ARRAY[qty1, qty2, qty3, qty4, qty5, qty6, qty7, qty8, qty9, qty10];
  new_orderid INT;
  stock INT;
  sold INT;
BEGIN
  INSERT INTO orders (orderdate, customerid, netamount, tax, totalamount)
  VALUES (current_date, customerid_in, netamount_in, taxamount_in, totalamount_in)
  RETURNING orderid INTO new_orderid;
  FOR i IN 1 .. number_items LOOP
    -- FOR UPDATE for the reason given in queries.sql (read_stock).
    SELECT quan_in_stock, sales INTO stock, sold
    FROM inventory WHERE prod_id = prods[i] FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'product % has no inventory row', prods[i];
    END IF;
    IF stock - qtys[i] < 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'SB001', MESSAGE = 'insufficient stock';
    END IF;
    UPDATE inventory SET quan_in_stock = stock - qtys[i], sales = sold + qtys[i]
    WHERE prod_id = prods[i];
    INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate)
    VALUES (i, new_orderid, prods[i], qtys[i], current_date);
    INSERT INTO cust_hist (customerid, orderid, prod_id)
    VALUES (customerid_in, new_orderid, prods[i]);
  END LOOP;
  RETURN new_orderid;
END
$$;
{DS3_ONLY_BEGIN}
-- New premium member (spec §5.4): the customer id, or 0 when already a member.
CREATE FUNCTION storebench_new_member(customerid_in INT, membershiptype_in INT)
RETURNS INT LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM membership WHERE customerid = customerid_in;
  IF FOUND THEN
    RETURN 0;
  END IF;
  INSERT INTO membership (customerid, membershiptype, expiredate)
  VALUES (customerid_in, membershiptype_in, current_date);
  RETURN customerid_in;
END
$$;

-- Review browse (spec §5.6): the first depth_in product x review rows whose ACTOR (TITLE)
-- contains the word, ranked by summed helpfulness, at most batch_in of them; the same query as
-- queries.sql (sum per review first, see there).
CREATE FUNCTION storebench_reviews_by_actor(word_in TEXT, depth_in INT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_title TEXT, out_actor TEXT, out_review_id INT,
               out_review_date DATE, out_stars SMALLINT, out_customerid INT,
               out_review_summary TEXT, out_review_text TEXT, out_totalhelp BIGINT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
         t.review_summary, t.review_text, s.totalhelp
  FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
               r.review_summary, r.review_text
        FROM products p
        JOIN reviews r ON r.prod_id = p.prod_id
        WHERE to_tsvector('simple', p.actor) @@ plainto_tsquery('simple', word_in)
        LIMIT depth_in) t
  CROSS JOIN LATERAL (SELECT SUM(h.helpfulness) AS totalhelp FROM reviews_helpfulness h
                      WHERE h.review_id = t.review_id) s
  WHERE s.totalhelp IS NOT NULL
  ORDER BY 10 DESC LIMIT batch_in;
END
$$;

CREATE FUNCTION storebench_reviews_by_title(word_in TEXT, depth_in INT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_title TEXT, out_actor TEXT, out_review_id INT,
               out_review_date DATE, out_stars SMALLINT, out_customerid INT,
               out_review_summary TEXT, out_review_text TEXT, out_totalhelp BIGINT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
         t.review_summary, t.review_text, s.totalhelp
  FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
               r.review_summary, r.review_text
        FROM products p
        JOIN reviews r ON r.prod_id = p.prod_id
        WHERE to_tsvector('simple', p.title) @@ plainto_tsquery('simple', word_in)
        LIMIT depth_in) t
  CROSS JOIN LATERAL (SELECT SUM(h.helpfulness) AS totalhelp FROM reviews_helpfulness h
                      WHERE h.review_id = t.review_id) s
  WHERE s.totalhelp IS NOT NULL
  ORDER BY 10 DESC LIMIT batch_in;
END
$$;

-- Review reads by product (spec §5.7): ranked by summed helpfulness, restricted to one star
-- count, or newest first.
CREATE FUNCTION storebench_reviews_by_product(prod_in INT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_review_id INT, out_review_date DATE, out_stars SMALLINT,
               out_customerid INT, out_review_summary TEXT, out_review_text TEXT,
               out_totalhelp BIGINT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
         r.review_text, SUM(h.helpfulness)
  FROM reviews r JOIN reviews_helpfulness h ON h.review_id = r.review_id
  WHERE r.prod_id = prod_in
  GROUP BY r.review_id
  ORDER BY 8 DESC LIMIT batch_in;
END
$$;

CREATE FUNCTION storebench_reviews_by_product_stars(prod_in INT, stars_in INT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_review_id INT, out_review_date DATE, out_stars SMALLINT,
               out_customerid INT, out_review_summary TEXT, out_review_text TEXT,
               out_totalhelp BIGINT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
         r.review_text, SUM(h.helpfulness)
  FROM reviews r JOIN reviews_helpfulness h ON h.review_id = r.review_id
  WHERE r.prod_id = prod_in AND r.stars = stars_in
  GROUP BY r.review_id
  ORDER BY 8 DESC LIMIT batch_in;
END
$$;

CREATE FUNCTION storebench_reviews_by_product_date(prod_in INT, batch_in INT)
RETURNS TABLE (out_prod_id INT, out_review_id INT, out_review_date DATE, out_stars SMALLINT,
               out_customerid INT, out_review_summary TEXT, out_review_text TEXT,
               out_totalhelp BIGINT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
         r.review_text, SUM(h.helpfulness)
  FROM reviews r JOIN reviews_helpfulness h ON h.review_id = r.review_id
  WHERE r.prod_id = prod_in
  GROUP BY r.review_id
  ORDER BY r.review_date DESC LIMIT batch_in;
END
$$;

-- New review and helpfulness rating (spec §5.8): the new id.
CREATE FUNCTION storebench_new_review(prod_in INT, stars_in INT, customerid_in INT,
                                      summary_in TEXT, text_in TEXT)
RETURNS INT LANGUAGE plpgsql AS $$
DECLARE
  new_id INT;
BEGIN
  INSERT INTO reviews (prod_id, review_date, stars, customerid, review_summary, review_text)
  VALUES (prod_in, current_date, stars_in, customerid_in, summary_in, text_in)
  RETURNING review_id INTO new_id;
  RETURN new_id;
END
$$;

CREATE FUNCTION storebench_new_helpfulness(review_in INT, customerid_in INT, helpfulness_in INT)
RETURNS INT LANGUAGE plpgsql AS $$
DECLARE
  new_id INT;
BEGIN
  INSERT INTO reviews_helpfulness (review_id, customerid, helpfulness)
  VALUES (review_in, customerid_in, helpfulness_in)
  RETURNING review_helpfulness_id INTO new_id;
  RETURN new_id;
END
$$;
{DS3_ONLY_END}
