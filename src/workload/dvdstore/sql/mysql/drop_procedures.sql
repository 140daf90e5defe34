-- Drops exactly the procedures procedures.sql creates (load --force, and reinstalling them with
-- load --procedures_only=Y), nothing else.
DROP PROCEDURE IF EXISTS storebench_login;
DROP PROCEDURE IF EXISTS storebench_new_customer;
DROP PROCEDURE IF EXISTS storebench_browse_by_category;
DROP PROCEDURE IF EXISTS storebench_browse_by_actor;
DROP PROCEDURE IF EXISTS storebench_browse_by_title;
DROP PROCEDURE IF EXISTS storebench_purchase;
DROP PROCEDURE IF EXISTS storebench_new_member;
DROP PROCEDURE IF EXISTS storebench_reviews_by_actor;
DROP PROCEDURE IF EXISTS storebench_reviews_by_title;
DROP PROCEDURE IF EXISTS storebench_reviews_by_product;
DROP PROCEDURE IF EXISTS storebench_reviews_by_product_stars;
DROP PROCEDURE IF EXISTS storebench_reviews_by_product_date;
DROP PROCEDURE IF EXISTS storebench_new_review;
DROP PROCEDURE IF EXISTS storebench_new_helpfulness;
