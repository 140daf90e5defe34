#include "driver/load.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace sb::driver {

LoadProgressTracker::LoadProgressTracker(int64_t start_nanos, int64_t rate_window_nanos)
    : start_(start_nanos), window_(rate_window_nanos) {
  history_.push_back({start_nanos, 0, 0});
}

metrics::LoadSample LoadProgressTracker::Sample(const metrics::LoadMeter& meter,
                                                int64_t now_nanos) {
  metrics::LoadSample s;
  s.tables = meter.Read();
  s.data_done = meter.data_done();
  s.elapsed_sec = static_cast<double>(now_nanos - start_) / 1e9;
  const int64_t rows = s.rows();
  const int64_t bytes = s.bytes();
  history_.push_back({now_nanos, rows, bytes});
  // Keep one point at or before the window's start so the rate always spans the full window.
  while (history_.size() > 2 && history_[1].nanos <= now_nanos - window_) history_.pop_front();
  const Point& from = history_.front();
  const double span = static_cast<double>(now_nanos - from.nanos) / 1e9;
  if (span > 0) {
    s.rows_per_sec = static_cast<double>(rows - from.rows) / span;
    s.bytes_per_sec = static_cast<double>(bytes - from.bytes) / span;
  }
  const int64_t expected = s.expected_rows();
  if (s.data_done) {
    s.eta_sec = 0;
  } else if (expected > 0 && s.rows_per_sec > 0) {
    s.eta_sec = static_cast<double>(std::max<int64_t>(0, expected - rows)) / s.rows_per_sec;
  }
  return s;
}

LoadOutcome RunLoad(workload::Workload& workload, db::DbBackend& backend, workload::LoadContext ctx,
                    Clock& clock, const LoadProgress& progress) {
  LoadOutcome out;
  metrics::LoadMeter meter;
  ctx.rows_loaded = &out.rows;
  ctx.meter = &meter;
  const int64_t start = clock.NowNanos();
  std::atomic<bool> finished{false};
  std::thread ticker;
  // The ticker and the workload's own messages (wrapped below) share the tracker, so the
  // "data in" sample always comes before the message that follows it ("building indexes").
  // Everything here outlives both: the ticker is joined and ctx dies before RunLoad returns.
  LoadProgressTracker tracker(start);
  std::mutex mu;
  bool done_reported = false;
  auto report_if_done = [&] {  // true once the data-done sample has been shown
    if (!done_reported && meter.data_done()) {
      progress.on_sample(tracker.Sample(meter, clock.NowNanos()));
      done_reported = true;
    }
    return done_reported;
  };
  if (progress.on_sample) {
    if (ctx.progress) {
      ctx.progress = [&, user = ctx.progress](const std::string& m) {
        std::lock_guard lock(mu);
        report_if_done();
        user(m);
      };
    }
    ticker = std::thread([&] {
      int64_t next = start + progress.interval_nanos;
      while (!finished.load()) {
        // Short naps so the end of the load is not delayed by a whole interval.
        clock.SleepUntil(std::min(next, clock.NowNanos() + 100'000'000));
        std::lock_guard lock(mu);
        if (report_if_done() || clock.NowNanos() < next) continue;
        next += progress.interval_nanos;
        progress.on_sample(tracker.Sample(meter, clock.NowNanos()));
      }
    });
  }
  out.status = workload.Load(backend, ctx);
  finished = true;
  if (ticker.joinable()) ticker.join();
  out.seconds = static_cast<double>(clock.NowNanos() - start) / 1e9;
  for (const auto& t : meter.Read()) out.bytes += t.bytes;
  return out;
}

}  // namespace sb::driver
