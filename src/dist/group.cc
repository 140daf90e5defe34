#include "dist/group.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <thread>

#include "base/clock.h"
#include "dist/wire.h"
#include "driver/proc_stat.h"

namespace sb::dist {
namespace {

enum Tag : int {
  kSame = 1,
  kSameVerdict,
  kReady,
  kReadyVerdict,
  kStart,
  kGo,
  kVote,
  kDecision,
  kSnapshots,
  kPing,
  kPong,
  kReport,
  kDone,
  kOk,
  kOkVerdict,
  kShare,
  kFromRankZero,
  kFailed,  // TellFailure: outside the rounds, read whenever a rank waits for the teller
};

// Round trips per rank for a clock offset; the best (shortest) one is kept, as NTP does.
constexpr int kPings = 8;
// After a stop (SIGINT/SIGTERM) nobody waits longer than this for a rank: mpirun kills the
// ranks about a second after it forwarded the signal.
constexpr int64_t kStopGraceNanos = 500 * kNanosPerMilli;
// The longest nap between polls while waiting for a message, and the one for waits whose end
// is measured (the start signal, clock pings).
constexpr int64_t kNapNanos = 2 * kNanosPerMilli;
constexpr int64_t kPreciseNapNanos = 20 * kNanosPerMicro;

int64_t WallNanos() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
}

int64_t MonoNanos() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
}

std::string HostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "?";
  return buf;
}

std::string ShortHash(const std::string& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016zx", std::hash<std::string>{}(s));
  return buf;
}

std::string EncodeStatus(const Status& s) {
  WireWriter w;
  w.Int(static_cast<int64_t>(s.code()));
  w.Str(s.message());
  return w.bytes();
}

Status DecodeStatus(const std::string& bytes) {
  WireReader r(bytes);
  const auto code = static_cast<StatusCode>(r.Int());
  std::string message = r.Str();
  if (!r.ok()) return Status::Internal("a malformed message from another rank");
  return code == StatusCode::kOk ? Status::Ok() : Status(code, std::move(message));
}

metrics::RecorderSnapshot MergeInstances(const std::vector<metrics::RecorderSnapshot>& v) {
  metrics::RecorderSnapshot all;
  for (const auto& s : v) all.Merge(s);
  return all;
}

}  // namespace

Group::Group(std::unique_ptr<Transport> transport, int64_t timeout_nanos)
    : t_(std::move(transport)), timeout_nanos_(timeout_nanos) {
  const auto n = static_cast<size_t>(size());
  hosts_.assign(n, "?");
  hosts_[static_cast<size_t>(rank())] = HostName();
  lost_.assign(n, false);
  told_.resize(n);
  reports_.resize(n);
  for (size_t k = 0; k < n; ++k) reports_[k].rank = static_cast<int>(k);
  last_.resize(n);
  at_reset_.resize(n);
  at_end_.resize(n);
  cpu_last_.assign(n, 0);
  cpu_at_reset_.assign(n, 0);
  cpu_at_end_.assign(n, 0);
}

std::string Group::Host(int rank) const { return hosts_[static_cast<size_t>(rank)]; }

int64_t Group::Deadline(int64_t timeout) const { return MonoNanos() + timeout; }

std::optional<std::string> Group::ReceiveBy(int from, int tag, int64_t deadline, int64_t max_nap) {
  std::string msg;
  int64_t nap = 20 * kNanosPerMicro;
  for (;;) {
    if (t_->TryReceive(from, tag, &msg)) return msg;
    if (t_->TryReceive(from, kFailed, &msg)) {
      told_[static_cast<size_t>(from)] = DecodeStatus(msg);
      return std::nullopt;
    }
    const int64_t now = MonoNanos();
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) {
      if (stop_seen_ == 0) stop_seen_ = now;
      // Rank 0 gives up on a silent rank first; the others wait for its answer a little longer,
      // so a slow rank never takes rank 0 for lost while rank 0 is waiting for another.
      deadline = std::min(deadline, stop_seen_ + (coordinator() ? 1 : 2) * kStopGraceNanos);
    }
    if (now >= deadline) return std::nullopt;
    // Short naps first (ranks normally answer within microseconds), then up to max_nap.
    std::this_thread::sleep_for(std::chrono::nanoseconds(nap));
    nap = std::min<int64_t>(nap * 2, max_nap);
  }
}

