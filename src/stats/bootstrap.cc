#include "stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace sb::report {

double GroupMean(const std::vector<RunFigure>& runs) {
  if (runs.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (const RunFigure& r : runs) sum += r.value;
  return sum / static_cast<double>(runs.size());
}

double ResampledRunValue(const RunFigure& run, const std::vector<size_t>& picked) {
  if (run.instances.size() < 2 || picked.empty()) return run.value;
  double all = 0;
  for (double v : run.instances) all += v;
  all /= static_cast<double>(run.instances.size());
  if (all == 0) return run.value;
  double drawn = 0;
  for (size_t i : picked) drawn += run.instances[i];
  drawn /= static_cast<double>(picked.size());
  return run.value * drawn / all;
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double StdDev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  // Equal values have no spread (the mean's rounding would otherwise show one of ~1e-21).
  if (std::all_of(v.begin(), v.end(), [&](double x) { return x == v[0]; })) return 0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

namespace {

// One hierarchical resample of a group's mean.
double ResampleMean(const std::vector<RunFigure>& runs, std::mt19937_64& rng,
                    std::vector<size_t>& picked) {
  std::uniform_int_distribution<size_t> pick_run(0, runs.size() - 1);
  double sum = 0;
  for (size_t k = 0; k < runs.size(); ++k) {
    const RunFigure& run = runs[pick_run(rng)];
    picked.clear();
    if (run.instances.size() >= 2) {
      std::uniform_int_distribution<size_t> pick_instance(0, run.instances.size() - 1);
      for (size_t i = 0; i < run.instances.size(); ++i) picked.push_back(pick_instance(rng));
    }
    sum += ResampledRunValue(run, picked);
  }
  return sum / static_cast<double>(runs.size());
}

}  // namespace

RatioInterval BootstrapRatio(const std::vector<RunFigure>& a, const std::vector<RunFigure>& b,
                             int resamples, uint64_t seed, double confidence) {
  RatioInterval out;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double mean_a = GroupMean(a);
  out.ratio = mean_a != 0 ? GroupMean(b) / mean_a : nan;
  out.low = out.high = nan;
  if (a.empty() || b.empty() || resamples < 1) return out;
  std::mt19937_64 rng(seed);
  std::vector<size_t> picked;
  std::vector<double> ratios;
  ratios.reserve(static_cast<size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    const double ma = ResampleMean(a, rng, picked);
    const double mb = ResampleMean(b, rng, picked);
    if (ma != 0) ratios.push_back(mb / ma);
  }
  if (ratios.empty()) return out;
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - confidence) / 2;
  const auto last = static_cast<double>(ratios.size() - 1);
  out.low = ratios[static_cast<size_t>(std::floor(tail * last))];
  out.high = ratios[static_cast<size_t>(std::ceil((1 - tail) * last))];
  return out;
}

}  // namespace sb::report
