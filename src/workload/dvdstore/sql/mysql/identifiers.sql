-- The names this dialect's schema.sql gives DVD Store's tables and columns where they differ from
-- tables.h's lower-case ones, for the loader's bulk writers and the row counts of a database
-- DVD Store's scripts built: "-- name: <table>" or "-- name: <table>.<column>", the spelling on
-- the line below. Not SQL. A dialect without this file uses tables.h's names.
-- DVD Store's MySQL schema (mysqlds3_create_db.sql) spells its tables in upper case, and
-- MariaDB/MySQL on Linux compare table names case-sensitively; it names REVIEWS_HELPFULNESS's key
-- REVIEWS_HELPFULNESS_ID (the other databases' REVIEW_HELPFULNESS_ID).

-- name: categories
CATEGORIES
-- name: customers
CUSTOMERS
-- name: orders
ORDERS
-- name: orderlines
ORDERLINES
-- name: cust_hist
CUST_HIST
-- name: products
PRODUCTS
-- name: inventory
INVENTORY
-- name: membership
MEMBERSHIP
-- name: reviews
REVIEWS
-- name: reviews_helpfulness
REVIEWS_HELPFULNESS
-- name: reorder
REORDER
-- name: reviews_helpfulness.review_helpfulness_id
reviews_helpfulness_id
