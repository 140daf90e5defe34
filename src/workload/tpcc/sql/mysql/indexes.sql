-- The two secondary indexes Payment and Order-Status need (by last name; a customer's latest
-- order), after the data.
CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
