// Statistics for comparing groups of runs: the ratio of two groups' means with a confidence
// interval from a hierarchical bootstrap that resamples runs, then the instances within each
// resampled run (Kalibera and Jones, "Quantifying Performance Changes with Effect Size
// Confidence Intervals", 2012; docs/compare.md).
#ifndef STOREBENCH_STATS_BOOTSTRAP_H_
#define STOREBENCH_STATS_BOOTSTRAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb::report {

// One run's figure, and the same figure of each of its instances when it has several.
struct RunFigure {
  double value = 0;
  std::vector<double> instances;  // empty (or one): the run is resampled as a whole
};

// The group's statistic: the mean of its runs' values.
double GroupMean(const std::vector<RunFigure>& runs);

// A run's value when its instances are replaced by `picked` (indexes into instances, drawn with
// replacement): value · mean(picked instances) / mean(instances). The run's figure is scaled by
// how the resampled instances differ from the real ones, so sums (aggregate OPM) and means
// (latency) are treated alike and no resampling gives back the run's own value. A run without
// two instances, or whose instances' mean is 0, keeps its value.
double ResampledRunValue(const RunFigure& run, const std::vector<size_t>& picked);

// The median (the mean of the two middle values for an even count); NaN for none.
double Median(std::vector<double> v);
// The sample standard deviation (n − 1); 0 for fewer than two values.
double StdDev(const std::vector<double>& v);

struct RatioInterval {
  double ratio = 0;  // GroupMean(b) / GroupMean(a)
  double low = 0, high = 0;
};

// ratio = GroupMean(b) / GroupMean(a) and its `confidence` percentile interval (0.95: the 2.5th
// and 97.5th percentiles) over `resamples` hierarchical resamples: per group, as many runs as it
// has, drawn with replacement; within each drawn run, as many instances as it has, drawn with
// replacement (ResampledRunValue). Deterministic for a given seed. Resamples whose A mean is 0
// are dropped. Both groups must be non-empty. Percentile p of the sorted ratios r[0..n-1] is
// r[floor(p · (n − 1))] for the low end and r[ceil(p · (n − 1))] for the high end.
RatioInterval BootstrapRatio(const std::vector<RunFigure>& a, const std::vector<RunFigure>& b,
                             int resamples, uint64_t seed, double confidence);

}  // namespace sb::report

#endif  // STOREBENCH_STATS_BOOTSTRAP_H_
