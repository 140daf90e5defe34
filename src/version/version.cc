#include "version/version.h"

#include "storebench_build_info.h"

namespace sb::version {

const char* Version() { return STOREBENCH_VERSION; }
const char* GitCommit() { return STOREBENCH_GIT_COMMIT; }
const char* BuildType() { return STOREBENCH_BUILD_TYPE; }

std::string VersionLine() {
  return std::string(Version()) + " (git " + GitCommit() + ", " + BuildType() + ")";
}

}  // namespace sb::version
