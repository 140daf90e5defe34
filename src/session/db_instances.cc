#include "session/db_instances.h"

#include <algorithm>
#include <cmath>

#include "driver/run_options.h"
#include "session/op_log_paths.h"
#include "session/rank_share.h"

namespace sb::session {

Status Named(const Status& s, const DbSetup& setup, bool several) {
  if (s.ok() || !several) return s;
  return Status(s.code(), "instance " + setup.name + " (" + setup.url + "): " + s.message());
}

Result<std::vector<std::string>> OpLogPathsOf(const std::vector<DbSetup>& setups) {
  std::vector<OpLogRequest> requests;
  for (const DbSetup& s : setups) {
    requests.push_back(
        {s.name, s.options->Has("op_log") ? s.options->GetString("op_log") : std::string()});
  }
  return InstanceOpLogPaths(requests);
}

Result<std::vector<driver::DbInstanceSpec>> InstanceSpecs(std::vector<DbSetup>& setups) {
  const bool several = setups.size() > 1;
  auto op_logs = OpLogPathsOf(setups);
  if (!op_logs.ok()) return op_logs.status();
  std::vector<driver::DbInstanceSpec> specs;
  for (DbSetup& s : setups) {
    auto parsed = driver::RunOptionsFrom(*s.options, s.workload->max_failures(),
                                         s.workload->shape().headlines);
    if (!parsed.ok()) return Named(parsed.status(), s, several);
    driver::DbInstanceSpec spec;
    spec.name = s.name;
    spec.target = s.url;
    spec.workload = s.workload.get();
    spec.backend = s.backend.get();
    spec.options = std::move(parsed).value();
    spec.options.seed += specs.size();
    spec.options.op_log_path = (*op_logs)[specs.size()];
    specs.push_back(std::move(spec));
  }
  return specs;
}

void ScaleToRankShare(driver::DbInstanceSpec* spec, int64_t share, int rank) {
  driver::RunOptions& o = spec->options;
  const double fraction = static_cast<double>(share) / o.threads;
  o.threads = static_cast<int>(share);
  o.rate_per_sec *= fraction;
  if (o.units_total > 0) {
    o.units_total =
        std::max<int64_t>(1, std::llround(static_cast<double>(o.units_total) * fraction));
  }
  o.seed += 7919 * static_cast<uint64_t>(rank);
  if (!o.op_log_path.empty()) {
    o.op_log_path = o.threads > 0 ? RankOpLogPath(o.op_log_path, rank) : std::string();
  }
}

}  // namespace sb::session
