-- Run after indexes.sql, each section on its own outside a transaction (spec §2.7: DVD Store
-- ends its PostgreSQL build with VACUUM ANALYZE). VACUUM sets the visibility map, so the review
-- queries' index-only scans do not visit the heap.

-- name: vacuum
VACUUM ANALYZE
