-- Order Entry (Swingbench SOE "V2") schema for MySQL/MariaDB (InnoDB), after Swingbench's soedgcreatetables2.sql
-- as docs/soe.md describes it. Created before the load with primary keys only; secondary
-- indexes and the sequences come after the data (indexes.sql). Oracle NUMBER columns are BIGINT,
-- INTEGER or NUMERIC; DATE columns that hold a time are TIMESTAMP. ORDER_ITEMS.CONDITION is
-- item_condition (CONDITION is reserved in MySQL). CATEGORIES is storebench's addition (a
-- name per category id of PRODUCT_INFORMATION).
CREATE TABLE storebench_meta (
  `key` VARCHAR(64) PRIMARY KEY,
  value TEXT NOT NULL
) ENGINE = InnoDB;
CREATE TABLE customers (
  customer_id BIGINT NOT NULL PRIMARY KEY CHECK (customer_id > 0),
  cust_first_name VARCHAR(40) NOT NULL,
  cust_last_name VARCHAR(40) NOT NULL,
  nls_language VARCHAR(3),
  nls_territory VARCHAR(30),
  credit_limit NUMERIC(9,2) CHECK (credit_limit <= 100000),
  cust_email VARCHAR(100),
  account_mgr_id BIGINT,
  customer_since DATE,
  customer_class VARCHAR(40),
  suggestions VARCHAR(40),
  dob DATE,
  mailshot VARCHAR(1),
  partner_mailshot VARCHAR(1),
  preferred_address BIGINT,
  preferred_card BIGINT
) ENGINE = InnoDB;
CREATE TABLE addresses (
  address_id BIGINT NOT NULL PRIMARY KEY,
  customer_id BIGINT NOT NULL,
  date_created DATE NOT NULL,
  house_no_or_name VARCHAR(60),
  street_name VARCHAR(60),
  town VARCHAR(60),
  county VARCHAR(60),
  country VARCHAR(60),
  post_code VARCHAR(12),
  zip_code VARCHAR(12)
) ENGINE = InnoDB;
CREATE TABLE card_details (
  card_id BIGINT NOT NULL PRIMARY KEY,
  customer_id BIGINT NOT NULL,
  card_type VARCHAR(30) NOT NULL,
  card_number BIGINT NOT NULL,
  expiry_date DATE NOT NULL,
  is_valid VARCHAR(1) NOT NULL,
  security_code INTEGER
) ENGINE = InnoDB;
CREATE TABLE warehouses (
  warehouse_id INTEGER NOT NULL PRIMARY KEY,
  warehouse_name VARCHAR(35),
  location_id INTEGER
) ENGINE = InnoDB;
CREATE TABLE categories (
  category_id INTEGER NOT NULL PRIMARY KEY,
  category_name VARCHAR(50) NOT NULL
) ENGINE = InnoDB;
CREATE TABLE product_information (
  product_id INTEGER NOT NULL PRIMARY KEY,
  product_name VARCHAR(50) NOT NULL,
  product_description VARCHAR(2000),
  category_id INTEGER NOT NULL,
  weight_class INTEGER,
  warranty_period VARCHAR(20),
  supplier_id INTEGER,
  product_status VARCHAR(20)
    CHECK (product_status IN ('orderable', 'planned', 'under development', 'obsolete')),
  list_price NUMERIC(8,2),
  min_price NUMERIC(8,2),
  catalog_url VARCHAR(50)
) ENGINE = InnoDB;
CREATE TABLE product_descriptions (
  product_id INTEGER NOT NULL,
  language_id VARCHAR(3) NOT NULL,
  translated_name VARCHAR(50) NOT NULL,
  translated_description VARCHAR(2000) NOT NULL,
  PRIMARY KEY (product_id, language_id)
) ENGINE = InnoDB;
CREATE TABLE inventories (
  product_id INTEGER NOT NULL,
  warehouse_id INTEGER NOT NULL,
  quantity_on_hand INTEGER NOT NULL,
  PRIMARY KEY (product_id, warehouse_id)
) ENGINE = InnoDB;
CREATE TABLE orders (
  order_id BIGINT NOT NULL PRIMARY KEY,
  order_date TIMESTAMP NOT NULL,
  order_mode VARCHAR(8) CHECK (order_mode IN ('direct', 'online')),
  customer_id BIGINT NOT NULL,
  order_status INTEGER,
  order_total NUMERIC(12,2) CHECK (order_total >= 0),
  sales_rep_id INTEGER,
  promotion_id INTEGER,
  warehouse_id INTEGER,
  delivery_type VARCHAR(15),
  cost_of_delivery INTEGER,
  wait_till_all_available VARCHAR(15),
  delivery_address_id BIGINT,
  customer_class VARCHAR(30),
  card_id BIGINT,
  invoice_address_id BIGINT
) ENGINE = InnoDB;
CREATE TABLE order_items (
  order_id BIGINT NOT NULL,
  line_item_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  unit_price NUMERIC(8,2),
  quantity INTEGER,
  dispatch_date DATE,
  return_date DATE,
  gift_wrap VARCHAR(20),
  item_condition VARCHAR(20),
  supplier_id INTEGER,
  estimated_delivery DATE,
  PRIMARY KEY (order_id, line_item_id)
) ENGINE = InnoDB;
CREATE TABLE logon (
  logon_id BIGINT NOT NULL,
  customer_id BIGINT NOT NULL,
  logon_date TIMESTAMP
) ENGINE = InnoDB;
