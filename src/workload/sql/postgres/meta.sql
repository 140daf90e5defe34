-- storebench_meta, the table that says which storebench workload a schema holds and whether its
-- load finished (PostgreSQL; the connection's current schema). Shared by every workload
-- (workload/store_meta.h).

-- name: create_meta
CREATE TABLE IF NOT EXISTS storebench_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)

-- name: user_table_count
-- Tables in the schema; a schema with tables but no storebench_meta was not made by
-- storebench and is never touched.
-- Relations an extension owns (pg_stat_statements' views, installed where the server
-- cross-check can read them) belong to the extension, not to a user, and do not count.
SELECT count(*) FROM information_schema.tables t WHERE t.table_schema = current_schema()
AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
  AND d.objid = format('%I.%I', t.table_schema, t.table_name)::regclass AND d.deptype = 'e')

-- name: meta_table_exists
SELECT count(*) FROM information_schema.tables
WHERE table_schema = current_schema() AND table_name = 'storebench_meta'

-- name: meta_get
SELECT value FROM storebench_meta WHERE key = ?

-- name: meta_set
INSERT INTO storebench_meta (key, value) VALUES (?, ?)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
