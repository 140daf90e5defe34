-- storebench_meta, the table that says which storebench workload a database holds and whether
-- its load finished (SQLite). Shared by every workload (workload/store_meta.h).

-- name: create_meta
CREATE TABLE IF NOT EXISTS storebench_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)

-- name: user_table_count
-- Tables in the file other than SQLite's own; a file with tables but no storebench_meta was
-- not made by storebench and is never touched.
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'

-- name: meta_table_exists
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'storebench_meta'

-- name: meta_get
SELECT value FROM storebench_meta WHERE key = ?

-- name: meta_set
INSERT OR REPLACE INTO storebench_meta (key, value) VALUES (?, ?)
