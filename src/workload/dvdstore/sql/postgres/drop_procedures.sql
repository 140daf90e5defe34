-- Drops exactly the functions procedures.sql creates (load --force, and reinstalling them with
-- load --procedures_only=Y), nothing else.
DROP FUNCTION IF EXISTS storebench_login;
DROP FUNCTION IF EXISTS storebench_new_customer;
DROP FUNCTION IF EXISTS storebench_browse_by_category;
DROP FUNCTION IF EXISTS storebench_browse_by_actor;
DROP FUNCTION IF EXISTS storebench_browse_by_title;
DROP FUNCTION IF EXISTS storebench_purchase;
DROP FUNCTION IF EXISTS storebench_new_member;
DROP FUNCTION IF EXISTS storebench_reviews_by_actor;
DROP FUNCTION IF EXISTS storebench_reviews_by_title;
DROP FUNCTION IF EXISTS storebench_reviews_by_product;
DROP FUNCTION IF EXISTS storebench_reviews_by_product_stars;
DROP FUNCTION IF EXISTS storebench_reviews_by_product_date;
DROP FUNCTION IF EXISTS storebench_new_review;
DROP FUNCTION IF EXISTS storebench_new_helpfulness;
