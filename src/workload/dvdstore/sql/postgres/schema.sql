-- DVD Store 3 schema for PostgreSQL (spec §2.2, DVD Store's pgsqlds3_create_tbl.sql). Created
-- before the load without any index; primary keys, secondary indexes, foreign keys, the
-- full-text indexes and the restock trigger come after the data (indexes.sql).
-- Money columns are NUMERIC(12,2) (as DVD Store's MySQL schema) so amounts keep two decimals.
-- {DS3_ONLY_BEGIN}/{DS3_ONLY_END} mark what DS2 mode leaves out.
CREATE TABLE storebench_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE categories (
  category SERIAL,
  categoryname VARCHAR(50) NOT NULL
);
CREATE TABLE customers (
  customerid SERIAL,
  firstname VARCHAR(50) NOT NULL,
  lastname VARCHAR(50) NOT NULL,
  address1 VARCHAR(50) NOT NULL,
  address2 VARCHAR(50),
  city VARCHAR(50) NOT NULL,
  state VARCHAR(50),
  zip VARCHAR(9),
  country VARCHAR(50) NOT NULL,
  region SMALLINT NOT NULL,
  email VARCHAR(50),
  phone VARCHAR(50),
  creditcardtype INT NOT NULL,
  creditcard VARCHAR(50) NOT NULL,
  creditcardexpiration VARCHAR(50) NOT NULL,
  username VARCHAR(50) NOT NULL,
  password VARCHAR(50) NOT NULL,
  age SMALLINT,
  income INT,
  gender VARCHAR(1)
);
CREATE TABLE cust_hist (
  customerid INT NOT NULL,
  orderid INT NOT NULL,
  prod_id INT NOT NULL
);
CREATE TABLE orders (
  orderid SERIAL,
  orderdate DATE NOT NULL,
  customerid INT,
  netamount NUMERIC(12,2) NOT NULL,
  tax NUMERIC(12,2) NOT NULL,
  totalamount NUMERIC(12,2) NOT NULL
);
CREATE TABLE orderlines (
  orderlineid SMALLINT NOT NULL,
  orderid INT NOT NULL,
  prod_id INT NOT NULL,
  quantity SMALLINT NOT NULL,
  orderdate DATE NOT NULL
);
CREATE TABLE products (
  prod_id SERIAL,
  category SMALLINT NOT NULL,
  title TEXT NOT NULL,
  actor TEXT NOT NULL,
  price NUMERIC(12,2) NOT NULL,
  special SMALLINT,
  common_prod_id INT NOT NULL
  {DS3_ONLY_BEGIN}, membership_item SMALLINT NOT NULL{DS3_ONLY_END}
);
CREATE TABLE inventory (
  prod_id INT NOT NULL,
  quan_in_stock INT NOT NULL,
  sales INT NOT NULL
) WITH (fillfactor = 85);
CREATE TABLE reorder (
  prod_id INT NOT NULL,
  date_low DATE NOT NULL,
  quan_low INT NOT NULL,
  date_reordered DATE,
  quan_reordered INT,
  date_expected DATE
);
{DS3_ONLY_BEGIN}
CREATE TABLE membership (
  customerid INT NOT NULL,
  membershiptype INT NOT NULL,
  expiredate DATE NOT NULL
);
CREATE TABLE reviews (
  review_id SERIAL,
  prod_id INT NOT NULL,
  review_date DATE NOT NULL,
  stars SMALLINT NOT NULL,
  customerid INT NOT NULL,
  review_summary TEXT NOT NULL,
  review_text TEXT
);
CREATE TABLE reviews_helpfulness (
  review_helpfulness_id SERIAL,
  review_id INT NOT NULL,
  customerid INT NOT NULL,
  helpfulness SMALLINT NOT NULL
);
{DS3_ONLY_END}
