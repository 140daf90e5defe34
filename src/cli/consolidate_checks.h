// consolidate's checks before its first run: every count of the range built (never run) from the
// plan and the command line, the search's outputs against everything the search reads, and the
// databases of the top count reached once (docs/consolidation.md).
#ifndef STOREBENCH_CLI_CONSOLIDATE_CHECKS_H_
#define STOREBENCH_CLI_CONSOLIDATE_CHECKS_H_

#include <string>
#include <utility>
#include <vector>

#include "backend/db/registry.h"
#include "config/plan.h"
#include "dist/group.h"
#include "storebench/status.h"
#include "workload/registry.h"

namespace sb::cli {

// What the search checks, as the command line gave it.
struct SearchInputs {
  const config::Plan* plan = nullptr;
  std::string plan_path;
  std::pair<int, int> range;       // --instances
  std::vector<std::string> extra;  // the options for every instance
  std::string search_path;         // --search
  std::string csv;                 // --csv
};

// Checks every count of the range before any database is touched (its options, its windows
// and baselines against the run's length, that there is a baseline to decide on, under mpirun
// its division among the ranks), that the search file and --csv replace none of what the search
// reads, then probes the databases of the top count (every rank agrees on the outcome). Returns
// the --window argument every run adds so that the deciding window is measured ("" for none).
Result<std::string> CheckSearch(const SearchInputs& in, const db::BackendRegistry& backends,
                                const workload::WorkloadRegistry& workloads, dist::Group* group);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_CONSOLIDATE_CHECKS_H_
