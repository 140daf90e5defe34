-- The order loop's statements for PostgreSQL, one per "-- name:" section, with '?' parameters
-- (the back end turns them into $1..$n and prepares each statement on the server).
-- Full-text searches get the words as one parameter ("PENELOPE GUINESS") and match
-- to_tsvector('simple', column) @@ plainto_tsquery('simple', words): every word must occur, with
-- the 'simple' configuration on both sides so the GIN indexes are used and nothing is stemmed
-- (spec §9.7; DVD Store's PostgreSQL functions AND the words the same way).

-- name: login
SELECT customerid FROM customers WHERE username = ? AND password = ?

-- name: login_history
-- Previous purchases with the title of a related product (no row limit; the driver reads at
-- most 100 rows, as DVD Store's MAX_ROWS).
SELECT p.title, p.actor, p2.title
FROM cust_hist h
JOIN products p ON p.prod_id = h.prod_id
JOIN products p2 ON p2.prod_id = p.common_prod_id
WHERE h.customerid = ?
ORDER BY h.orderid DESC

-- name: new_customer
INSERT INTO customers (firstname, lastname, address1, address2, city, state, zip, country,
  region, email, phone, creditcardtype, creditcard, creditcardexpiration, username, password,
  age, income, gender)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING customerid

-- name: username_taken
SELECT 1 FROM customers WHERE username = ?

-- name: new_member
INSERT INTO membership (customerid, membershiptype, expiredate) VALUES (?, ?, current_date)

-- name: is_member
SELECT 1 FROM membership WHERE customerid = ?

-- name: browse_by_category
SELECT prod_id, category, title, actor, price, special, common_prod_id
FROM products WHERE category = ? AND special = 1 LIMIT ?

-- name: browse_by_actor
SELECT prod_id, category, title, actor, price, special, common_prod_id
FROM products WHERE to_tsvector('simple', actor) @@ plainto_tsquery('simple', ?) LIMIT ?

-- name: browse_by_title
SELECT prod_id, category, title, actor, price, special, common_prod_id
FROM products WHERE to_tsvector('simple', title) @@ plainto_tsquery('simple', ?) LIMIT ?

-- name: reviews_by_actor
-- The first search_depth (500) product x review rows whose ACTOR contains the word, ranked
-- by summed helpfulness (reviews without helpfulness rows left out, as an inner join would).
-- The sum is taken per review before the review's wide columns meet it: grouping the joined
-- rows by all the columns (DVD Store's form) hashes ~10 000 rows keyed by their review text
-- and took 2.5 times as long on PostgreSQL 15.
SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
       t.review_summary, t.review_text, s.totalhelp
FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
             r.review_summary, r.review_text
      FROM products p
      JOIN reviews r ON r.prod_id = p.prod_id
      WHERE to_tsvector('simple', p.actor) @@ plainto_tsquery('simple', ?) LIMIT ?) t
CROSS JOIN LATERAL (SELECT SUM(h.helpfulness) AS totalhelp FROM reviews_helpfulness h
                    WHERE h.review_id = t.review_id) s
WHERE s.totalhelp IS NOT NULL
ORDER BY s.totalhelp DESC LIMIT ?

-- name: reviews_by_title
-- The first search_depth (500) product x review rows whose TITLE contains the word, ranked
-- by summed helpfulness (summed per review first, as reviews_by_actor).
SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
       t.review_summary, t.review_text, s.totalhelp
FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
             r.review_summary, r.review_text
      FROM products p
      JOIN reviews r ON r.prod_id = p.prod_id
      WHERE to_tsvector('simple', p.title) @@ plainto_tsquery('simple', ?) LIMIT ?) t
CROSS JOIN LATERAL (SELECT SUM(h.helpfulness) AS totalhelp FROM reviews_helpfulness h
                    WHERE h.review_id = t.review_id) s
WHERE s.totalhelp IS NOT NULL
ORDER BY s.totalhelp DESC LIMIT ?

-- name: reviews_by_product
SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
       r.review_text, SUM(h.helpfulness) AS totalhelp
FROM reviews r JOIN reviews_helpfulness h ON h.review_id = r.review_id
WHERE r.prod_id = ?
GROUP BY r.review_id
ORDER BY totalhelp DESC LIMIT ?

-- name: reviews_by_product_stars
SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
       r.review_text, SUM(h.helpfulness) AS totalhelp
FROM reviews r JOIN reviews_helpfulness h ON h.review_id = r.review_id
WHERE r.prod_id = ? AND r.stars = ?
GROUP BY r.review_id
ORDER BY totalhelp DESC LIMIT ?

-- name: reviews_by_product_date
SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
       r.review_text, SUM(h.helpfulness) AS totalhelp
FROM reviews r JOIN reviews_helpfulness h ON h.review_id = r.review_id
WHERE r.prod_id = ?
GROUP BY r.review_id
ORDER BY r.review_date DESC LIMIT ?

-- name: new_review
INSERT INTO reviews (prod_id, review_date, stars, customerid, review_summary, review_text)
VALUES (?, current_date, ?, ?, ?, ?)

-- name: new_helpfulness
INSERT INTO reviews_helpfulness (review_id, customerid, helpfulness) VALUES (?, ?, ?)

-- name: prices
-- Untimed price lookup for the cart (10 parameters; unused ones repeat the first id).
SELECT prod_id, price FROM products WHERE prod_id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: insert_order
INSERT INTO orders (orderdate, customerid, netamount, tax, totalamount)
VALUES (current_date, ?, ?, ?, ?)
RETURNING orderid

-- name: read_stock
-- FOR UPDATE: the purchase writes absolute values computed from this read, so the row stays
-- locked until commit (at READ COMMITTED a plain read would let concurrent orders of the same
-- product lose each other's decrement and SALES would drift from ORDERLINES).
SELECT quan_in_stock, sales FROM inventory WHERE prod_id = ? FOR UPDATE

-- name: update_stock
UPDATE inventory SET quan_in_stock = ?, sales = ? WHERE prod_id = ?

-- name: insert_orderline
INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate)
VALUES (?, ?, ?, ?, current_date)

-- name: insert_cust_hist
INSERT INTO cust_hist (customerid, orderid, prod_id) VALUES (?, ?, ?)
