// Why a run of the consolidation search failed (docs/consolidation.md#fault-or-capacity): the
// count ran out of capacity (a baseline missed, nothing else went wrong), something broke (a
// server went away, errors, a stalled or idle instance, a failed verification), or the run did
// not start. A count decided by a fault says nothing about capacity, so the search can rerun a
// faulted run (--rerun_faults) before it counts.
#ifndef STOREBENCH_EXPERIMENT_RUN_CLASS_H_
#define STOREBENCH_EXPERIMENT_RUN_CLASS_H_

#include <string>

#include "experiment/consolidate.h"

namespace sb::experiment {

// The classes as the search file writes them.
inline constexpr char kClassPassed[] = "passed";
inline constexpr char kClassCapacity[] = "capacity";
inline constexpr char kClassFault[] = "fault";
inline constexpr char kClassNoStart[] = "no_start";

struct RunClass {
  std::string name;    // one of the classes above
  std::string reason;  // in words, naming the instance; "" for a passed run
};

// Classifies a run from its outcome and its result alone (`passed`: the search's verdict on
// it). Lock conflicts (deadlock, serialization, lock timeout) are retried by the driver and
// grow with load, so they are part of a capacity miss; every other error, a reconnect, a failed
// or stalled worker, an instance that completed no unit, or a failed verification is a fault.
RunClass ClassifyRun(const RunReport& run, bool passed);

}  // namespace sb::experiment

#endif  // STOREBENCH_EXPERIMENT_RUN_CLASS_H_
