-- The order loop's calls for --sql_mode=procedures (PostgreSQL), one per "-- name:" section,
-- with '?' parameters: each step is one call of a function from procedures.sql. The statements
-- shared with the client mode (browse, review reads, new review, helpfulness) take their
-- parameters in the same order as queries.sql.

-- name: login
SELECT * FROM storebench_login(?, ?)

-- name: new_customer
SELECT storebench_new_customer(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: new_member
SELECT storebench_new_member(?, ?)

-- name: browse_by_category
SELECT * FROM storebench_browse_by_category(?, ?)

-- name: browse_by_actor
SELECT * FROM storebench_browse_by_actor(?, ?)

-- name: browse_by_title
SELECT * FROM storebench_browse_by_title(?, ?)

-- name: reviews_by_actor
SELECT * FROM storebench_reviews_by_actor(?, ?, ?)

-- name: reviews_by_title
SELECT * FROM storebench_reviews_by_title(?, ?, ?)

-- name: reviews_by_product
SELECT * FROM storebench_reviews_by_product(?, ?)

-- name: reviews_by_product_stars
SELECT * FROM storebench_reviews_by_product_stars(?, ?, ?)

-- name: reviews_by_product_date
SELECT * FROM storebench_reviews_by_product_date(?, ?)

-- name: new_review
SELECT storebench_new_review(?, ?, ?, ?, ?)

-- name: new_helpfulness
SELECT storebench_new_helpfulness(?, ?, ?)

-- name: purchase
-- customer, lines, net, tax, total, then ten (product, quantity) pairs; unused pairs are 0.
SELECT storebench_purchase(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
