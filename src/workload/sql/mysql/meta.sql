-- storebench_meta, the table that says which storebench workload a database holds and whether
-- its load finished (MySQL/MariaDB; the connection's database). Shared by every workload
-- (workload/store_meta.h).

-- name: create_meta
CREATE TABLE IF NOT EXISTS storebench_meta (`key` VARCHAR(64) PRIMARY KEY, value TEXT NOT NULL)
ENGINE = InnoDB

-- name: user_table_count
-- Tables in the database; a database with tables but no storebench_meta was not made by
-- storebench and is never touched.
SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE()

-- name: meta_table_exists
SELECT count(*) FROM information_schema.tables
WHERE table_schema = DATABASE() AND table_name = 'storebench_meta'

-- name: meta_get
SELECT value FROM storebench_meta WHERE `key` = ?

-- name: meta_set
INSERT INTO storebench_meta (`key`, value) VALUES (?, ?)
ON DUPLICATE KEY UPDATE value = VALUES(value)
