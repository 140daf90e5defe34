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
