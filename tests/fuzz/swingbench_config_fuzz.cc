// libFuzzer target: Swingbench XML configuration files (soe::ReadSwingbenchConfig, through
// --config_file as the command line reads them) into the options the soe workload and the driver
// declare for `storebench oltp run`, then what a run does with them: the workload's Configure,
// Warnings and Choices, the driver's RunOptionsFrom and the JSON and console echoes. The reader
// takes a path, so each input is written to a scratch file first ($TMPDIR or /tmp, one per
// process, removed at exit).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/options.h"
#include "driver/run_options.h"
#include "workload/soe/soe_workload.h"

namespace {

struct Fixture {
  sb::soe::SoeWorkload workload;
  sb::config::OptionSet declared;
  std::string path;

  Fixture() {
    declared.set_help_command("storebench oltp run --help");
    workload.DeclareOptions(&declared);
    sb::driver::DeclareRunOptions(&declared);
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/storebench-fuzz-" +
           std::to_string(getpid()) + "-swingconfig.xml";
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
  auto status = sb::config::ParseCommandLine({"--config_file", fixture->path}, &options);
  if (!status.ok()) {
    (void)status.message();
    return 0;
  }
  if (fixture->workload.Configure(options).ok()) {
    (void)fixture->workload.Warnings();
    (void)fixture->workload.Choices();
  }
  auto run = sb::driver::RunOptionsFrom(options, fixture->workload.max_failures(),
                                        fixture->workload.shape().headlines);
  (void)run;
  (void)options.ToJson();
  (void)options.EchoLine();
  return 0;
}
