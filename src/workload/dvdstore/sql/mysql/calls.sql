-- The order loop's calls for --sql_mode=procedures (MySQL/MariaDB), one per "-- name:" section,
-- with '?' parameters: each step is one call of a procedure from procedures.sql. The statements
-- shared with the client mode (browse, review reads, new review, helpfulness) take their
-- parameters in the same order as queries.sql.

-- name: login
CALL storebench_login(?, ?)

-- name: new_customer
CALL storebench_new_customer(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: new_member
CALL storebench_new_member(?, ?)

-- name: browse_by_category
CALL storebench_browse_by_category(?, ?)

-- name: browse_by_actor
CALL storebench_browse_by_actor(?, ?)

-- name: browse_by_title
CALL storebench_browse_by_title(?, ?)

-- name: reviews_by_actor
CALL storebench_reviews_by_actor(?, ?, ?)

-- name: reviews_by_title
CALL storebench_reviews_by_title(?, ?, ?)

-- name: reviews_by_product
CALL storebench_reviews_by_product(?, ?)

-- name: reviews_by_product_stars
CALL storebench_reviews_by_product_stars(?, ?, ?)

-- name: reviews_by_product_date
CALL storebench_reviews_by_product_date(?, ?)

-- name: new_review
CALL storebench_new_review(?, ?, ?, ?, ?)

-- name: new_helpfulness
CALL storebench_new_helpfulness(?, ?, ?)

-- name: purchase
-- customer, lines, net, tax, total, then ten (product, quantity) pairs; unused pairs are 0.
CALL storebench_purchase(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
