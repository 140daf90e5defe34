// What `storebench io run` runs, how and on what, before anything runs: the tests (--preset,
// --spec or --icf), the run settings (the options over the preset's or the ICF's defaults) and
// the targets, locked, inspected and checked for writing (docs/storage.md). Every error is bad
// input (the command exits 2), found before the first I/O.
#ifndef STOREBENCH_SESSION_IO_RUN_PLAN_H_
#define STOREBENCH_SESSION_IO_RUN_PLAN_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/file_lock.h"
#include "config/options.h"
#include "driver/io_run_config.h"
#include "storebench/status.h"
#include "workload/storage/access_spec.h"
#include "workload/storage/icf.h"

namespace sb::session {

// The tests of a run and where their settings came from.
struct IoRunPlan {
  std::vector<std::string> targets;  // --target, each once
  // The tests in order with the settings they bring: a built-in preset, one --spec (run 30 s)
  // or an ICF's specifications and test setup in the form of a preset (name "icf").
  storage::Preset preset;
  std::optional<storage::IcfImport> icf;  // with --icf
  // With --icf: what came from the file and what the command line overrode, for the console
  // and the result ("" without).
  std::string icf_note;
};

// The targets and the tests: exactly one of --preset, --spec and --icf, every specification
// valid for --direct.
Result<IoRunPlan> PlanIoRun(const config::OptionSet& o);

// The run settings: each option given on the command line, else the plan's (preset or ICF)
// value, else the option's default. The targets, allow_write, the stop flag, the peers, the
// windows and the callbacks are left to the later steps.
Result<driver::IoRunConfig> IoRunSettings(const config::OptionSet& o, const IoRunPlan& plan);

// Locks the plan's targets (exclusively when a specification writes and the engine is not
// null, else shared; none when `lock` is false: under mpirun rank 0 locks for the group),
// inspects them, and sets c->targets (test range, extents) and c->allow_write after the
// --readonly and overwrite checks. Locking comes first: a target being prepared looks
// unfinished until it is. The returned locks hold until they are destroyed. A test range
// smaller than asked for adds a line to `warnings`, also when an error follows.
Result<std::vector<std::unique_ptr<FileLock>>> OpenRunTargets(const config::OptionSet& o,
                                                              const IoRunPlan& plan, bool lock,
                                                              driver::IoRunConfig* c,
                                                              std::vector<std::string>* warnings);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_IO_RUN_PLAN_H_
