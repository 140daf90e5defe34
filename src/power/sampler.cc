#include "power/sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "power/reading_rule.h"

namespace sb::power {

namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
constexpr size_t kMaxDistinctErrors = 20;

void AddError(SourceRecording* rec, const std::string& message) {
  for (auto& [m, n] : rec->errors) {
    if (m == message) {
      ++n;
      return;
    }
  }
  if (rec->errors.size() < kMaxDistinctErrors) rec->errors.emplace_back(message, 1);
}

}  // namespace

struct PowerSampler::Slot {
  std::unique_ptr<PowerSource> source;
  SourceRecording rec;               // written by the slot's thread (under rec_mu_)
  std::vector<std::string> pending;  // marks to send; guarded by PowerSampler::mu_
  std::thread thread;
};

PowerSampler::PowerSampler(Clock& clock, std::vector<std::unique_ptr<PowerSource>> sources,
                           int64_t period_nanos)
    : clock_(clock), period_(period_nanos) {
  for (auto& s : sources) {
    auto slot = std::make_unique<Slot>();
    slot->rec.spec = s->spec();
    slot->rec.caps = s->capabilities();
    slot->source = std::move(s);
    sources_.push_back(std::move(slot));
  }
}

// std::thread::join throws only on a programming error (joining itself or a detached thread).
PowerSampler::~PowerSampler() { Stop(); }  // NOLINT(bugprone-exception-escape)

void PowerSampler::Start() {
  if (started_) return;
  started_ = true;
  start_at_ = clock_.NowNanos();
  start_unix_ = UnixNow();
  for (auto& slot : sources_) {
    if (slot->source->capabilities().live) {
      Slot* s = slot.get();
      slot->thread = std::thread([this, s] { Loop(s); });
    }
  }
}

void PowerSampler::Mark(const std::string& mark) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!started_ || stop_) return;
    marks_.emplace_back(clock_.NowNanos(), mark);
    for (auto& slot : sources_) {
      if (slot->rec.caps.marks) slot->pending.push_back(mark);
    }
  }
  cv_.notify_all();
}

void PowerSampler::Record(Slot* slot, int64_t tick, const Result<PowerReading>& r) {
  std::lock_guard<std::mutex> lock(rec_mu_);
  SourceRecording& rec = slot->rec;
  if (static_cast<int64_t>(rec.watts.size()) <= tick) {
    rec.watts.resize(static_cast<size_t>(tick + 1), kMissing);
  }
  if (!r.ok()) {
    AddError(&rec, r.status().message());
    return;
  }
  if (r->has_watts) {
    // One rule for every source's readings: an implausible one is a missing second.
    if (Status s = CheckWatts(r->watts); !s.ok()) {
      AddError(&rec, s.message());
    } else {
      rec.watts[static_cast<size_t>(tick)] = r->watts;
    }
  }
  if (r->has_clock_offset) rec.clock_offsets_sec.push_back(r->clock_offset_sec);
}

void PowerSampler::Loop(Slot* slot) {
  int64_t tick = 0;
  for (;;) {
    std::vector<std::string> marks;
    {
      std::unique_lock<std::mutex> lock(mu_);
      const int64_t due = start_at_ + tick * period_;
      for (;;) {
        if (stop_) return;
        if (!slot->pending.empty()) break;
        const int64_t wait = due - clock_.NowNanos();
        if (wait <= 0) break;
        cv_.wait_for(lock, std::chrono::nanoseconds(wait));
      }
      marks.swap(slot->pending);
    }
    for (const std::string& m : marks) {
      if (Status s = slot->source->Mark(m); !s.ok()) {
        std::lock_guard<std::mutex> rec_lock(rec_mu_);
        AddError(&slot->rec, "mark: " + s.message());
      }
    }
    if (clock_.NowNanos() < start_at_ + tick * period_) continue;  // woken for a mark only
    Record(slot, tick, slot->source->Read());
    // The next tick whose time is less than half a period past: a read that took longer than a
    // second leaves the ticks it overran missing rather than reading them all late.
    const int64_t now = clock_.NowNanos();
    int64_t next = tick + 1;
    // (Not once sampling has stopped: ticks after the stop are no part of the recording.)
    while (!stopping_.load(std::memory_order_acquire) &&
           start_at_ + next * period_ + period_ / 2 < now) {
      Record(slot, next, Status::IoError("no reading: the previous read was still under way"));
      ++next;
    }
    tick = next;
  }
}

