// The server cross-check (docs/measurement.md): what the database itself says about the measured
// window, read on a connection of its own at the window's start and end, and set beside the
// client's counts over the same span. Internal to driver/ (the Runner calls it).
//
// A reading is the workload's probe of its tables (Workload::Snapshot, e.g. the ORDERS row count)
// and the server's counters (Connection::ServerCounters). The start reading takes the probe first
// and the end reading last, so the probe's own SELECTs fall outside the counters' span.
#ifndef STOREBENCH_DRIVER_SERVER_CHECK_H_
#define STOREBENCH_DRIVER_SERVER_CHECK_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "metrics/run_result.h"
#include "storebench/db.h"
#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::driver {

struct ServerReading {
  Status status;  // non-OK: the reading failed (the message says why)
  std::map<std::string, int64_t> probe;
  std::vector<db::ServerCounter> counters;
  // The back end's statement counters count failed statements too (from its Capabilities).
  bool statements_include_failed = false;
};

class ServerCheck {
 public:
  ServerCheck(workload::Workload& workload, db::DbBackend& backend, Clock& clock)
      : workload_(workload), backend_(backend), clock_(clock) {}

  // The start reading, on a new connection kept for the end reading.
  ServerReading Start();
  // The end reading. REQUIRES: every worker's connection is closed. When the back end's counters
  // lag (Capabilities::server_counters_lag) it rereads them until two reads a quarter second
  // apart agree on every row counter (the reader's own queries change none), for at most 5 s;
  // `*settled` says whether they did.
  ServerReading End(bool* settled);

 private:
  Status Connect();
  workload::Workload& workload_;
  db::DbBackend& backend_;
  Clock& clock_;
  std::unique_ptr<db::Connection> conn_;
};

// The ServerCheckResult of two readings and the client's totals between them: the readings'
// deltas and the workload's comparisons (a failed exact comparison adds a warning to
// `warnings`). `start_exact`: no unit was in flight at the start reading. When `figures` is not
// null, the workload's ServerFigures over `seconds` (the measured window) are appended to it.
metrics::ServerCheckResult CompareReadings(
    const workload::Workload& workload, const ServerReading& start, const ServerReading& end,
    const workload::Totals& span, bool start_exact, std::vector<std::string>* warnings,
    double seconds = 0, std::vector<std::pair<std::string, double>>* figures = nullptr);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_SERVER_CHECK_H_
