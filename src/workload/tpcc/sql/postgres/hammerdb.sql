-- What --profile=hammerdb reads besides admin.sql (docs/tpcc.md, Profiles).

-- name: xacts_all_databases
-- HammerDB's PostgreSQL TPM counter: commits and rollbacks of every database of the server
-- (pg_stat_database summed without a filter), not only this one's.
SELECT COALESCE(SUM(xact_commit + xact_rollback), 0) FROM pg_stat_database
