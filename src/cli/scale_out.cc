#include "cli/scale_out.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/clock.h"
#include "cli/app.h"
#include "dist/group.h"
#include "dist/world.h"
#include "version/version.h"

namespace sb::cli {
namespace {

// The commands that scale out: every rank runs its share of one run. Anything else (a load, a
// verification) would run K times over the same data.
bool ScalesOut(const std::vector<std::string>& args) {
  if (args.size() < 2) return false;
  if (args[0] == "io") return args[1] == "run";
  if (args[0] == "run" || args[0] == "consolidate") return true;  // a plan's runs
  return args[0] == "oltp" && (args[1] == "run" || args.back() == "run");
}

}  // namespace

int MainUnderMpirun(int argc, char** argv, int (*command)(int, char**)) {
  if (Status s = dist::StartWorld(&argc, &argv); !s.ok()) {
    // Every rank fails alike before any group exists: rank 0 alone says so.
    return dist::RankFromEnvironment() > 0 ? kExitBadInput : Fail(s);
  }
  dist::Group* g = dist::World();
  if (g == nullptr) {  // mpirun -np 1: a run of one process, exactly as without mpirun
    const int code = command(argc, argv);
    dist::EndWorld();
    return code;
  }
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Every rank must run the same storebench with the same command line (the effective
  // configuration, config files included, is compared again before a run starts).
  std::string same = "storebench " + version::VersionLine();  // the commit too
  for (const std::string& a : args) same += '\0' + a;
  Status check = g->CheckSame(same, "storebench version or command line");
  if (check.ok() && !ScalesOut(args)) {
    check = Status::InvalidArgument(
        "only 'oltp run', 'io run', 'run --plan' and 'consolidate' scale out over mpirun ranks; "
        "run other "
        "commands once, without mpirun (or with -np 1)");
  }
  if (!check.ok()) {
    const int code = g->coordinator() ? Fail(check) : kExitBadInput;
    dist::EndWorld();
    return code;
  }
  // Rank 0 speaks for the run; the others' consoles would repeat it K times over.
  if (!g->coordinator() && std::getenv("STOREBENCH_RANK_OUTPUT") == nullptr) {
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      std::fflush(stdout);
      std::fflush(stderr);
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
      close(null_fd);
    }
  }
  const int code = command(argc, argv);
  dist::EndWorld();
  return code;
}

void DeclareScaleOutOptions(config::OptionSet* o) {
  o->Add(
      {.name = "rank_split",
       .type = config::OptionType::kEnum,
       .default_value = "threads",
       .help =
           "under mpirun -np K: how the work is divided among the K ranks (threads: each rank runs "
           "about 1/K of the threads of every instance; instances: rank r runs the instances i of "
           "a "
           "target list with i mod K = r; docs/scale-out.md)",
       .group = "scale-out",
       .choices = {"threads", "instances"}});
  o->Add({.name = "rank_timeout",
          .type = config::OptionType::kDuration,
          .default_value = "10s",
          .help = "under mpirun: a rank that does not answer rank 0 for this long is lost and the "
                  "run ends "
                  "on every rank, its result marked incomplete",
          .group = "scale-out",
          .min = kNanosPerSecond});
}

}  // namespace sb::cli
