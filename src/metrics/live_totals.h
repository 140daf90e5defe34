// One instance's (or one storage test's) figures since its Start, warm-up included, as a live
// endpoint shows them (--metrics_addr, docs/measurement.md): cumulative histograms and counters,
// which only grow while it runs, so that a scraper's rate() and histogram_quantile() over any
// span are right and a sum over instances or specifications counts everything once.
#ifndef STOREBENCH_METRICS_LIVE_TOTALS_H_
#define STOREBENCH_METRICS_LIVE_TOTALS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/histogram.h"

namespace sb::metrics {

struct LiveTotals {
  std::string workload;  // "dvdstore", "oltp", "storage", ...
  std::string instance;  // the instance's name ("1", a plan's "<group>_<i>")
  std::string spec;      // a storage test's access specification; "" for database runs
  std::string unit;      // the unit of work: "order", "transaction", "io"
  // The unit's latencies: one histogram, or (storage) one per kind of unit (`unit_ops`: "read",
  // "write"), which together hold every unit once.
  std::vector<std::string> unit_ops;  // empty, or one name per histogram of `units`
  std::vector<Histogram> units;
  // The workload's steps inside a unit (DVD Store: login, browse, purchase), each its own
  // operation: never a part of another histogram here.
  std::vector<std::string> step_names;
  std::vector<Histogram> steps;
  // An open loop's schedule lag (count 0 in a closed loop).
  Histogram schedule_lag;
  // As TimeSeries::counter_names: the workload's counters, then the driver's (errors.<category>,
  // retries, late, reconnects); storage: read_bytes, write_bytes, read_errors, write_errors.
  std::vector<std::string> counter_names;
  std::vector<int64_t> counters;
  double elapsed_sec = 0;  // since Start, or since the warm-up (ramp) reset once it happened
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_LIVE_TOTALS_H_
