// PostgreSQL's restore from what runs write (DbBackend::RestorePristine with a RunWrites hint):
// instead of dropping the database and copying its pristine copy back whole (CREATE DATABASE
// ... TEMPLATE, whose time grows with the database: 6 GB at DVD Store M), only what a run can
// have changed is brought back, read from the copy over a second connection.
#ifndef STOREBENCH_BACKEND_DB_POSTGRES_PG_RUN_WRITES_RESTORE_H_
#define STOREBENCH_BACKEND_DB_POSTGRES_PG_RUN_WRITES_RESTORE_H_

#include <libpq-fe.h>

#include <string>
#include <vector>

#include "storebench/db.h"

namespace sb::db {

// Brings the database of `live` back to the one of `copy` (its pristine copy, with the same
// tables: `tables`), in one transaction on `live`:
//  - the tables runs change otherwise (`writes.rewritten`) are emptied (TRUNCATE) and refilled
//    from the copy (COPY TO STDOUT on `copy`, COPY FROM STDIN (FREEZE) on `live`), first, so
//    that no refilled row references a row deleted next;
//  - the tables runs append to (`writes.appended`) lose the rows whose column is above the
//    copy's largest value, children before parents (the reverse of the list's order); a foreign
//    key onto that column whose referencing column leads no index gets a partial index of the
//    rows above that value for the moment of the delete (built and dropped in the transaction);
// then, after the commit, every sequence is set back to the copy's value (setval) and the
// refilled tables are analysed. The deleted rows stay as dead tuples until (auto)vacuum.
// Returns the method in words.
Result<std::string> RestorePgRunWrites(PGconn* live, PGconn* copy, const RunWrites& writes,
                                       const std::vector<std::string>& tables);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_POSTGRES_PG_RUN_WRITES_RESTORE_H_
