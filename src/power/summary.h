// Turns a sampler's recording into the result's power section: per-second points on the run's
// time axis (t_sec from Start), per window the average power, the energy and the headline
// figures per watt (docs/power.md).
//
// A window (start, end] holds the points whose sampling interval (t_sec − interval, t_sec] lies
// in it, by its middle (metrics::PowerPointInWindow). Its average is the mean of the points
// whose every source answered (a second with one source missing has no sum); its energy is that
// average times the window's length. Per watt: headline ÷ average watts (OPM/W, TPS/W, IOPS/W);
// energy per unit: average watts ÷ units per second (J per order, per transaction, per I/O; per MiB
// for mib_per_sec).
#ifndef STOREBENCH_POWER_SUMMARY_H_
#define STOREBENCH_POWER_SUMMARY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "metrics/headline_spec.h"
#include "metrics/power_result.h"
#include "metrics/run_result.h"
#include "power/sampler.h"

namespace sb::power {

struct PowerWindowSpec {
  std::string label;
  double start_sec = 0, end_sec = 0;
  // The workload's headline figures over the window (name, value), e.g. {"opm", 12000}.
  std::vector<std::pair<std::string, double>> headlines;
};

// The power section for a run that started at `t0_nanos` on the sampler's clock. `specs` give
// each headline's per_second factor (60 for per-minute figures); a headline without a spec is
// taken as per second.
metrics::PowerResult SummarizePower(const PowerRecording& rec, int64_t t0_nanos,
                                    const std::vector<PowerWindowSpec>& windows,
                                    const std::vector<metrics::HeadlineSpec>& specs);

// The windows of a database run's result: "measured" (reset_sec, end_sec] with the result's
// headlines, then every reporting window with its own.
std::vector<PowerWindowSpec> RunWindows(const metrics::RunResult& r, double reset_sec,
                                        double end_sec);

// The average power of (start, end] from the points' sums, points `interval_sec` apart;
// `seconds` and `missing` as in PowerWindow. Exposed for tests and `power idle`.
double WindowAverage(const std::vector<metrics::PowerPoint>& points, double interval_sec,
                     double start_sec, double end_sec, int64_t* seconds, int64_t* missing);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_SUMMARY_H_
