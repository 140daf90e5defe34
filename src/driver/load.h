// Timing of a workload's load (the driver is the only layer that reads the clock).
#ifndef STOREBENCH_DRIVER_LOAD_H_
#define STOREBENCH_DRIVER_LOAD_H_

#include "backend/db/db.h"
#include "base/clock.h"
#include "workload/workload.h"

namespace sb::driver {

struct LoadOutcome {
  Status status;
  int64_t rows = 0;
  double seconds = 0;
};

LoadOutcome RunLoad(workload::Workload& workload, db::DbBackend& backend,
                    workload::LoadContext ctx, Clock& clock);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_LOAD_H_
