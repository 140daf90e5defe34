#include "driver/server_check.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "base/call_deadline.h"

namespace sb::driver {
namespace {

constexpr int64_t kSettlePauseNanos = 250 * kNanosPerMilli;
constexpr int kSettleMaxReads = 20;  // 5 s
// A reading's queries take milliseconds; the settling rereads take at most 5 s. Past this the
// server is taken as not answering and the reading fails (driver/call_deadline.h).
constexpr int64_t kReadingDeadlineNanos = 30 * kNanosPerSecond;

// The reading's failure when its deadline ended it.
Status DeadlineStatus(const Status& s, const CallDeadline& deadline) {
  if (s.ok() || !deadline.fired()) return s;
  return Status::Db(ErrorCategory::kTimeout,
                    "the server did not answer the cross-check's reading within " +
                        std::to_string(kReadingDeadlineNanos / kNanosPerSecond) + " s");
}

// True when `a` and `b` hold the same row counters (meaning "rows_..."), which only the work
// being measured changes; the reader's own queries add commits and statements.
bool RowCountersEqual(const std::vector<db::ServerCounter>& a,
                      const std::vector<db::ServerCounter>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].meaning.rfind("rows_", 0) == 0 && a[i].value != b[i].value) return false;
  }
  return true;
}

}  // namespace

Status ServerCheck::Connect() {
  if (conn_) return Status::Ok();
  auto c = backend_.Connect();
  if (!c.ok()) return c.status();
  conn_ = std::move(c).value();
  return Status::Ok();
}

ServerReading ServerCheck::Start() {
  ServerReading r;
  r.statements_include_failed = backend_.capabilities().statement_counters_include_failed;
  r.status = Connect();
  if (!r.status.ok()) return r;
  CallDeadline deadline(conn_->Interrupter(), kReadingDeadlineNanos);
  auto probe = workload_.Snapshot(*conn_);
  auto counters = conn_->ServerCounters();
  if (!probe.ok()) {
    r.status = DeadlineStatus(probe.status(), deadline);
  } else if (!counters.ok()) {
    r.status = DeadlineStatus(counters.status(), deadline);
  } else {
    r.probe = std::move(probe).value();
    r.counters = std::move(counters).value();
  }
  return r;
}

ServerReading ServerCheck::End(bool* settled) {
  *settled = true;
  ServerReading r;
  r.statements_include_failed = backend_.capabilities().statement_counters_include_failed;
  // The start reading's connection may have been lost with a restarted server: use a new one.
  r.status = Connect();
  if (!r.status.ok()) return r;
  auto deadline = std::make_unique<CallDeadline>(conn_->Interrupter(), kReadingDeadlineNanos);
  auto counters = conn_->ServerCounters();
  if (!counters.ok() && !deadline->fired()) {
    deadline.reset();
    conn_.reset();
    r.status = Connect();
    if (!r.status.ok()) return r;
    deadline = std::make_unique<CallDeadline>(conn_->Interrupter(), kReadingDeadlineNanos);
    counters = conn_->ServerCounters();
  }
  if (counters.ok() && backend_.capabilities().server_counters_lag) {
    *settled = false;
    for (int i = 0; i < kSettleMaxReads && counters.ok(); ++i) {
      clock_.SleepFor(kSettlePauseNanos);
      auto again = conn_->ServerCounters();
      if (!again.ok()) {
        counters = std::move(again);
        break;
      }
      const bool same = RowCountersEqual(*counters, *again);
      counters = std::move(again);
      if (same) {
        *settled = true;
        break;
      }
    }
  }
  if (!counters.ok()) {
    r.status = DeadlineStatus(counters.status(), *deadline);
    return r;
  }
  r.counters = std::move(counters).value();
  auto probe = workload_.Snapshot(*conn_);
  if (!probe.ok()) {
    r.status = DeadlineStatus(probe.status(), *deadline);
    return r;
  }
  r.probe = std::move(probe).value();
  return r;
}

