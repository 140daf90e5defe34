-- Choices recorded in every result under "choices" that depend on the dialect (one "-- name:"
-- section each, the text on the line below it). Not SQL.

-- name: tpm
headline tpm: the client's transactions per minute; SQLite has no server counters, so tpm_server is absent and HammerDB's line uses the client count
