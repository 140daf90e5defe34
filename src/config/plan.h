// A plan file (TOML) describes a run of many instances: groups of instances with a count, a
// database URL template, a workload and its options, plus settings common to the whole run.
// See docs/plans.md. Example:
//
//   [run]                          # every instance; the run's phases, windows, baselines
//   run_time = "30s"
//   baseline = "opm>=100@10s-30s"
//
//   [[group]]
//   name = "ds3"                   # instances ds3_1, ds3_2, ds3_3
//   count = 3
//   workload = "dvdstore"
//   db = "sqlite:///tmp/sb/ds3_{i}.db"   # {i}: the instance's number in its group, from 1
//   # or a list, the i-th instance on the i-th (servers on their own ports):
//   # db = ["postgresql://u@h:25433/ds3", "postgresql://u@h:25434/ds3"]
//   load = true                    # load a missing database first
//   [group.options]
//   db_size = "S"
//   n_threads = 2
//
// Values are kept as text with their line, and checked by the options they set, so every error
// names the file, the line and the key.
#ifndef STOREBENCH_CONFIG_PLAN_H_
#define STOREBENCH_CONFIG_PLAN_H_

#include <string>
#include <string_view>
#include <vector>

#include "storebench/status.h"

namespace sb::config {

struct PlanValue {
  std::string key;
  std::string value;  // booleans as Y/N, numbers as written
  int line = 0;
};

struct PlanGroup {
  std::string name;
  int count = 1;
  std::string workload = "dvdstore";
  std::string db;  // URL template; empty when the group lists its databases
  // `db = [...]`: instance i (from 1) takes dbs[i-1]; the count is at most its length
  // (without a count, the count is its length).
  std::vector<std::string> dbs;
  bool load = false;   // load a database that does not hold the workload yet
  bool scale = false;  // the group whose count a consolidation search sets
  // > 0: this many threads spread round robin over the group's instances (DVD Store 3's
  // target list), instead of each instance's own n_threads.
  int spread_threads = 0;
  std::vector<PlanValue> options;
  int line = 0;
};

struct Plan {
  std::string path;
  std::vector<PlanValue> run;  // [run]: options for every instance
  std::vector<PlanGroup> groups;
  // The group a consolidation search scales: the one marked `scale = true`, else the first.
  int ScaleGroup() const;
  int Instances() const;
  // "<path>:<line>" for messages.
  std::string Where(int line) const { return path + ":" + std::to_string(line); }
};

// At most this many instances in a plan (every instance has its own threads and connections).
inline constexpr int kMaxPlanInstances = 1024;
// A plan file larger than this is refused (plans are a few hundred bytes).
inline constexpr size_t kMaxPlanBytes = 1 << 20;

Result<Plan> ParsePlan(std::string_view text, const std::string& path);
Result<Plan> ReadPlanFile(const std::string& path);

// `tmpl` with every "{i}" replaced by `i`.
std::string ExpandInstanceTemplate(const std::string& tmpl, int i);

// The database URL of instance `i` (from 1) of group `g` of `plan`: the template expanded, or
// the list's i-th. InvalidArgument naming the file and line when the list is shorter (a
// consolidation search's count above it).
Result<std::string> InstanceDatabase(const Plan& plan, const PlanGroup& g, int i);

}  // namespace sb::config

#endif  // STOREBENCH_CONFIG_PLAN_H_
