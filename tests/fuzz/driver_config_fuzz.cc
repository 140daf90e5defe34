// libFuzzer target: DVD Store DriverConfig files (config::ParseDriverConfigFile) read into the
// options the dvdstore workload and the driver declare for `storebench oltp run` (the command
// line's own options, which would pull in every back end, are left out), then what a run does
// with them: the workload's Configure, the driver's RunOptionsFrom (windows, baselines,
// durations) and the JSON and console echoes. The parser takes a path, so each input is written
// to a scratch file first ($TMPDIR or /tmp, one per process, removed at exit).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/options.h"
#include "driver/run_options.h"
#include "workload/dvdstore/dvdstore_workload.h"

namespace {

struct Fixture {
  sb::dvdstore::DvdStoreWorkload workload;
  sb::config::OptionSet declared;
  std::string path;

  Fixture() {
    declared.set_help_command("storebench oltp run --help");
    workload.DeclareOptions(&declared);
    sb::driver::DeclareRunOptions(&declared);
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/storebench-fuzz-" +
           std::to_string(getpid()) + "-DriverConfig.txt";
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = new Fixture();
  static struct Cleanup {
    ~Cleanup() { std::remove(fixture->path.c_str()); }
  } cleanup;
  FILE* f = std::fopen(fixture->path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f) != 0) std::abort();

  sb::config::OptionSet options = fixture->declared;
  auto status = sb::config::ParseDriverConfigFile(fixture->path, &options);
  if (!status.ok()) {
    (void)status.message();
    return 0;
  }
  (void)fixture->workload.Configure(options);
  auto run = sb::driver::RunOptionsFrom(options, fixture->workload.max_failures(),
                                        fixture->workload.shape().headlines);
  (void)run;
  (void)options.ToJson();
  (void)options.EchoLine();
  return 0;
}
