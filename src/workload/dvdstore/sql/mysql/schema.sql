-- DVD Store 3 schema for MySQL/MariaDB (spec §2.2, DVD Store's mysqlds3_create_db.sql), all
-- tables InnoDB (PRODUCTS too: InnoDB has had FULLTEXT since MySQL 5.6, so the MyISAM table of
-- the original is not needed). Created before the load with primary keys only; secondary and
-- full-text indexes, foreign keys and the restock trigger come after the data (indexes.sql).
-- Table names are upper case as DVD Store spells them (MariaDB/MySQL on Linux compare table
-- names case-sensitively, and DVD Store's procedures, driver statements and PHP pages name
-- CUSTOMERS, not customers); column types are DVD Store's (ZIP INT: a rest-of-world "00000"
-- is stored as 0, as DVD Store's load does). REVIEWS_HELPFULNESS's key is spelled
-- REVIEWS_HELPFULNESS_ID, as in DVD Store's mysqlds3_create_db.sql.
-- MEMBERSHIP gets a primary key (DVD Store's MySQL schema has none) so a second membership for
-- a customer is refused by the database, as on the other back ends.
-- {DS3_ONLY_BEGIN}/{DS3_ONLY_END} mark what DS2 mode leaves out.
CREATE TABLE storebench_meta (
  `key` VARCHAR(64) NOT NULL PRIMARY KEY,
  value TEXT NOT NULL
) ENGINE = InnoDB;
CREATE TABLE CATEGORIES (
  category TINYINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  categoryname VARCHAR(50) NOT NULL
) ENGINE = InnoDB;
CREATE TABLE CUSTOMERS (
  customerid INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  firstname VARCHAR(50) NOT NULL,
  lastname VARCHAR(50) NOT NULL,
  address1 VARCHAR(50) NOT NULL,
  address2 VARCHAR(50),
  city VARCHAR(50) NOT NULL,
  state VARCHAR(50),
  zip INT,
  country VARCHAR(50) NOT NULL,
  region TINYINT NOT NULL,
  email VARCHAR(50),
  phone VARCHAR(50),
  creditcardtype INT NOT NULL,
  creditcard VARCHAR(50) NOT NULL,
  creditcardexpiration VARCHAR(50) NOT NULL,
  username VARCHAR(50) NOT NULL,
  password VARCHAR(50) NOT NULL,
  age TINYINT,
  income INT,
  gender VARCHAR(1)
) ENGINE = InnoDB;
CREATE TABLE CUST_HIST (
  customerid INT NOT NULL,
  orderid INT NOT NULL,
  prod_id INT NOT NULL
) ENGINE = InnoDB;
CREATE TABLE ORDERS (
  orderid INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  orderdate DATE NOT NULL,
  customerid INT,
  netamount NUMERIC(12,2) NOT NULL,
  tax NUMERIC(12,2) NOT NULL,
  totalamount NUMERIC(12,2) NOT NULL
) ENGINE = InnoDB;
CREATE TABLE ORDERLINES (
  orderlineid SMALLINT NOT NULL,
  orderid INT NOT NULL,
  prod_id INT NOT NULL,
  quantity SMALLINT NOT NULL,
  orderdate DATE NOT NULL
) ENGINE = InnoDB;
-- TITLE and ACTOR carry a case-insensitive collation whatever the server's default: InnoDB
-- builds a FULLTEXT index added to a filled table (ALTER TABLE ... ADD FULLTEXT, as indexes.sql
-- does) with lower-cased tokens, and under a binary collation (utf8mb4_bin) MATCH ... AGAINST
-- then compares the upper-case search words case-sensitively and finds nothing (MariaDB 10.11).
CREATE TABLE PRODUCTS (
  prod_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  category TINYINT NOT NULL,
  title VARCHAR(50) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  actor VARCHAR(50) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  price NUMERIC(12,2) NOT NULL,
  special TINYINT,
  common_prod_id INT NOT NULL
  {DS3_ONLY_BEGIN}, membership_item INT NOT NULL{DS3_ONLY_END}
) ENGINE = InnoDB;
CREATE TABLE INVENTORY (
  prod_id INT NOT NULL PRIMARY KEY,
  quan_in_stock INT NOT NULL,
  sales INT NOT NULL
) ENGINE = InnoDB;
CREATE TABLE REORDER (
  prod_id INT NOT NULL,
  date_low DATE NOT NULL,
  quan_low INT NOT NULL,
  date_reordered DATE,
  quan_reordered INT,
  date_expected DATE
) ENGINE = InnoDB;
{DS3_ONLY_BEGIN}
CREATE TABLE MEMBERSHIP (
  customerid INT NOT NULL PRIMARY KEY,
  membershiptype INT NOT NULL,
  expiredate DATE NOT NULL
) ENGINE = InnoDB;
CREATE TABLE REVIEWS (
  review_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  prod_id INT NOT NULL,
  review_date DATE NOT NULL,
  stars INT NOT NULL,
  customerid INT NOT NULL,
  review_summary VARCHAR(50) NOT NULL,
  review_text VARCHAR(1000) NOT NULL
) ENGINE = InnoDB;
CREATE TABLE REVIEWS_HELPFULNESS (
  REVIEWS_HELPFULNESS_ID INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  review_id INT NOT NULL,
  customerid INT NOT NULL,
  helpfulness INT NOT NULL
) ENGINE = InnoDB;
{DS3_ONLY_END}
