-- The index connection's settings for the load's index phase (workload/index_build.h), recorded
-- in storebench_meta as index_session. CREATE INDEX sorts within cache_size before it spills to
-- temporary files (https://www.sqlite.org/pragma.html#pragma_cache_size); the default is 2 MB.
-- temp_store = FILE: with temp_store = MEMORY (every storebench connection's setting) SQLite's
-- sorter allocates each key on its own and merges one long list, without the cache_size-sized
-- runs it sorts in one block otherwise; each of reviews_helpfulness's two indexes (S) took
-- 1.5-1.8 s of CPU against 1.0-1.2 s with FILE, in the sqlite3 shell (docs/load-performance.md).
-- Runs that fit in cache_size never reach a file.
-- synchronous = OFF, as the data phase's writers: the index connection's WAL checkpoints do not
-- wait for the disk (the load's own connection syncs the file when it closes, after
-- state = ready; a crash before then leaves a load that must be redone anyway). It saves
-- 0.1-0.15 s of waiting for the disk in an S load on this shared disk (strace -T: 25 syncs,
-- 0.38-0.43 s, with NORMAL; 12, 0.28-0.29 s, with OFF).
PRAGMA cache_size = -262144;
PRAGMA temp_store = FILE;
PRAGMA synchronous = OFF;