metrics::ServerCheckResult CompareReadings(const workload::Workload& workload,
                                           const ServerReading& start, const ServerReading& end,
                                           const workload::Totals& span, bool start_exact,
                                           std::vector<std::string>* warnings, double seconds,
                                           std::vector<std::pair<std::string, double>>* figures) {
  metrics::ServerCheckResult out;
  out.start_exact = start_exact;
  out.client_units = span.types.empty() ? 0 : span.types[0].count;
  if (!start.status.ok() || !end.status.ok()) {
    out.present = true;
    out.error = !start.status.ok() ? "start reading: " + start.status.message()
                                   : "end reading: " + end.status.message();
    warnings->push_back("server cross-check not done: " + out.error);
    return out;
  }
  out.present = !start.probe.empty() || !start.counters.empty();
  workload::ServerView view;
  view.statements_include_failed = end.statements_include_failed;
  for (const auto& [name, before] : start.probe) {
    auto it = end.probe.find(name);
    if (it == end.probe.end()) continue;
    out.probe.push_back({name, "", before, it->second, ""});
    view.probe_delta[name] = it->second - before;
  }
  // A counter that went backwards was reset: the server restarted during the run (MariaDB's
  // global status and PostgreSQL's statistics start again from zero). Its counters then say
  // nothing about the span; only the tables' row counts (the probe) still do.
  // Statement counts (PostgreSQL's pg_stat_statements) also shrink without a restart, when the
  // extension evicts entries to make room: then only they are left out. An evictions counter
  // with a source (MariaDB's digest table overflowing) leaves out the counters of its source
  // instead, whatever their meanings.
  auto is_statements = [](const std::string& meaning) {
    return meaning.rfind("statements.", 0) == 0;
  };
  std::string went_back, statements_lost, lost_source;
  for (const auto& b : start.counters) {
    for (const auto& a : end.counters) {
      if (a.name != b.name) continue;
      const std::string change =
          b.name + " " + std::to_string(b.value) + " -> " + std::to_string(a.value);
      const bool evicted = b.meaning == "statement_evictions" && a.value > b.value;
      const bool own_source = evicted && !b.source.empty();
      if (a.value < b.value && !is_statements(b.meaning) && went_back.empty()) went_back = change;
      if ((evicted || (is_statements(b.meaning) && a.value < b.value)) && statements_lost.empty()) {
        statements_lost = change;
        if (own_source) lost_source = b.source;
      }
    }
  }
  auto lost = [&](const db::ServerCounter& c) {
    if (statements_lost.empty()) return false;
    return lost_source.empty() ? is_statements(c.meaning) : c.source == lost_source;
  };
  auto compared = [&](const db::ServerCounter& c) {
    if (!c.replaced_by.empty() && c.replaced_by != lost_source) return false;
    return !c.meaning.empty() && went_back.empty() && !lost(c);
  };
  for (const auto& b : start.counters) {
    for (const auto& a : end.counters) {
      if (a.name != b.name) continue;
      out.server_counters.push_back({b.name, b.meaning, b.value, a.value, b.source});
      if (compared(b)) view.counter_delta[b.meaning] = a.value - b.value;
    }
  }
  // A statement kind the server had not run before the span has no row at its start
  // (pg_stat_statements lists only statements it has seen): it starts from 0.
  for (const auto& a : end.counters) {
    if (a.meaning.rfind("statements.", 0) != 0) continue;
    const bool at_start = std::any_of(start.counters.begin(), start.counters.end(),
                                      [&](const db::ServerCounter& b) { return b.name == a.name; });
    if (at_start) continue;
    out.server_counters.push_back({a.name, a.meaning, 0, a.value, a.source});
    if (compared(a)) view.counter_delta[a.meaning] = a.value;
  }
  // A source with replacements lost nothing the check needs: the counters it stood in for are
  // compared instead.
  if (went_back.empty() && !statements_lost.empty() && lost_source.empty()) {
    warnings->push_back(
        "server cross-check: the server's statement statistics lost entries during the run (" +
        statements_lost +
        "; pg_stat_statements evicts its least-used statements when it is full, "
        "pg_stat_statements.max), so statement counts are not compared with the client's; "
        "the other counters and the tables' row counts still are");
  }
  if (!went_back.empty()) {
    warnings->push_back(
        "server cross-check: the server's counters went backwards during the run (" + went_back +
        "): the server restarted and its counters were reset, so they are not "
        "compared with the client's; the tables' row counts still are");
  }
  // Server-wide counters (MariaDB's global status) hold every client's work: when other
  // sessions worked during the span, the comparisons that read them say so instead of
  // comparing (the workload's comparisons without those counters tell which ones do).
  int64_t others = 0;
  for (const auto& a : end.counters) {
    if (a.meaning == "other_sessions") others += a.value;
  }
  for (const auto& r : out.server_counters) {
    if (r.meaning == "connections" && r.delta() > 0) others += r.delta();
  }
  workload::ServerView local = view;
  for (const auto& a : end.counters) {
    if (a.server_wide && compared(a)) local.counter_delta.erase(a.meaning);
  }
  std::vector<std::string> local_names;
  if (others > 0) {
    for (const auto& c : workload.CompareWithServer(span, local)) local_names.push_back(c.name);
  }
  for (const auto& c : workload.CompareWithServer(span, view)) {
    metrics::ServerCheckResult::Comparison m;
    if (others > 0 &&
        std::find(local_names.begin(), local_names.end(), c.name) == local_names.end()) {
      m.name = c.name;
      m.client = c.client;
      m.server = c.server;
      m.relation = "not compared";
      m.passed = true;
      m.detail =
          "other sessions were active: not compared (the server counts every client's "
          "work together; " +
          c.detail + ")";
      out.comparisons.push_back(std::move(m));
      continue;
    }
    m.name = c.name;
    m.client = c.client;
    m.server = c.server;
    m.relation = c.exact ? "==" : ">=";
    m.passed =
        c.exact ? c.server >= c.client && c.server <= c.client + c.in_doubt : c.server >= c.client;
    m.detail = c.detail;
    if (c.in_doubt > 0) {
      m.detail += "; " + std::to_string(c.in_doubt) +
                  " commits in doubt (the connection was lost at COMMIT) may each count on the "
                  "server";
    }
    if (!m.passed) {
      warnings->push_back("server cross-check " + m.name + ": the client counted " +
                          std::to_string(m.client) + ", the database " + std::to_string(m.server) +
                          " (" + m.detail + ")" +
                          (start_exact ? ""
                                       : "; units in flight at the start reading can "
                                         "account for a difference"));
    }
    out.comparisons.push_back(std::move(m));
  }
  if (figures != nullptr) {
    for (auto& f : workload.ServerFigures(span, others > 0 ? local : view, seconds)) {
      figures->push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace sb::driver
