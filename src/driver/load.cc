#include "driver/load.h"

namespace sb::driver {

LoadOutcome RunLoad(workload::Workload& workload, db::DbBackend& backend,
                    workload::LoadContext ctx, Clock& clock) {
  LoadOutcome out;
  ctx.rows_loaded = &out.rows;
  const int64_t start = clock.NowNanos();
  out.status = workload.Load(backend, ctx);
  out.seconds = static_cast<double>(clock.NowNanos() - start) / 1e9;
  return out;
}

}  // namespace sb::driver
