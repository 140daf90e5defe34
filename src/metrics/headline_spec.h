// The declaration of one headline metric (see metrics/headline.h), plain data so a result can
// carry the definitions of its figures.
#ifndef STOREBENCH_METRICS_HEADLINE_SPEC_H_
#define STOREBENCH_METRICS_HEADLINE_SPEC_H_

#include <string>
#include <utility>
#include <vector>

namespace sb::metrics {

struct RecorderSnapshot;
struct IntervalPoint;

// A rate of what the recorders count: Σ weight · count(type) + Σ weight · counter, per second,
// times `per_second` (60 for "per minute").
struct HeadlineSpec {
  std::string name;   // "opm", "tps", "qps", "iops", "mib_per_sec"
  std::string words;  // "orders per minute"
  double per_second = 1;
  std::vector<std::pair<int, double>> types;     // (type index, weight)
  std::vector<std::pair<int, double>> counters;  // (counter index, weight)

  // The counted quantity in a snapshot (or the difference of two).
  double Count(const RecorderSnapshot& s) const;
  // The counted quantity in one time-series point; type and counter indexes are the series'
  // (the driver keeps a workload's types and counters at the same indexes there).
  double Count(const IntervalPoint& p) const;
  // Count / seconds · per_second; 0 when seconds <= 0.
  double Rate(double count, double seconds) const {
    return seconds > 0 ? count / seconds * per_second : 0;
  }
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_HEADLINE_SPEC_H_
