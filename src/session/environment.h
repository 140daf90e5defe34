// Facts about the machine a run is on, recorded in its result ("environment").
#ifndef STOREBENCH_SESSION_ENVIRONMENT_H_
#define STOREBENCH_SESSION_ENVIRONMENT_H_

#include <map>
#include <string>

namespace sb::session {

// Facts about this machine and the file system holding `path` (host, cpu_model, cpu_count,
// kernel, filesystem).
std::map<std::string, std::string> CollectEnvironment(const std::string& path);

// The file of an SQLite URL (whose file system the environment records); "" for a server.
std::string DbPathForEnvironment(const std::string& url);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_ENVIRONMENT_H_
