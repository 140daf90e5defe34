-- Choices recorded in every result under "choices" that depend on the dialect (one "-- name:"
-- section each, the text on the line below it). Not SQL. This file: the server dialects'
-- (PostgreSQL, MySQL/MariaDB); SQLite has its own (sqlite/choices.sql).

-- name: tpm
headline tpm: the client's transactions per minute; figure tpm_server: the server's commits + rollbacks per minute over the cross-check's span (PostgreSQL xact_commit + xact_rollback of the database, MariaDB Com_commit + Com_rollback server-wide, or the schema's COMMIT + ROLLBACK statements where performance_schema is on), HammerDB's TPM
