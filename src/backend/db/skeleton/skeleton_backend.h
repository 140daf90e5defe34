// A database back end that does nothing yet: the starting point for a new one (copy this folder,
// rename, fill in). Every call refuses with a FailedPrecondition that names the method, and every
// capability is off, so the conformance suite (tests/unit/conformance/) runs its capability
// cases on it and skips, by capability, the cases that need a working database. The comments in
// skeleton_backend.cc say what each method must do, after storebench/db.h, which is the contract.
// docs/contributing.md walks through adding a back end.
//
// Not registered in cli/: users cannot select it. Only the conformance suite's own registry
// (tests/unit/conformance/engines.h) opens it, as skeleton://.
#ifndef STOREBENCH_BACKEND_DB_SKELETON_SKELETON_BACKEND_H_
#define STOREBENCH_BACKEND_DB_SKELETON_SKELETON_BACKEND_H_

#include <memory>

#include "backend/db/registry.h"
#include "storebench/db.h"

namespace sb::db {

// The factory a registry calls for the back end's URL scheme (a BackendFactory). A real back end
// checks `url` here (ParseDbUrl has refused parameters outside the scheme's list, if url.cc has
// one for it) and refuses what it cannot use with InvalidArgument. It does not talk to a server
// yet: the server back ends connect in Connect, TryLock, Describe, ...
Result<std::unique_ptr<DbBackend>> OpenSkeleton(const DbUrl& url, const BackendOptions& options);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_SKELETON_SKELETON_BACKEND_H_