void Group::MarkLost(int k, const std::string& why) {
  if (lost_[static_cast<size_t>(k)]) return;
  lost_[static_cast<size_t>(k)] = true;
  RankReport& r = reports_[static_cast<size_t>(k)];
  r.lost = true;
  char when[64];
  if (start_mono_ != 0) {
    std::snprintf(when, sizeof when, " %.1f s after Start",
                  static_cast<double>(MonoNanos() - start_mono_) / 1e9);
  } else {
    std::snprintf(when, sizeof when, " before Start");
  }
  r.lost_reason = why + when;
}

std::vector<std::optional<std::string>> Group::Gather(int tag, const std::string& mine) {
  ++round_;
  std::vector<std::optional<std::string>> out(static_cast<size_t>(size()));
  WireWriter w;
  w.Int(round_);
  if (!coordinator()) {
    t_->Send(0, tag, w.bytes() + mine);
    return out;
  }
  out[0] = mine;
  const int64_t deadline = Deadline(timeout_nanos_);
  for (int k = 1; k < size(); ++k) {
    if (lost_[static_cast<size_t>(k)] || told_[static_cast<size_t>(k)]) continue;
    std::optional<std::string> m = ReceiveBy(k, tag, deadline);
    if (!m && told_[static_cast<size_t>(k)]) continue;  // it failed and said so: not lost
    if (!m) {
      MarkLost(k, "stopped answering");
      continue;
    }
    WireReader r(*m);
    if (r.Int() != round_ || !r.ok()) {
      MarkLost(k, "fell out of step with rank 0");
      continue;
    }
    out[static_cast<size_t>(k)] = m->substr(sizeof(int64_t));
  }
  return out;
}

std::optional<std::string> Group::Broadcast(int tag, const std::string& msg) {
  ++round_;
  WireWriter w;
  w.Int(round_);
  if (coordinator()) {
    for (int k = 1; k < size(); ++k) {
      if (!lost_[static_cast<size_t>(k)] && !told_[static_cast<size_t>(k)]) {
        t_->Send(k, tag, w.bytes() + msg);
      }
    }
    return msg;
  }
  if (coordinator_lost_ || told_[0]) return std::nullopt;
  // Rank 0 answers after it has heard every rank or given up on one (timeout_nanos_): wait
  // longer than that, so only rank 0 declares ranks lost.
  // The start signal and clock pings are waited for with short naps: a nap's oversleep would
  // become start skew or offset uncertainty.
  const bool precise = tag == kGo;
  std::optional<std::string> m =
      ReceiveBy(0, tag, Deadline(2 * timeout_nanos_), precise ? kPreciseNapNanos : kNapNanos);
  if (!m && told_[0]) return std::nullopt;  // rank 0 failed before the run and said so
  const std::string got = m ? *m : std::string();
  WireReader r(got);
  if (!m || r.Int() != round_ || !r.ok()) {
    coordinator_lost_ = true;
    return std::nullopt;
  }
  return m->substr(sizeof(int64_t));
}

Status Group::ToldFailure() const {
  for (int k = 1; k < size(); ++k) {
    const auto& told = told_[static_cast<size_t>(k)];
    if (told && !told->ok()) {
      return Status(told->code(),
                    "rank " + std::to_string(k) + " (host " + Host(k) + "): " + told->message());
    }
  }
  return Status::Ok();
}

void Group::TellFailure(const Status& s) {
  if (s.ok() || told_mine_ || failure_agreed_ || start_mono_ != 0) return;
  told_mine_ = true;
  // Rank 0's failure ends every rank's wait for it; another rank's ends rank 0's wait, which
  // then tells the rest with the step's verdict. A rank that heard rank 0 fail stays quiet.
  if (!coordinator()) {
    if (!told_[0]) t_->Send(0, kFailed, EncodeStatus(s));
    return;
  }
  for (int k = 1; k < size(); ++k) {
    if (!lost_[static_cast<size_t>(k)] && !told_[static_cast<size_t>(k)]) {
      t_->Send(k, kFailed, EncodeStatus(s));
    }
  }
}

