-- The sysbench-style OLTP workload for MySQL/MariaDB (sysbench's own InnoDB layout).
-- "-- name:" sections; {table} is replaced by the table name; values bound.

-- name: create_table
CREATE TABLE {table} (
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT 0 NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) ENGINE = InnoDB

-- name: create_index
-- The index name of sysbench (oltp_common.lua): k_N for table sbtestN.
CREATE INDEX k_{n} ON {table} (k)

-- name: after_load
ANALYZE TABLE {table}

-- name: drop_table
DROP TABLE IF EXISTS {table}

-- name: sysbench_table
-- A table with the columns of sysbench (oltp_common.lua), whoever made it; no row is read.
SELECT count(*) FROM (SELECT id, k, c, pad FROM {table} LIMIT 0) AS t

-- name: count_rows
SELECT count(*) FROM {table}

-- name: point_select
SELECT c FROM {table} WHERE id = ?

-- name: simple_range
SELECT c FROM {table} WHERE id BETWEEN ? AND ?

-- name: sum_range
SELECT SUM(k) FROM {table} WHERE id BETWEEN ? AND ?

-- name: order_range
SELECT c FROM {table} WHERE id BETWEEN ? AND ? ORDER BY c

-- name: distinct_range
SELECT DISTINCT c FROM {table} WHERE id BETWEEN ? AND ? ORDER BY c

-- name: index_update
UPDATE {table} SET k = k + 1 WHERE id = ?

-- name: non_index_update
UPDATE {table} SET c = ? WHERE id = ?

-- name: delete
DELETE FROM {table} WHERE id = ?

-- name: insert
INSERT INTO {table} (id, k, c, pad) VALUES (?, ?, ?, ?)

-- name: insert_auto
INSERT INTO {table} (k, c, pad) VALUES (?, ?, ?)

-- name: meta_clear
DELETE FROM storebench_meta

-- name: drop_meta
DROP TABLE IF EXISTS storebench_meta
