// Maps URL schemes to back-end factories. cli/ registers the concrete back ends at start-up;
// nothing else names one.
#ifndef STOREBENCH_BACKEND_DB_REGISTRY_H_
#define STOREBENCH_BACKEND_DB_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "storebench/db.h"

namespace sb::db {

// Options every back end may honour; unknown ones are ignored by back ends that lack them.
struct BackendOptions {
  bool create_if_missing = false;  // sqlite: create the file (load only)
  int busy_timeout_ms = 30000;     // sqlite: how long a writer waits for the lock
};

using BackendFactory =
    std::function<Result<std::unique_ptr<DbBackend>>(const DbUrl&, const BackendOptions&)>;

class BackendRegistry {
 public:
  void Register(const std::string& scheme, BackendFactory factory);
  // Opens the back end for `url`; an unknown scheme is an InvalidArgument naming the schemes.
  Result<std::unique_ptr<DbBackend>> Open(const std::string& url, const BackendOptions& options) const;

 private:
  std::map<std::string, BackendFactory> factories_;
};

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_REGISTRY_H_
