// The run's schema's own transaction statements, from MariaDB's performance_schema: where
// SHOW GLOBAL STATUS counts every client of the server, the statement digest summary counts
// each digest per default schema (SCHEMA_NAME), so another client working in another schema
// leaves these counts alone (docs/measurement.md, "Cross-check against the server").
#ifndef STOREBENCH_BACKEND_DB_MYSQL_SCHEMA_STATEMENTS_H_
#define STOREBENCH_BACKEND_DB_MYSQL_SCHEMA_STATEMENTS_H_

#include <mysql.h>

#include <string>
#include <vector>

#include "storebench/db.h"
#include "storebench/status.h"

namespace sb::db {

// Whether this connection can read per-schema counts: performance_schema on, the consumers
// global_instrumentation, thread_instrumentation and statements_digest on, the statement
// instruments of BEGIN, COMMIT and ROLLBACK on, this session's thread instrumented (a proxy for
// setup_actors covering the run's sessions), a default schema, and SELECT on performance_schema.
// Any error (no privilege, no such table) is "no": the caller keeps the server-wide counters.
// `schema` is set to the session's default schema when it answers yes.
bool SchemaStatementsReadable(MYSQL* m, std::string* schema);

// The schema's START TRANSACTION (and BEGIN), COMMIT and ROLLBACK statements summed over
// events_statements_summary_by_digest (each kind listed, 0 when the schema has none yet), with
// meanings statements.begin, commits and rollbacks, and two counts of statements these miss,
// each as statement_evictions: the digest table's overflow row (statements counted without a
// digest once the table is full, every schema's) and the calls of the schema's stored
// procedures, functions and events (events_statements_summary_by_program: MariaDB gives the
// statements inside a stored program no digest, so a COMMIT in a procedure is not counted).
// When either grows during a span, the schema's counts are not compared and the global ones
// they stand in for are. Every counter has `source` set.
// Prepared statements' executions (the binary protocol: the workloads' SELECT, INSERT, UPDATE,
// DELETE) have no digest in MariaDB (they count as statement/com/Execute only), so the
// statement kinds other than these three stay server-wide.
Result<std::vector<ServerCounter>> ReadSchemaStatements(MYSQL* m, const std::string& schema);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_MYSQL_SCHEMA_STATEMENTS_H_
