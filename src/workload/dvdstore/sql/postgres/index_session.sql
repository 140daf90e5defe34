-- The index connections' settings for the load's index phase (workload/index_build.h), recorded
-- in storebench_meta as index_session. CREATE INDEX sorts in maintenance_work_mem; PostgreSQL's
-- 64 MB default spills the large tables' sorts to disk
-- (https://www.postgresql.org/docs/current/runtime-config-resource.html). Each of the
-- --index_threads connections may use this much at once.
SET maintenance_work_mem = '256MB';
