-- DVD Store-style procedures for a storebench-loaded MariaDB/MySQL database, written for
-- storebench's tests after the shape of DVD Store's MySQL procedures and driver statements
-- (ds3/mysqlds3/build/mysqlds3_create_sp.sql, ds3/mysqlds3/ds3mysqlfns.cs): they name the
-- tables as DVD Store does (CUSTOMERS, not customers), so they run only on DVD Store's schema.
-- NEW_CUSTOMER has the signature of DVD Store's procedure; DVD Store's MySQL kit sends login,
-- browse and purchase as driver statements, which LOGIN, BROWSE_BY_CATEGORY and PURCHASE wrap.
-- Public source it follows: DVD Store 3, https://github.com/dvdstore/ds3
-- (ds3/mysqlds3/build/mysqlds3_create_sp.sql, ds3/mysqlds3/ds3mysqlfns.cs).
DELIMITER //
CREATE PROCEDURE NEW_CUSTOMER(IN firstname_in VARCHAR(50), IN lastname_in VARCHAR(50),
    IN address1_in VARCHAR(50), IN address2_in VARCHAR(50), IN city_in VARCHAR(50),
    IN state_in VARCHAR(50), IN zip_in INT, IN country_in VARCHAR(50), IN region_in INT,
    IN email_in VARCHAR(50), IN phone_in VARCHAR(50), IN creditcardtype_in INT,
    IN creditcard_in VARCHAR(50), IN creditcardexpiration_in VARCHAR(50),
    IN username_in VARCHAR(50), IN password_in VARCHAR(50), IN age_in INT, IN income_in INT,
    IN gender_in VARCHAR(1), OUT customerid_out INT)
BEGIN
  IF (SELECT COUNT(*) FROM CUSTOMERS WHERE USERNAME = username_in) = 0 THEN
    INSERT INTO CUSTOMERS (FIRSTNAME, LASTNAME, ADDRESS1, ADDRESS2, CITY, STATE, ZIP, COUNTRY,
      REGION, EMAIL, PHONE, CREDITCARDTYPE, CREDITCARD, CREDITCARDEXPIRATION, USERNAME,
      PASSWORD, AGE, INCOME, GENDER)
    VALUES (firstname_in, lastname_in, address1_in, address2_in, city_in, state_in, zip_in,
      country_in, region_in, email_in, phone_in, creditcardtype_in, creditcard_in,
      creditcardexpiration_in, username_in, password_in, age_in, income_in, gender_in);
    SET customerid_out = LAST_INSERT_ID();
  ELSE
    SET customerid_out = 0;
  END IF;
END //
CREATE PROCEDURE LOGIN(IN username_in VARCHAR(50), IN password_in VARCHAR(50),
    OUT customerid_out INT)
BEGIN
  SELECT CUSTOMERID INTO customerid_out FROM CUSTOMERS
    WHERE USERNAME = username_in AND PASSWORD = password_in;
  SELECT p.TITLE, p.ACTOR FROM CUST_HIST h JOIN PRODUCTS p ON p.PROD_ID = h.PROD_ID
    WHERE h.CUSTOMERID = customerid_out ORDER BY h.ORDERID DESC LIMIT 10;
END //
CREATE PROCEDURE BROWSE_BY_CATEGORY(IN batch_size_in INT, IN category_in INT)
BEGIN
  SELECT PROD_ID, TITLE, ACTOR, PRICE FROM PRODUCTS
    WHERE CATEGORY = category_in AND SPECIAL = 1 LIMIT batch_size_in;
END //
-- One line per purchase is enough for the test; DVD Store's takes up to ten.
CREATE PROCEDURE PURCHASE(IN customerid_in INT, IN prod_id_in INT, IN quantity_in INT,
    IN netamount_in NUMERIC(12,2), IN taxamount_in NUMERIC(12,2),
    IN totalamount_in NUMERIC(12,2), OUT neworderid_out INT)
BEGIN
  START TRANSACTION;
  INSERT INTO ORDERS (ORDERDATE, CUSTOMERID, NETAMOUNT, TAX, TOTALAMOUNT)
    VALUES (CURDATE(), customerid_in, netamount_in, taxamount_in, totalamount_in);
  SET neworderid_out = LAST_INSERT_ID();
  UPDATE INVENTORY SET QUAN_IN_STOCK = QUAN_IN_STOCK - quantity_in, SALES = SALES + quantity_in
    WHERE PROD_ID = prod_id_in;
  INSERT INTO ORDERLINES (ORDERLINEID, ORDERID, PROD_ID, QUANTITY, ORDERDATE)
    VALUES (1, neworderid_out, prod_id_in, quantity_in, CURDATE());
  INSERT INTO CUST_HIST (CUSTOMERID, ORDERID, PROD_ID)
    VALUES (customerid_in, neworderid_out, prod_id_in);
  COMMIT;
END //
DELIMITER ;
