// What was built: the version, the git commit and the build type, taken when the program was
// built (cmake/build_info.cmake). Only version.cc includes the generated header, so a new
// commit recompiles that one file.
#ifndef STOREBENCH_VERSION_VERSION_H_
#define STOREBENCH_VERSION_VERSION_H_

#include <string>

namespace sb::version {

// The project version, e.g. "0.1.0" (CMakeLists.txt's project()).
const char* Version();
// The source tree's commit, e.g. "9ab97a7" or "9ab97a7-dirty" (tracked files changed), or
// "unknown" when the tree was not a git checkout.
const char* GitCommit();
// CMAKE_BUILD_TYPE, e.g. "Release".
const char* BuildType();
// "0.1.0 (git 9ab97a7, Release)": what `storebench --version` prints after the name.
std::string VersionLine();

}  // namespace sb::version

#endif  // STOREBENCH_VERSION_VERSION_H_
