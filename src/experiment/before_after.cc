#include "experiment/before_after.h"

#include <cmath>
#include <limits>

#include "stats/bootstrap.h"

namespace sb::experiment {

std::vector<Condition> AbbaOrder(int rounds) {
  std::vector<Condition> out;
  for (int r = 0; r < rounds; ++r) {
    const bool flip = r % 2 == 1;
    out.push_back(flip ? Condition::kAfter : Condition::kBefore);
    out.push_back(flip ? Condition::kBefore : Condition::kAfter);
  }
  return out;
}

BeforeAfterRatio CompareBeforeAfter(const std::vector<double>& before,
                                    const std::vector<double>& after, int resamples, uint64_t seed,
                                    double confidence) {
  std::vector<report::RunFigure> a, b;
  for (double v : before) a.push_back({v, {}});
  for (double v : after) b.push_back({v, {}});
  BeforeAfterRatio out;
  const double mean_a = a.empty() ? 0 : report::GroupMean(a);
  out.ratio = mean_a != 0 && !b.empty() ? report::GroupMean(b) / mean_a
                                        : std::numeric_limits<double>::quiet_NaN();
  if (a.size() < 2 || b.size() < 2) {
    out.verdict = "no interval: it needs at least 2 trials before and after";
    return out;
  }
  if (!std::isfinite(out.ratio)) {
    out.verdict = "no interval: the mean before is 0";
    return out;
  }
  const report::RatioInterval ci = report::BootstrapRatio(a, b, resamples, seed, confidence);
  if (!std::isfinite(ci.low) || !std::isfinite(ci.high)) {
    out.verdict = "no interval: every resample's mean before was 0";
    return out;
  }
  out.has_interval = true;
  out.low = ci.low;
  out.high = ci.high;
  out.verdict = ci.low > 1.0    ? "higher after"
                : ci.high < 1.0 ? "lower after"
                                : "no measurable effect";
  return out;
}

}  // namespace sb::experiment
