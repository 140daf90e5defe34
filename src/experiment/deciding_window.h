// A run's figures over the window that decided it, read from its result: what a consolidation
// report tabulates per instance count (docs/consolidation.md#the-per-count-table).
#ifndef STOREBENCH_EXPERIMENT_DECIDING_WINDOW_H_
#define STOREBENCH_EXPERIMENT_DECIDING_WINDOW_H_

#include <string>

#include "metrics/run_result.h"
#include "report/files/consolidation_search.h"

namespace sb::experiment {

// The window label of a baseline rule ("23m-28m" of "opm>=2600@23m-28m"); "" without one.
std::string RuleWindow(const std::string& rule);

// The figures of `r` over the window of its first baseline: each instance's headline figure and
// the aggregate's in that window (r.windows; the window "run" is the measured window), the host
// CPU's mean over the readings that fall in it, the average power and the aggregate per watt
// from the result's power window of that label. A figure the result lacks stays NaN; a result
// without baselines, or without the window, gives only what it has.
report::SearchWindow DecidingWindow(const metrics::RunResult& r);

}  // namespace sb::experiment

#endif  // STOREBENCH_EXPERIMENT_DECIDING_WINDOW_H_
