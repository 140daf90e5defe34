#include "backend/db/registry.h"

namespace sb::db {

void BackendRegistry::Register(const std::string& scheme, BackendFactory factory) {
  factories_[scheme] = std::move(factory);
}

Result<std::unique_ptr<DbBackend>> BackendRegistry::Open(const std::string& url,
                                                         const BackendOptions& options) const {
  auto parsed = ParseDbUrl(url);
  if (!parsed.ok()) return parsed.status();
  auto it = factories_.find(parsed->scheme);
  if (it == factories_.end()) {
    std::string known;
    for (const auto& [name, f] : factories_) known += (known.empty() ? "" : ", ") + name + "://";
    return Status::InvalidArgument("database URL scheme '" + parsed->scheme +
                                   "' is not supported by this build (known: " + known + ")");
  }
  return it->second(*parsed, options);
}

}  // namespace sb::db
