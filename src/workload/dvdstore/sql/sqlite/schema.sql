-- DVD Store 3 schema for SQLite (spec §2.2). Created before the load; indexes come after it
-- (indexes.sql). Ids are INTEGER PRIMARY KEY (SQLite's rowid) so new rows get max(id)+1.
-- {DS3_ONLY_BEGIN}/{DS3_ONLY_END} mark what DS2 mode leaves out.
CREATE TABLE storebench_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE categories (
  category INTEGER PRIMARY KEY,
  categoryname TEXT NOT NULL
);
CREATE TABLE customers (
  customerid INTEGER PRIMARY KEY,
  firstname TEXT NOT NULL,
  lastname TEXT NOT NULL,
  address1 TEXT NOT NULL,
  address2 TEXT,
  city TEXT NOT NULL,
  state TEXT,
  zip TEXT,
  country TEXT NOT NULL,
  region INTEGER NOT NULL,
  email TEXT,
  phone TEXT,
  creditcardtype INTEGER NOT NULL,
  creditcard TEXT NOT NULL,
  creditcardexpiration TEXT NOT NULL,
  username TEXT NOT NULL,
  password TEXT NOT NULL,
  age INTEGER,
  income INTEGER,
  gender TEXT
);
CREATE TABLE cust_hist (
  customerid INTEGER NOT NULL REFERENCES customers (customerid) ON DELETE CASCADE,
  orderid INTEGER NOT NULL,
  prod_id INTEGER NOT NULL
);
CREATE TABLE orders (
  orderid INTEGER PRIMARY KEY,
  orderdate TEXT NOT NULL,
  customerid INTEGER REFERENCES customers (customerid) ON DELETE SET NULL,
  netamount NUMERIC NOT NULL,
  tax NUMERIC NOT NULL,
  totalamount NUMERIC NOT NULL
);
CREATE TABLE orderlines (
  orderlineid INTEGER NOT NULL,
  orderid INTEGER NOT NULL REFERENCES orders (orderid) ON DELETE CASCADE,
  prod_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  orderdate TEXT NOT NULL
);
CREATE TABLE products (
  prod_id INTEGER PRIMARY KEY,
  category INTEGER NOT NULL,
  title TEXT NOT NULL,
  actor TEXT NOT NULL,
  price NUMERIC NOT NULL,
  special INTEGER,
  common_prod_id INTEGER NOT NULL
  {DS3_ONLY_BEGIN}, membership_item INTEGER NOT NULL{DS3_ONLY_END}
);
CREATE TABLE inventory (
  prod_id INTEGER PRIMARY KEY,
  quan_in_stock INTEGER NOT NULL,
  sales INTEGER NOT NULL
);
CREATE TABLE reorder (
  prod_id INTEGER NOT NULL,
  date_low TEXT NOT NULL,
  quan_low INTEGER NOT NULL,
  date_reordered TEXT,
  quan_reordered INTEGER,
  date_expected TEXT
);
{DS3_ONLY_BEGIN}
CREATE TABLE membership (
  customerid INTEGER PRIMARY KEY REFERENCES customers (customerid) ON DELETE CASCADE,
  membershiptype INTEGER NOT NULL,
  expiredate TEXT NOT NULL
);
CREATE TABLE reviews (
  review_id INTEGER PRIMARY KEY,
  prod_id INTEGER NOT NULL REFERENCES products (prod_id) ON DELETE CASCADE,
  review_date TEXT NOT NULL,
  stars INTEGER NOT NULL,
  customerid INTEGER NOT NULL REFERENCES customers (customerid) ON DELETE CASCADE,
  review_summary TEXT NOT NULL,
  review_text TEXT
);
CREATE TABLE reviews_helpfulness (
  review_helpfulness_id INTEGER PRIMARY KEY,
  review_id INTEGER NOT NULL REFERENCES reviews (review_id) ON DELETE CASCADE,
  customerid INTEGER NOT NULL,
  helpfulness INTEGER NOT NULL
);
{DS3_ONLY_END}
