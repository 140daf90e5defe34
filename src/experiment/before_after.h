// A before/after experiment on one object whose state a step changes (io fragtest: a file
// fragmented, then defragmented), as plain functions: the order of its trials and the verdict
// on a figure's ratio.
//
// Order: a run order that always puts "before" first measures every drift of the machine (a
// page cache warming up, a device's write cache filling) as an effect of the change. The
// conditions alternate across rounds, ABBA (round 1 before then after, round 2 after then
// before, ...), so a linear drift weighs on both alike; the state is changed back and forth
// between rounds as the order needs.
//
// Verdict: the ratio after ÷ before of the trials' means with its bootstrap interval, as
// `storebench compare` computes it (report/bootstrap.h: each trial a run), and "no measurable
// effect" when the interval holds 1.
#ifndef STOREBENCH_EXPERIMENT_BEFORE_AFTER_H_
#define STOREBENCH_EXPERIMENT_BEFORE_AFTER_H_

#include <cstdint>
#include <string>
#include <vector>

namespace sb::experiment {

enum class Condition { kBefore, kAfter };

// The conditions in run order for `rounds` rounds, two trials per round: before, after, then
// after, before, and so on (ABBA). Each trial of a round runs every specification.
std::vector<Condition> AbbaOrder(int rounds);

struct BeforeAfterRatio {
  double ratio = 0;  // mean(after) / mean(before); NaN when the before mean is 0
  bool has_interval = false;
  double low = 0, high = 0;  // the bootstrap interval (with has_interval)
  // "higher after", "lower after" (the interval excludes 1), "no measurable effect" (it holds
  // 1), or why there is no interval ("no interval: ...").
  std::string verdict;
};

// The ratio of the after trials' mean to the before trials' mean and its `confidence`
// interval from `resamples` bootstrap resamples of the trials (deterministic for `seed`). An
// interval needs at least two trials of each.
BeforeAfterRatio CompareBeforeAfter(const std::vector<double>& before,
                                    const std::vector<double>& after, int resamples = 10000,
                                    uint64_t seed = 1, double confidence = 0.95);

}  // namespace sb::experiment

#endif  // STOREBENCH_EXPERIMENT_BEFORE_AFTER_H_
