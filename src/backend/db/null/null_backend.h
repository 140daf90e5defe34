// The null back end (null://): accepts every statement, returns no rows, touches nothing. It
// exists to measure and test the harness (driver, recorders, reporters) without a database; it
// never stands in for one in a result.
#ifndef STOREBENCH_BACKEND_DB_NULL_NULL_BACKEND_H_
#define STOREBENCH_BACKEND_DB_NULL_NULL_BACKEND_H_

#include <memory>

#include "backend/db/registry.h"
#include "storebench/db.h"

namespace sb::db {

Result<std::unique_ptr<DbBackend>> OpenNull(const DbUrl& url, const BackendOptions& options);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_NULL_NULL_BACKEND_H_