Result<std::string> Group::FromRankZero(const std::string& value) {
  // Ranks reach this point far apart when rank 0 restores a database first (--restore).
  const int64_t saved = timeout_nanos_;
  timeout_nanos_ = std::max(timeout_nanos_, ready_timeout_nanos_);
  const std::optional<std::string> got = Broadcast(kFromRankZero, value);
  timeout_nanos_ = saved;
  if (!got) {
    const Status told = ToldFailure();
    if (!told.ok()) return told;
    return Status::FailedPrecondition("rank 0 did not send its value within the rank timeout");
  }
  return *got;
}

Status Group::CheckSame(const std::string& what, const std::string& description) {
  WireWriter w;
  w.Str(hosts_[static_cast<size_t>(rank())]);
  w.Str(what);
  // Ranks reach this point far apart when rank 0 restores a database first (--restore).
  const int64_t saved = timeout_nanos_;
  timeout_nanos_ = std::max(timeout_nanos_, ready_timeout_nanos_);
  const auto all = Gather(kSame, w.bytes());
  std::string verdict;
  if (coordinator()) {
    for (int k = 1; k < size() && verdict.empty(); ++k) {
      const auto& m = all[static_cast<size_t>(k)];
      if (!m) {
        const Status told = ToldFailure();
        verdict = !told.ok() ? told.message()
                             : "rank " + std::to_string(k) +
                                   " did not answer rank 0 within the rank timeout";
        continue;
      }
      WireReader r(*m);
      hosts_[static_cast<size_t>(k)] = r.Str();
      const std::string theirs = r.Str();
      if (theirs != what) {
        verdict = "rank " + std::to_string(k) + " (host " + Host(k) + ") runs with a different " +
                  description + " than rank 0 (hash " + ShortHash(theirs) + " instead of " +
                  ShortHash(what) + "); start every rank with the same storebench and options";
      }
    }
  }
  const std::optional<std::string> answer = Broadcast(kSameVerdict, verdict);
  timeout_nanos_ = saved;
  failure_agreed_ = failure_agreed_ || !answer || !answer->empty();
  if (!answer && told_[0]) return *told_[0];
  if (!answer) return Status::FailedPrecondition("rank 0 did not answer within the rank timeout");
  return answer->empty() ? Status::Ok() : Status::InvalidArgument(*answer);
}

Status Group::Verdict(int tag, int verdict_tag, const Status& local, bool prefix_mine,
                      const std::string& missing) {
  // Ranks reach these steps up to a connect timeout (or a load) apart.
  const int64_t saved = timeout_nanos_;
  timeout_nanos_ = std::max(timeout_nanos_, ready_timeout_nanos_);
  const auto all = Gather(tag, EncodeStatus(local));
  Status verdict;
  if (coordinator()) {
    if (!local.ok()) {
      verdict = prefix_mine
                    ? Status(local.code(), "rank 0 (host " + Host(0) + "): " + local.message())
                    : local;
    }
    for (int k = 1; k < size() && verdict.ok(); ++k) {
      const auto& m = all[static_cast<size_t>(k)];
      if (!m) {
        verdict = ToldFailure();
        if (verdict.ok()) {
          verdict = Status::FailedPrecondition("rank " + std::to_string(k) + " (host " + Host(k) +
                                               ") did not report " + missing + " in time");
        }
        continue;
      }
      const Status s = DecodeStatus(*m);
      if (!s.ok()) {
        verdict = Status(s.code(),
                         "rank " + std::to_string(k) + " (host " + Host(k) + "): " + s.message());
      }
    }
  }
  const std::optional<std::string> answer = Broadcast(verdict_tag, EncodeStatus(verdict));
  timeout_nanos_ = saved;
  Status out;
  if (!answer && told_[0]) {
    out = *told_[0];
  } else if (!answer) {
    out = Status::FailedPrecondition("rank 0 did not answer within the rank timeout");
  } else {
    out = DecodeStatus(*answer);
  }
  failure_agreed_ = failure_agreed_ || !out.ok();
  return out;
}

std::optional<std::string> Group::Share(const std::string& mine) {
  // Followers wait as long as rank 0 takes between two runs (its verification, a search file).
  const int64_t saved = timeout_nanos_;
  timeout_nanos_ = std::max(timeout_nanos_, ready_timeout_nanos_);
  std::optional<std::string> got = Broadcast(kShare, mine);
  timeout_nanos_ = saved;
  return got;
}

