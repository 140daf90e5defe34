-- Snapshots and the consistency checks of `verify` (TPC-C revision 5.11, clause 3.3.2). Each
-- check counts the rows that break its condition: 0 passes.

-- name: sum_d_next_o_id
-- HammerDB's NOPM reads this at the window's start and end: it moves only when a New-Order
-- commits.
SELECT COALESCE(SUM(d_next_o_id), 0) FROM district

-- name: count_warehouses
SELECT count(*), COALESCE(MAX(w_id), 0) FROM warehouse

-- name: count_items
SELECT count(*) FROM item

-- name: check_1_warehouse_ytd
-- Condition 1: W_YTD = sum(D_YTD) per warehouse (money compared to the cent).
SELECT count(*) FROM warehouse w
WHERE ROUND(w.w_ytd - (SELECT COALESCE(SUM(d.d_ytd), 0) FROM district d WHERE d.d_w_id = w.w_id), 2)
  <> 0

-- name: check_2_next_order_id
-- Condition 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district (NEW-ORDER term skipped
-- when the district has none).
SELECT count(*) FROM district d
WHERE d.d_next_o_id - 1 <> COALESCE((SELECT MAX(o.o_id) FROM orders o
                                     WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id), 0)
   OR d.d_next_o_id - 1 <> COALESCE((SELECT MAX(n.no_o_id) FROM new_order n
                                     WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id),
                                    d.d_next_o_id - 1)

-- name: check_3_new_order_range
-- Condition 3: max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW-ORDER) per district.
SELECT count(*) FROM (SELECT MAX(no_o_id) - MIN(no_o_id) + 1 AS span, COUNT(*) AS n
                      FROM new_order GROUP BY no_w_id, no_d_id) x
WHERE x.span <> x.n

-- name: check_4_order_line_count
-- Condition 4: sum(O_OL_CNT) = count(ORDER-LINE) per district.
SELECT count(*) FROM
  (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) o
  LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n FROM order_line GROUP BY ol_w_id, ol_d_id) l
    ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
WHERE COALESCE(l.n, 0) <> o.s

-- name: check_5_carrier_new_order
-- Condition 5: O_CARRIER_ID is NULL exactly when the order has a NEW-ORDER row (orders breaking
-- it, plus NEW-ORDER rows without their order).
SELECT (SELECT count(*) FROM orders o
        WHERE (o.o_carrier_id IS NULL AND NOT EXISTS (
                 SELECT 1 FROM new_order n
                 WHERE n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id))
           OR (o.o_carrier_id IS NOT NULL AND EXISTS (
                 SELECT 1 FROM new_order n
                 WHERE n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id)))
     + (SELECT count(*) FROM new_order n
        WHERE NOT EXISTS (SELECT 1 FROM orders o
                          WHERE o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id
                            AND o.o_id = n.no_o_id))

-- name: check_6_order_line_count_per_order
-- Condition 6: O_OL_CNT = the order's ORDER-LINE rows, per order.
SELECT count(*) FROM orders o
  LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT(*) AS n FROM order_line
             GROUP BY ol_w_id, ol_d_id, ol_o_id) l
    ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
WHERE COALESCE(l.n, 0) <> o.o_ol_cnt

-- name: check_7_delivery_date_carrier
-- Condition 7: OL_DELIVERY_D is NULL exactly when its order's O_CARRIER_ID is NULL.
SELECT count(*) FROM order_line l
  JOIN orders o ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id
WHERE (l.ol_delivery_d IS NULL AND o.o_carrier_id IS NOT NULL)
   OR (l.ol_delivery_d IS NOT NULL AND o.o_carrier_id IS NULL)

-- name: check_8_warehouse_ytd_history
-- Condition 8: W_YTD = sum(H_AMOUNT) of the history rows with H_W_ID = W_ID.
SELECT count(*) FROM warehouse w
  LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id) h
    ON h.h_w_id = w.w_id
WHERE ROUND(w.w_ytd - COALESCE(h.s, 0), 2) <> 0

-- name: check_9_district_ytd_history
-- Condition 9: D_YTD = sum(H_AMOUNT) of the history rows with (H_W_ID, H_D_ID) = (D_W_ID, D_ID).
SELECT count(*) FROM district d
  LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id, h_d_id) h
    ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id
WHERE ROUND(d.d_ytd - COALESCE(h.s, 0), 2) <> 0

-- name: check_11_delivered_orders
-- Condition 11: count(ORDER) - count(NEW-ORDER) = 2100 per district. 2100 is the value at
-- load; each Delivery since adds one, and Delivery always takes a district's oldest new order,
-- so the difference must equal (the oldest undelivered O_ID - 1), or D_NEXT_O_ID - 1 when every
-- order is delivered: 2100 at load.
SELECT count(*) FROM district d
  LEFT JOIN (SELECT o_w_id, o_d_id, COUNT(*) AS n FROM orders GROUP BY o_w_id, o_d_id) o
    ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
  LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) AS n, MIN(no_o_id) AS oldest FROM new_order
             GROUP BY no_w_id, no_d_id) n
    ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
WHERE COALESCE(o.n, 0) - COALESCE(n.n, 0) <> COALESCE(n.oldest, d.d_next_o_id) - 1

-- name: check_10_12_customer_balances
-- Conditions 10 and 12, one count each, from one pass over CUSTOMER, ORDER, ORDER-LINE and
-- HISTORY: both compare a customer's sum of delivered OL_AMOUNT, which the join of ORDER and
-- ORDER-LINE grouped by customer gives (most of verify's time: a query per condition computed
-- it twice).
-- Condition 10: C_BALANCE = sum(OL_AMOUNT) of the customer's delivered order lines -
-- sum(H_AMOUNT) of the customer's history rows.
-- Condition 12: C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT) of the customer's delivered order
-- lines.
SELECT COALESCE(SUM(CASE WHEN ROUND(c.c_balance - (COALESCE(ol.s, 0) - COALESCE(h.s, 0)), 2) <> 0
                         THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN ROUND(c.c_balance + c.c_ytd_payment - COALESCE(ol.s, 0), 2) <> 0
                         THEN 1 ELSE 0 END), 0)
FROM customer c
  LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, SUM(l.ol_amount) AS s
             FROM orders o JOIN order_line l
               ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
             WHERE l.ol_delivery_d IS NOT NULL
             GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) ol
    ON ol.o_w_id = c.c_w_id AND ol.o_d_id = c.c_d_id AND ol.o_c_id = c.c_id
  LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) AS s FROM history
             GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
    ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id