void PowerSampler::ImportLog(Slot* slot) {
  SourceRecording& rec = slot->rec;
  rec.watts.assign(static_cast<size_t>(ticks_), kMissing);
  auto log = slot->source->ReadLog();
  if (!log.ok()) {
    AddError(&rec, log.status().message());
    return;
  }
  std::vector<double> sum(static_cast<size_t>(ticks_), 0);
  std::vector<int> n(static_cast<size_t>(ticks_), 0);
  for (const LoggedReading& r : *log) {
    // The logged instant on the controller's clock, then the nearest tick.
    const double since_start_ns = (r.unix_sec - start_unix_) * 1e9;
    const auto k =
        static_cast<int64_t>(std::llround(since_start_ns / static_cast<double>(period_)));
    if (k < 0 || k >= ticks_) continue;
    if (Status s = CheckWatts(r.watts); !s.ok()) {
      AddError(&rec, s.message());  // the second is missing unless the log has another reading
      continue;
    }
    sum[static_cast<size_t>(k)] += r.watts;
    ++n[static_cast<size_t>(k)];
  }
  for (size_t k = 0; k < sum.size(); ++k) {
    if (n[k] > 0) rec.watts[k] = sum[k] / n[k];
  }
  int64_t missing = 0;
  for (double w : rec.watts) missing += std::isnan(w) ? 1 : 0;
  if (missing > 0) {
    rec.errors.emplace_back(
        "the log has no reading for these seconds (does it cover the run? "
        "is offset= right?)",
        missing);
  }
}

void PowerSampler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!started_ || stopped_) return;
    stop_ = true;
    stopped_ = true;
    stopping_.store(true, std::memory_order_release);
  }
  const int64_t stop_at = clock_.NowNanos();
  cv_.notify_all();
  for (auto& slot : sources_) {
    if (slot->thread.joinable()) slot->thread.join();
  }
  ticks_ = (stop_at - start_at_) / period_ + 1;
  for (auto& slot : sources_) {
    slot->source->Close();
    if (!slot->source->capabilities().live) {
      ImportLog(slot.get());
    } else {
      // A tick the thread never reached (it was blocked in a read when the run ended, or the
      // grid passed on) is missing too.
      const size_t had = slot->rec.watts.size();
      if (had < static_cast<size_t>(ticks_)) {
        slot->rec.watts.resize(static_cast<size_t>(ticks_), kMissing);
        AddError(&slot->rec, "no reading: the source had not answered when sampling stopped");
        for (auto& [m, count] : slot->rec.errors) {
          if (m.rfind("no reading: the source had not", 0) == 0) {
            count += static_cast<int64_t>(ticks_) - static_cast<int64_t>(had) - 1;
          }
        }
      } else if (had > static_cast<size_t>(ticks_)) {
        slot->rec.watts.resize(static_cast<size_t>(ticks_));
      }
    }
    // Described after Close: a source may learn more at the end (PTDaemon's uncertainty).
    slot->rec.description = slot->source->Describe();
    slot->rec.caps = slot->source->capabilities();
  }
}

int64_t PowerSampler::Latest(std::vector<double>* watts) const {
  std::lock_guard<std::mutex> lock(rec_mu_);
  int64_t last = -1;
  bool any = false;
  for (const auto& slot : sources_) {
    if (!slot->source->capabilities().live) continue;
    const auto k = static_cast<int64_t>(slot->rec.watts.size()) - 1;
    last = any ? std::min(last, k) : k;
    any = true;
  }
  watts->clear();
  if (last < 0) return -1;
  for (const auto& slot : sources_) {
    const bool has =
        slot->source->capabilities().live && static_cast<int64_t>(slot->rec.watts.size()) > last;
    watts->push_back(has ? slot->rec.watts[static_cast<size_t>(last)] : kMissing);
  }
  return last;
}

PowerRecording PowerSampler::Recording() const {
  PowerRecording r;
  r.period_nanos = period_;
  for (int64_t k = 0; k < ticks_; ++k) r.tick_at.push_back(start_at_ + k * period_);
  for (const auto& slot : sources_) r.sources.push_back(slot->rec);
  r.marks = marks_;
  return r;
}

}  // namespace sb::power
