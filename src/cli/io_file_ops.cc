// storebench io copy|read|churn: timed file operations and a workload that fragments a volume.
#include "cli/app.h"
#include "cli/io_fs_internal.h"

namespace sb::cli {

int CopyFile(const config::OptionSet&, const std::vector<std::string>&) {
  return Fail(Status::InvalidArgument("io copy: not yet"));
}
int ReadFile(const config::OptionSet&, const std::vector<std::string>&) {
  return Fail(Status::InvalidArgument("io read: not yet"));
}
int Churn(const config::OptionSet&) { return Fail(Status::InvalidArgument("io churn: not yet")); }

}  // namespace sb::cli
