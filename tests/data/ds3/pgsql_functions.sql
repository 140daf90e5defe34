-- DVD Store-style functions for a storebench-loaded PostgreSQL database, written for
-- storebench's tests after the shape of DVD Store's PostgreSQL functions
-- (ds3/pgsqlds3/build/pgsqlds3_create_sp.sql): unquoted upper-case names, as DVD Store's.
-- Public source it follows: DVD Store 3, https://github.com/dvdstore/ds3
-- (ds3/pgsqlds3/build/pgsqlds3_create_sp.sql).
CREATE FUNCTION NEW_CUSTOMER(firstname_in VARCHAR, lastname_in VARCHAR, address1_in VARCHAR,
    address2_in VARCHAR, city_in VARCHAR, state_in VARCHAR, zip_in VARCHAR, country_in VARCHAR,
    region_in INT, email_in VARCHAR, phone_in VARCHAR, creditcardtype_in INT,
    creditcard_in VARCHAR, creditcardexpiration_in VARCHAR, username_in VARCHAR,
    password_in VARCHAR, age_in INT, income_in INT, gender_in VARCHAR) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE id INT;
BEGIN
  IF EXISTS (SELECT 1 FROM CUSTOMERS WHERE USERNAME = username_in) THEN RETURN 0; END IF;
  INSERT INTO CUSTOMERS (FIRSTNAME, LASTNAME, ADDRESS1, ADDRESS2, CITY, STATE, ZIP, COUNTRY,
    REGION, EMAIL, PHONE, CREDITCARDTYPE, CREDITCARD, CREDITCARDEXPIRATION, USERNAME, PASSWORD,
    AGE, INCOME, GENDER)
  VALUES (firstname_in, lastname_in, address1_in, address2_in, city_in, state_in, zip_in,
    country_in, region_in, email_in, phone_in, creditcardtype_in, creditcard_in,
    creditcardexpiration_in, username_in, password_in, age_in, income_in, gender_in)
  RETURNING CUSTOMERID INTO id;
  RETURN id;
END $$;
CREATE FUNCTION LOGIN(username_in VARCHAR, password_in VARCHAR) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE id INT;
BEGIN
  SELECT CUSTOMERID INTO id FROM CUSTOMERS
    WHERE USERNAME = username_in AND PASSWORD = password_in;
  RETURN coalesce(id, 0);
END $$;
CREATE FUNCTION BROWSE_BY_CATEGORY(batch_size_in INT, category_in INT)
RETURNS SETOF PRODUCTS LANGUAGE sql AS $$
  SELECT * FROM PRODUCTS WHERE CATEGORY = category_in AND SPECIAL = 1 LIMIT batch_size_in;
$$;
-- One line per purchase is enough for the test; DVD Store's takes up to ten.
CREATE FUNCTION PURCHASE(customerid_in INT, prod_id_in INT, quantity_in INT,
    netamount_in NUMERIC, taxamount_in NUMERIC, totalamount_in NUMERIC) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE id INT;
BEGIN
  INSERT INTO ORDERS (ORDERDATE, CUSTOMERID, NETAMOUNT, TAX, TOTALAMOUNT)
    VALUES (current_date, customerid_in, netamount_in, taxamount_in, totalamount_in)
    RETURNING ORDERID INTO id;
  UPDATE INVENTORY SET QUAN_IN_STOCK = QUAN_IN_STOCK - quantity_in, SALES = SALES + quantity_in
    WHERE PROD_ID = prod_id_in;
  INSERT INTO ORDERLINES (ORDERLINEID, ORDERID, PROD_ID, QUANTITY, ORDERDATE)
    VALUES (1, id, prod_id_in, quantity_in, current_date);
  INSERT INTO CUST_HIST (CUSTOMERID, ORDERID, PROD_ID) VALUES (customerid_in, id, prod_id_in);
  RETURN id;
END $$;
