-- Run after indexes.sql, each section on its own outside a transaction: statistics for the
-- planner and the visibility map, as Swingbench's wizard gathers statistics after its build.

-- name: vacuum
VACUUM ANALYZE
