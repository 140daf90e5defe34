-- The index connections' settings for the load's index phase (workload/index_build.h), recorded
-- in storebench_meta as index_session. CREATE INDEX sorts in maintenance_work_mem; PostgreSQL's
-- 64 MB default spills the large tables' sorts to disk
-- (https://www.postgresql.org/docs/current/runtime-config-resource.html). Each of the
-- --index_threads connections may use this much at once.
SET maintenance_work_mem = '256MB';
-- A B-tree build may sort in parallel worker processes, up to this many besides its own
-- (https://www.postgresql.org/docs/current/runtime-config-resource.html). Set here, not left to
-- the server's default, so the load records it: on the 2-core development machine, under load,
-- one index of reviews_helpfulness (S) took 3.4 s with 2 workers and 5.7 s with none
-- (docs/load-performance.md).
SET max_parallel_maintenance_workers = 2;