void Group::BeginRun() {
  const auto n = static_cast<size_t>(size());
  for (size_t k = 0; k < n; ++k) {
    RankReport fresh;
    fresh.rank = static_cast<int>(k);
    fresh.lost = reports_[k].lost;
    fresh.lost_reason = reports_[k].lost_reason;
    reports_[k] = std::move(fresh);
  }
  for (auto* v : {&last_, &at_reset_, &at_end_}) v->assign(n, {});
  for (auto* v : {&cpu_last_, &cpu_at_reset_, &cpu_at_end_}) v->assign(n, 0);
  start_wall_ = 0;
  start_mono_ = 0;
}

Status Group::AllOk(const Status& local) {
  return Verdict(kOk, kOkVerdict, local, /*prefix_mine=*/false, "its part");
}

Status Group::AllReady(const Status& local) {
  return Verdict(kReady, kReadyVerdict, local, /*prefix_mine=*/true, "its connect phase");
}

void Group::MeasureOffsets(bool at_end) {
  const int64_t deadline = Deadline(timeout_nanos_);
  if (!coordinator()) {
    if (coordinator_lost_) return;
    for (int i = 0; i < kPings; ++i) {
      if (!ReceiveBy(0, kPing, deadline, kPreciseNapNanos)) {
        coordinator_lost_ = true;
        return;
      }
      WireWriter w;
      w.Int(WallNanos());
      t_->Send(0, kPong, w.bytes());
    }
    return;
  }
  for (int k = 1; k < size(); ++k) {
    if (lost_[static_cast<size_t>(k)]) continue;
    int64_t best_rtt = INT64_MAX, offset = 0;
    for (int i = 0; i < kPings; ++i) {
      const int64_t t1 = WallNanos();
      t_->Send(k, kPing, std::string());
      const std::optional<std::string> m = ReceiveBy(k, kPong, deadline, kPreciseNapNanos);
      const int64_t t2 = WallNanos();
      if (!m) {
        MarkLost(k, "stopped answering");
        break;
      }
      WireReader r(*m);
      const int64_t theirs = r.Int();
      if (t2 - t1 < best_rtt) {
        best_rtt = t2 - t1;
        offset = theirs - (t1 + (t2 - t1) / 2);
      }
    }
    if (best_rtt == INT64_MAX) continue;
    RankReport& rep = reports_[static_cast<size_t>(k)];
    const double off_ms = static_cast<double>(offset) / 1e6;
    const double unc_ms = static_cast<double>(best_rtt) / 2e6;
    if (at_end) {
      rep.offset_end_ms = off_ms;
      rep.uncertainty_end_ms = unc_ms;
      rep.offset_end_measured = true;
    } else {
      rep.offset_start_ms = off_ms;
      rep.uncertainty_start_ms = unc_ms;
    }
  }
}

void Group::StartTogether() {
  MeasureOffsets(/*at_end=*/false);
  Gather(kStart, std::string());
  Broadcast(kGo, std::string());
  // Read right after the barrier: the caller's Start follows within microseconds.
  start_wall_ = WallNanos();
  start_mono_ = MonoNanos();
}

bool Group::Agree(bool any, bool all) {
  WireWriter w;
  w.Int(any ? 1 : 0);
  w.Int(all ? 1 : 0);
  const auto votes = Gather(kVote, w.bytes());
  bool decision = any;
  if (coordinator()) {
    bool every = all;
    for (int k = 1; k < size(); ++k) {
      const auto& m = votes[static_cast<size_t>(k)];
      if (!m) continue;  // lost: decided below
      WireReader r(*m);
      decision = decision || r.Int() != 0;
      every = every && r.Int() != 0;
    }
    decision = decision || every || any_lost();
  }
  WireWriter d;
  d.Int(decision ? 1 : 0);
  const std::optional<std::string> answer = Broadcast(kDecision, d.bytes());
  if (!answer) return true;  // rank 0 is gone: end this rank's run
  return WireReader(*answer).Int() != 0;
}

