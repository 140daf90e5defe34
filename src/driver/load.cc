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
    SampleIndexPhase(meter, now_nanos, &s);
  } else if (expected > 0 && s.rows_per_sec > 0) {
    s.eta_sec = static_cast<double>(std::max<int64_t>(0, expected - rows)) / s.rows_per_sec;
  }
  return s;
}

void LoadProgressTracker::SampleIndexPhase(const metrics::LoadMeter& meter, int64_t now_nanos,
                                           metrics::LoadSample* s) {
  s->index_steps = meter.ReadIndexSteps();
  if (s->index_steps.empty()) return;
  if (index_start_ < 0) index_start_ = now_nanos;
  s->index_phase = true;
  s->index_elapsed_sec = static_cast<double>(now_nanos - index_start_) / 1e9;
  int64_t done = 0, total = 0;
  for (size_t i = 0; i < s->index_steps.size(); ++i) {
    auto& step = s->index_steps[i];
    const int64_t w = std::max<int64_t>(1, step.weight);
    total += w;
    if (step.state == metrics::IndexStepProgress::State::kDone) done += w;
    if (step.state == metrics::IndexStepProgress::State::kRunning) {
      const auto [it, added] = step_seen_running_.emplace(static_cast<int>(i), now_nanos);
      step.running_sec = static_cast<double>(now_nanos - it->second) / 1e9;
    }
  }
  // Weight done per second so far. The heaviest steps start first and the light ones finish
  // meanwhile, so before half the weight is done that rate says little: unknown until then.
  s->eta_sec = -1;
  if (done == total) {
    s->eta_sec = 0;
  } else if (2 * done >= total && s->index_elapsed_sec > 0) {
    s->eta_sec =
        static_cast<double>(total - done) * s->index_elapsed_sec / static_cast<double>(done);
  }
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
  auto report_if_done = [&] {  // true when this call showed the data-done sample
    if (done_reported || !meter.data_done()) return false;
    metrics::LoadSample s = tracker.Sample(meter, clock.NowNanos());
    s.index_phase = false;  // the "data in" line; the index phase's lines follow
    progress.on_sample(s);
    done_reported = true;
    return true;
  };
  // The index phase's last line (every step done) is shown once, before whatever the workload
  // says next; later samples would repeat it.
  bool indexes_reported = false;
  auto index_sample = [&](int64_t now, bool only_if_finished) {
    if (indexes_reported || !done_reported) return;
    metrics::LoadSample s = tracker.Sample(meter, now);
    if (!s.index_phase) return;
    const bool finished = std::all_of(s.index_steps.begin(), s.index_steps.end(), [](auto& st) {
      return st.state == metrics::IndexStepProgress::State::kDone;
    });
    if (only_if_finished && !finished) return;
    indexes_reported = finished;
    progress.on_sample(s);
  };
  if (progress.on_sample) {
    if (ctx.progress) {
      ctx.progress = [&, user = ctx.progress](const std::string& m) {
        std::lock_guard lock(mu);
        report_if_done();
        index_sample(clock.NowNanos(), /*only_if_finished=*/true);
        user(m);
      };
    }
    ticker = std::thread([&] {
      int64_t next = start + progress.interval_nanos;
      while (!finished.load()) {
        // Short naps so the end of the load is not delayed by a whole interval.
        clock.SleepUntil(std::min(next, clock.NowNanos() + 100'000'000));
        std::lock_guard lock(mu);
        const int64_t now = clock.NowNanos();
        if (report_if_done()) next = now + progress.interval_nanos;
        if (now < next) continue;
        // `next` always moves past now: a deadline left behind would make the naps above
        // return at once and this loop spin for the rest of the load (it did, through every
        // index build, costing as much client CPU as generating the data).
        while (next <= now) next += progress.interval_nanos;
        if (done_reported) {
          // After the data only the index phase has something new to show.
          index_sample(now, /*only_if_finished=*/false);
          continue;
        }
        progress.on_sample(tracker.Sample(meter, now));
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
