// The end of a scaled-out run (docs/scale-out.md): every rank's figures gathered and, on rank 0,
// the result's "scale_out" section. No printing; the caller decides what a lost rank means.
#ifndef STOREBENCH_SESSION_SCALE_OUT_RESULT_H_
#define STOREBENCH_SESSION_SCALE_OUT_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config/options.h"
#include "dist/group.h"
#include "metrics/run_result.h"

namespace sb::session {

// After a run on every rank (`threads`: the threads this rank ran): the end clock offsets and
// every rank's figures; on rank 0 the result's "scale_out" section (and an incomplete run's
// warning). A rank's units are its count of the first operation type. Returns false when a
// rank was lost (the result is incomplete).
// `instance_names`: every instance of the run, in order (which rank ran which is in each
// rank's section). `note` is sent to rank 0, which gets every rank's in `notes` (rank order;
// "" for a lost rank) when it is given.
bool FinishScaleOut(dist::Group& g, const config::OptionSet& o, int64_t threads,
                    double measured_sec, const std::vector<std::string>& instance_names,
                    metrics::RunResult* r, const std::string& note = std::string(),
                    std::vector<std::string>* notes = nullptr);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_SCALE_OUT_RESULT_H_