void Group::Merge(driver::SnapshotPoint point,
                  std::vector<metrics::RecorderSnapshot>* per_instance) {
  WireWriter w;
  w.Double(driver::ProcessCpuSeconds());
  w.Snapshots(*per_instance);
  const auto all = Gather(kSnapshots, w.bytes());
  if (!coordinator()) return;
  for (int k = 0; k < size(); ++k) {
    const auto& m = all[static_cast<size_t>(k)];
    if (!m) continue;
    WireReader r(*m);
    const double cpu = r.Double();
    std::vector<metrics::RecorderSnapshot> snaps = r.Snapshots();
    if (!r.ok() || snaps.size() != per_instance->size()) {
      MarkLost(k, "sent snapshots rank 0 cannot merge (another plan?)");
      continue;
    }
    last_[static_cast<size_t>(k)] = std::move(snaps);
    cpu_last_[static_cast<size_t>(k)] = cpu;
  }
  // A lost rank keeps its last snapshots in the sum, so the merged counts never go backwards.
  std::vector<metrics::RecorderSnapshot> merged(per_instance->size());
  for (const auto& rank_snaps : last_) {
    if (rank_snaps.size() != merged.size()) continue;
    for (size_t i = 0; i < merged.size(); ++i) merged[i].Merge(rank_snaps[i]);
  }
  if (point == driver::SnapshotPoint::kReset) {
    at_reset_ = last_;
    cpu_at_reset_ = cpu_last_;
  }
  if (point == driver::SnapshotPoint::kEnd) {
    at_end_ = last_;
    cpu_at_end_ = cpu_last_;
  }
  *per_instance = std::move(merged);
}

std::vector<RankReport> Group::Finish(int64_t threads, const std::string& note) {
  MeasureOffsets(/*at_end=*/true);
  WireWriter w;
  w.Int(start_wall_);
  w.Int(threads);
  w.Str(note);
  const auto all = Gather(kReport, w.bytes());
  // Everyone learns whether a rank was lost: MPI_Finalize would wait for it forever.
  WireWriter lost;
  lost.Int(any_lost() ? 1 : 0);
  const std::optional<std::string> verdict = Broadcast(kDone, lost.bytes());
  if (!coordinator()) {
    if (!verdict || WireReader(*verdict).Int() != 0) peer_lost_ = true;
    return {};
  }
  for (int k = 0; k < size(); ++k) {
    RankReport& rep = reports_[static_cast<size_t>(k)];
    rep.host = Host(k);
    const auto& m = all[static_cast<size_t>(k)];
    if (m) {
      WireReader r(*m);
      const int64_t their_start = r.Int();
      rep.threads = r.Int();
      rep.note = r.Str();
      const double offset_nanos = rep.offset_start_ms * 1e6;
      rep.start_skew_ms = (static_cast<double>(their_start - start_wall_) - offset_nanos) / 1e6;
    }
    const auto& end = at_end_[static_cast<size_t>(k)].empty() ? last_[static_cast<size_t>(k)]
                                                              : at_end_[static_cast<size_t>(k)];
    const double cpu_end = at_end_[static_cast<size_t>(k)].empty()
                               ? cpu_last_[static_cast<size_t>(k)]
                               : cpu_at_end_[static_cast<size_t>(k)];
    rep.measured = MergeInstances(end);
    if (!at_end_[static_cast<size_t>(k)].empty()) {
      rep.after_end = MergeInstances(last_[static_cast<size_t>(k)]);
      if (!rep.after_end.types.empty()) rep.after_end.Subtract(rep.measured);
    }
    const metrics::RecorderSnapshot reset = MergeInstances(at_reset_[static_cast<size_t>(k)]);
    if (!reset.types.empty() && !rep.measured.types.empty()) rep.measured.Subtract(reset);
    rep.driver_cpu_sec = cpu_end - cpu_at_reset_[static_cast<size_t>(k)];
  }
  return reports_;
}

bool Group::any_lost() const {
  return coordinator_lost_ || peer_lost_ ||
         std::find(lost_.begin(), lost_.end(), true) != lost_.end();
}

std::string Group::LostSummary() const {
  std::string s;
  if (coordinator_lost_) s = "rank 0 (the coordinator) stopped answering";
  for (int k = 0; k < size(); ++k) {
    if (!lost_[static_cast<size_t>(k)]) continue;
    if (!s.empty()) s += "; ";
    s += "rank " + std::to_string(k) + " (host " + Host(k) + ") " +
         reports_[static_cast<size_t>(k)].lost_reason;
  }
  return s;
}

}  // namespace sb::dist
