// SQLite's restore from what runs write (DbBackend::RestorePristine with a RunWrites hint): the
// pristine copy attached read-only and only what a run can have changed brought back from it,
// instead of copying the whole file (4.2 GB at DVD Store M on ext4, which has no reflinks:
// docs/consolidation.md). The file keeps the pages the deleted rows freed (the next run reuses
// them), so it differs from the copy in its bytes, not in its rows.
#ifndef STOREBENCH_BACKEND_DB_SQLITE_SQLITE_RUN_WRITES_RESTORE_H_
#define STOREBENCH_BACKEND_DB_SQLITE_SQLITE_RUN_WRITES_RESTORE_H_

#include <string>
#include <vector>

#include "storebench/db.h"

namespace sb::db {

// A "file:" URI that opens `path` read-only and immutable (https://www.sqlite.org/uri.html:
// no lock taken, no -wal or -shm file made beside it), its '%', '?' and '#' percent-encoded.
std::string SqliteImmutableUri(const std::string& path);

// Brings the database `conn` is open on back to the one in `pristine` (its pristine copy, with
// the same tables: `tables`). `conn` must be the restore's own connection, opened with URI
// filenames (SQLITE_OPEN_URI, as SqliteBackend's are); it is left with foreign keys off and
// synchronous=FULL. The copy is
// attached (ATTACH, immutable), then in one transaction (a crash leaves the old rows or the
// restored ones, https://www.sqlite.org/atomiccommit.html):
//  - the tables runs append to (`writes.appended`) lose the rows whose column is above the
//    copy's largest value (every row when the copy's table is empty), the last listed first;
//  - the tables runs change otherwise (`writes.rewritten`) are emptied and refilled from the
//    copy with their rowids (INSERT ... SELECT);
//  - sqlite_sequence (AUTOINCREMENT's counters), where there is one, is the copy's again.
// Foreign keys are not enforced meanwhile (PRAGMA foreign_keys is a no-op inside a transaction,
// so it is set before): with them on, deleting a parent looks for its children in every
// referencing table, a whole-table scan per deleted row where the referencing column leads no
// index (DVD Store's REVIEWS.CUSTOMERID). The children a run added are appended rows of their
// own and go with them. Then the copy is detached and the log checkpointed (TRUNCATE), so the
// file holds the restored rows and the next run starts with an empty log, as after a file copy.
// A column whose largest value in the copy is no integer is refused with FailedPrecondition,
// nothing changed. Returns the method in words.
Result<std::string> RestoreSqliteRunWrites(Connection& conn, const std::string& pristine,
                                           const RunWrites& writes,
                                           const std::vector<std::string>& tables);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_SQLITE_SQLITE_RUN_WRITES_RESTORE_H_
