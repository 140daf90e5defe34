-- The index connection's settings for the load's index phase (workload/index_build.h), recorded
-- in storebench_meta as index_session. CREATE INDEX sorts within cache_size before it spills to
-- temporary files (https://www.sqlite.org/pragma.html#pragma_cache_size); the default is 2 MB.
PRAGMA cache_size = -262144;
PRAGMA temp_store = MEMORY;
