-- The order loop's statements for MySQL/MariaDB, one per "-- name:" section, with '?'
-- parameters (server-side prepared statements). Generated ids come from the connection's
-- last insert id (mysql_stmt_insert_id).
-- Full-text searches get the words as one parameter ("PENELOPE GUINESS") and match
-- MATCH (column) AGAINST ('+PENELOPE +GUINESS' IN BOOLEAN MODE) on an InnoDB FULLTEXT index:
-- every word must occur, as on PostgreSQL (DVD Store's MySQL driver used natural-language mode,
-- where any one word matches and the ranking decides; spec §5.5). The words come from the
-- built-in lists (letters only, at least 4 of them, none an InnoDB stop word), so no word is
-- dropped by innodb_ft_min_token_size (default 3) or the default stop-word list.

-- name: login
SELECT customerid FROM CUSTOMERS WHERE username = ? AND password = ?

-- name: login_history
-- Previous purchases with the title of a related product (no row limit; the driver reads at
-- most 100 rows, as DVD Store's MAX_ROWS).
SELECT p.title, p.actor, p2.title
FROM CUST_HIST h
JOIN PRODUCTS p ON p.prod_id = h.prod_id
JOIN PRODUCTS p2 ON p2.prod_id = p.common_prod_id
WHERE h.customerid = ?
ORDER BY h.orderid DESC

-- name: new_customer
INSERT INTO CUSTOMERS (firstname, lastname, address1, address2, city, state, zip, country,
  region, email, phone, creditcardtype, creditcard, creditcardexpiration, username, password,
  age, income, gender)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: username_taken
SELECT 1 FROM CUSTOMERS WHERE username = ?

-- name: new_member
INSERT INTO MEMBERSHIP (customerid, membershiptype, expiredate) VALUES (?, ?, CURDATE())

-- name: is_member
SELECT 1 FROM MEMBERSHIP WHERE customerid = ?

-- name: browse_by_category
SELECT prod_id, category, title, actor, price, special, common_prod_id
FROM PRODUCTS WHERE category = ? AND special = 1 LIMIT ?

-- name: browse_by_actor
SELECT prod_id, category, title, actor, price, special, common_prod_id
FROM PRODUCTS WHERE MATCH (actor) AGAINST (CONCAT('+', REPLACE(?, ' ', ' +')) IN BOOLEAN MODE) LIMIT ?

-- name: browse_by_title
SELECT prod_id, category, title, actor, price, special, common_prod_id
FROM PRODUCTS WHERE MATCH (title) AGAINST (CONCAT('+', REPLACE(?, ' ', ' +')) IN BOOLEAN MODE) LIMIT ?

-- name: reviews_by_actor
-- The first search_depth (500) product x review rows whose ACTOR contains the word, ranked
-- by summed helpfulness (reviews without helpfulness rows left out, as an inner join would).
-- The sum is taken per review by index lookups: grouping the joined rows by all the review's
-- columns (DVD Store's form) builds a temporary table keyed by the review text and took ~30
-- times as long on MariaDB 10.11 (0.46 s against 16 ms at db_size=S).
SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
       t.review_summary, t.review_text,
       (SELECT SUM(h.helpfulness) FROM REVIEWS_HELPFULNESS h
        WHERE h.review_id = t.review_id) AS totalhelp
FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
             r.review_summary, r.review_text
      FROM PRODUCTS p
      JOIN REVIEWS r ON r.prod_id = p.prod_id
      WHERE MATCH (p.actor) AGAINST (CONCAT('+', REPLACE(?, ' ', ' +')) IN BOOLEAN MODE) LIMIT ?) t
HAVING totalhelp IS NOT NULL
ORDER BY totalhelp DESC LIMIT ?

-- name: reviews_by_title
-- The first search_depth (500) product x review rows whose TITLE contains the word, ranked
-- by summed helpfulness (summed per review, as reviews_by_actor).
SELECT t.prod_id, t.title, t.actor, t.review_id, t.review_date, t.stars, t.customerid,
       t.review_summary, t.review_text,
       (SELECT SUM(h.helpfulness) FROM REVIEWS_HELPFULNESS h
        WHERE h.review_id = t.review_id) AS totalhelp
FROM (SELECT p.prod_id, p.title, p.actor, r.review_id, r.review_date, r.stars, r.customerid,
             r.review_summary, r.review_text
      FROM PRODUCTS p
      JOIN REVIEWS r ON r.prod_id = p.prod_id
      WHERE MATCH (p.title) AGAINST (CONCAT('+', REPLACE(?, ' ', ' +')) IN BOOLEAN MODE) LIMIT ?) t
HAVING totalhelp IS NOT NULL
ORDER BY totalhelp DESC LIMIT ?

-- name: reviews_by_product
SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
       r.review_text, SUM(h.helpfulness) AS totalhelp
FROM REVIEWS r JOIN REVIEWS_HELPFULNESS h ON h.review_id = r.review_id
WHERE r.prod_id = ?
GROUP BY r.review_id
ORDER BY totalhelp DESC LIMIT ?

-- name: reviews_by_product_stars
SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
       r.review_text, SUM(h.helpfulness) AS totalhelp
FROM REVIEWS r JOIN REVIEWS_HELPFULNESS h ON h.review_id = r.review_id
WHERE r.prod_id = ? AND r.stars = ?
GROUP BY r.review_id
ORDER BY totalhelp DESC LIMIT ?

-- name: reviews_by_product_date
SELECT r.prod_id, r.review_id, r.review_date, r.stars, r.customerid, r.review_summary,
       r.review_text, SUM(h.helpfulness) AS totalhelp
FROM REVIEWS r JOIN REVIEWS_HELPFULNESS h ON h.review_id = r.review_id
WHERE r.prod_id = ?
GROUP BY r.review_id
ORDER BY r.review_date DESC LIMIT ?

-- name: new_review
INSERT INTO REVIEWS (prod_id, review_date, stars, customerid, review_summary, review_text)
VALUES (?, CURDATE(), ?, ?, ?, ?)

-- name: new_helpfulness
INSERT INTO REVIEWS_HELPFULNESS (review_id, customerid, helpfulness) VALUES (?, ?, ?)

-- name: prices
-- Untimed price lookup for the cart (10 parameters; unused ones repeat the first id).
SELECT prod_id, price FROM PRODUCTS WHERE prod_id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: insert_order
INSERT INTO ORDERS (orderdate, customerid, netamount, tax, totalamount)
VALUES (CURDATE(), ?, ?, ?, ?)

-- name: read_stock
-- FOR UPDATE: the purchase writes absolute values computed from this read, so it must read the
-- latest committed row and keep it locked until commit (a plain REPEATABLE READ read would see
-- the transaction's snapshot and concurrent orders of one product would lose decrements).
SELECT quan_in_stock, sales FROM INVENTORY WHERE prod_id = ? FOR UPDATE

-- name: update_stock
UPDATE INVENTORY SET quan_in_stock = ?, sales = ? WHERE prod_id = ?

-- name: insert_orderline
INSERT INTO ORDERLINES (orderlineid, orderid, prod_id, quantity, orderdate)
VALUES (?, ?, ?, ?, CURDATE())

-- name: insert_cust_hist
INSERT INTO CUST_HIST (customerid, orderid, prod_id) VALUES (?, ?, ?)
