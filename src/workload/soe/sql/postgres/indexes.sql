-- Secondary indexes, foreign keys and sequences, built after the load as Swingbench's wizard
-- builds them (soedgindexes2.sql, soedgconstraints2.sql, soedgsequences2.sql). Oracle's
-- reverse-key indexes have no PostgreSQL equivalent: they are plain B-trees here. Each sequence
-- starts after the loaded rows ({next_customer} ... are replaced by the loader).
CREATE INDEX ord_customer_ix ON orders (customer_id);
CREATE INDEX ord_sales_rep_ix ON orders (sales_rep_id);
CREATE INDEX ord_order_date_ix ON orders (order_date);
CREATE INDEX ord_warehouse_ix ON orders (warehouse_id, order_status);
CREATE INDEX item_product_ix ON order_items (product_id);
CREATE INDEX cust_func_lower_name_ix ON customers (lower(cust_last_name), lower(cust_first_name));
CREATE INDEX cust_email_ix ON customers (cust_email);
CREATE INDEX cust_account_manager_ix ON customers (account_mgr_id);
CREATE INDEX cust_dob_ix ON customers (dob);
CREATE INDEX address_cust_ix ON addresses (customer_id);
CREATE INDEX carddetails_cust_ix ON card_details (customer_id);
CREATE INDEX inv_warehouse_ix ON inventories (warehouse_id);
CREATE INDEX whs_location_ix ON warehouses (location_id);
CREATE INDEX prod_category_ix ON product_information (category_id);
CREATE INDEX prod_supplier_ix ON product_information (supplier_id);
CREATE INDEX prod_name_ix ON product_descriptions (translated_name);
ALTER TABLE addresses ADD CONSTRAINT add_cust_fk FOREIGN KEY (customer_id) REFERENCES customers;
ALTER TABLE orders ADD CONSTRAINT orders_customer_id_fk FOREIGN KEY (customer_id)
  REFERENCES customers;
ALTER TABLE order_items ADD CONSTRAINT order_items_order_id_fk FOREIGN KEY (order_id)
  REFERENCES orders ON DELETE CASCADE;
ALTER TABLE order_items ADD CONSTRAINT order_items_product_id_fk FOREIGN KEY (product_id)
  REFERENCES product_information;
ALTER TABLE inventories ADD CONSTRAINT inventories_warehouses_fk FOREIGN KEY (warehouse_id)
  REFERENCES warehouses;
ALTER TABLE inventories ADD CONSTRAINT inventories_product_id_fk FOREIGN KEY (product_id)
  REFERENCES product_information;
ALTER TABLE product_descriptions ADD CONSTRAINT pd_product_id_fk FOREIGN KEY (product_id)
  REFERENCES product_information;
CREATE SEQUENCE customer_seq START WITH {next_customer} CACHE 100;
CREATE SEQUENCE address_seq START WITH {next_address} CACHE 100;
CREATE SEQUENCE card_details_seq START WITH {next_card} CACHE 100;
CREATE SEQUENCE orders_seq START WITH {next_order} CACHE 100;
CREATE SEQUENCE logon_seq START WITH {next_logon} CACHE 100;
