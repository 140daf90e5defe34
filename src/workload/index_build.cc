#include "workload/index_build.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace sb::workload {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The words of a statement, split at white space, '(', ',' and ';': lower-cased in *lower, as
// written in *raw.
void Words(std::string_view text, std::vector<std::string>* lower,
           std::vector<std::string>* raw = nullptr) {
  std::string cur;
  auto flush = [&] {
    if (cur.empty()) return;
    lower->push_back(Lower(cur));
    if (raw != nullptr) raw->push_back(cur);
    cur.clear();
  };
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == ',' || c == ';') {
      flush();
    } else {
      cur += c;
    }
  }
  flush();
}

// The table a whole statement works on, as spelled there ("" when it is neither "CREATE
// [UNIQUE|FULLTEXT] INDEX name ON table", "ALTER TABLE table" nor a VACUUM or ANALYZE of one
// table); the names of the indexes and constraints it adds are appended to *names, the tables it
// references (lower-cased) to *references; *phase: when it may run (IndexScript::Step::Phase);
// *create_index: a CREATE INDEX statement.
std::string TableOf(std::string_view statement, std::vector<std::string>* names,
                    std::vector<std::string>* references, IndexScript::Step::Phase* phase,
                    bool* create_index) {
  using Phase = IndexScript::Step::Phase;
  std::vector<std::string> w, raw;
  Words(statement, &w, &raw);
  *phase = Phase::kIndexes;
  *create_index = false;
  if (!w.empty() && (w[0] == "vacuum" || w[0] == "analyze")) {
    // VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] t, ANALYZE [VERBOSE] t: one table named.
    std::vector<size_t> rest;
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] != "analyze" && w[i] != "verbose" && w[i] != "full" && w[i] != "freeze") {
        rest.push_back(i);
      }
    }
    if (rest.size() != 1 || w[rest[0]] == "table") return "";
    names->push_back("statistics");
    *phase = Phase::kStatistics;
    return raw[rest[0]];
  }
  if (w.size() >= 3 && w[0] == "alter" && w[1] == "table") {
    // ADD [UNIQUE|FULLTEXT|SPATIAL] {INDEX|KEY} name, ADD PRIMARY KEY, ADD CONSTRAINT name
    bool index = false, foreign = false, using_index = false;
    for (size_t i = 3; i + 1 < w.size(); ++i) {
      if (w[i] == "foreign") foreign = true;
      if (w[i] == "references") references->push_back(w[i + 1]);
      // ADD CONSTRAINT name PRIMARY KEY USING INDEX existing_index builds nothing (but "USING
      // INDEX TABLESPACE" only says where a new index goes).
      if (w[i] == "using" && w[i + 1] == "index" &&
          (i + 2 >= w.size() || w[i + 2] != "tablespace")) {
        using_index = true;
      }
      if (w[i] != "add") continue;
      size_t j = i + 1;
      if (w[j] == "primary") {
        names->push_back("primary key");
        index = true;
        continue;
      }
      if (w[j] == "unique" || w[j] == "fulltext" || w[j] == "spatial") ++j;
      if (j + 1 >= w.size()) continue;
      if (w[j] == "index" || w[j] == "key") index = true;
      if (w[j] == "index" || w[j] == "key" || w[j] == "constraint") names->push_back(raw[j + 1]);
      // ADD CONSTRAINT name PRIMARY KEY / UNIQUE builds an index too.
      if (w[j] == "constraint" && j + 2 < w.size() &&
          (w[j + 2] == "primary" || w[j + 2] == "unique")) {
        index = true;
      }
    }
    if (index && using_index) index = false;
    if (!index) *phase = foreign ? Phase::kForeignKeys : using_index ? Phase::kKeys : *phase;
    return raw[2];
  }
  if (w.size() < 5 || w[0] != "create") return "";
  size_t i = 1;
  if (w[i] == "unique" || w[i] == "fulltext") ++i;
  if (w[i] != "index") return "";
  ++i;
  if (i + 2 < w.size() && w[i + 1] == "on") {
    names->push_back(raw[i]);
    *create_index = true;
    return raw[i + 2];
  }
  return "";
}

bool StartsRestOfScript(std::string_view line) {
  std::vector<std::string> w;
  Words(line, &w);
  if (w.empty()) return false;
  if (w[0] == "delimiter") return true;
  if (w[0] != "create") return false;
  for (size_t i = 1; i < w.size() && i < 5; ++i) {
    if (w[i] == "function" || w[i] == "procedure" || w[i] == "trigger") return true;
  }
  return false;
}

}  // namespace

IndexScript SplitIndexScript(std::string_view sql, bool step_per_create_index) {
  IndexScript out;
  std::map<std::string, size_t> step_of;  // lower-cased table and phase -> index in out.steps
  bool seen_other = false;
  bool to_rest = false;  // from a function/trigger on, everything is rest
  std::string current;   // the statement being collected, up to a line ending in ';'
  auto finish = [&] {
    std::vector<std::string> names, references;
    IndexScript::Step::Phase phase = IndexScript::Step::Phase::kIndexes;
    bool create_index = false;
    const std::string table = TableOf(current, &names, &references, &phase, &create_index);
    if (!table.empty()) {
      seen_other = true;
      size_t at = out.steps.size();
      if (step_per_create_index && create_index) {
        out.steps.push_back({table, {}, {}, phase});
      } else {
        auto [it, added] = step_of.emplace(
            Lower(table) + " " + std::to_string(static_cast<int>(phase)), out.steps.size());
        if (added) out.steps.push_back({table, {}, {}, phase});
        at = it->second;
      }
      IndexScript::Step& step = out.steps[at];
      step.statements.push_back(current);
      step.index_names.insert(step.index_names.end(), names.begin(), names.end());
      for (auto& r : references) {
        if (std::find(step.references.begin(), step.references.end(), r) == step.references.end()) {
          step.references.push_back(std::move(r));
        }
      }
    } else {
      std::vector<std::string> w;
      Words(current, &w);
      if (!seen_other && !w.empty() && w[0] == "set") {
        out.session.emplace_back(Trim(current));
      } else {
        seen_other = true;
        out.rest += current;
      }
    }
    current.clear();
  };
  size_t pos = 0;
  while (pos < sql.size()) {
    size_t end = sql.find('\n', pos);
    if (end == std::string_view::npos) end = sql.size();
    const std::string_view line = sql.substr(pos, end - pos);
    pos = end + 1;
    const std::string_view t = Trim(line);
    if (!to_rest && current.empty()) {
      if (t.empty() || t.substr(0, 2) == "--") continue;
      to_rest = StartsRestOfScript(t);
    }
    if (to_rest) {
      out.rest.append(line);
      out.rest += '\n';
      continue;
    }
    current.append(line);
    current += '\n';
    if (!t.empty() && t.back() == ';') finish();
  }
  if (!current.empty()) finish();
  return out;
}

std::string SessionSettingsText(std::string_view sql) {
  std::string out;
  size_t pos = 0;
  while (pos < sql.size()) {
    size_t end = sql.find('\n', pos);
    if (end == std::string_view::npos) end = sql.size();
    std::string_view t = Trim(sql.substr(pos, end - pos));
    pos = end + 1;
    if (t.empty() || t.substr(0, 2) == "--") continue;
    if (t.back() == ';') t.remove_suffix(1);
    if (t.size() > 4 && Lower(t.substr(0, 4)) == "set ") t.remove_prefix(4);
    if (!out.empty()) out += ", ";
    out.append(Trim(t));
  }
  return out;
}

bool WaitsFor(const IndexScript::Step& later, int64_t later_rows, const IndexScript::Step& earlier,
              int64_t earlier_rows) {
  using Phase = IndexScript::Step::Phase;
  const std::string table = Lower(earlier.table);
  const bool referenced =
      later.phase == Phase::kForeignKeys &&
      std::find(later.references.begin(), later.references.end(), table) != later.references.end();
  if (earlier.phase == Phase::kForeignKeys && later.phase == Phase::kForeignKeys) {
    // Both lock the referenced table: its own (smaller) check first, not queued behind ours.
    return referenced && earlier_rows < later_rows && table != Lower(later.table);
  }
  if (earlier.phase >= later.phase) return false;
  return referenced || table == Lower(later.table);
}

std::vector<size_t> IndexStepPriority(const std::vector<const IndexScript::Step*>& steps,
                                      const std::vector<int64_t>& weights) {
  // A step waits only for steps of earlier phases, or for a foreign key of a smaller table: from
  // the last phase back, each step's priority is final before the steps it waits for take it
  // over.
  std::vector<int64_t> priority = weights;
  std::vector<size_t> by_phase(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) by_phase[i] = i;
  // Foreign-key steps wait for each other only from more rows to fewer: within a phase, more
  // rows first.
  std::stable_sort(by_phase.begin(), by_phase.end(), [&](size_t a, size_t b) {
    if (steps[a]->phase != steps[b]->phase) return steps[a]->phase > steps[b]->phase;
    return weights[a] > weights[b];
  });
  for (size_t later : by_phase) {
    for (size_t earlier = 0; earlier < steps.size(); ++earlier) {
      if (WaitsFor(*steps[later], weights[later], *steps[earlier], weights[earlier])) {
        priority[earlier] = std::max(priority[earlier], priority[later]);
      }
    }
  }
  std::vector<size_t> order(steps.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (priority[a] != priority[b]) return priority[a] > priority[b];
    if (weights[a] != weights[b]) return weights[a] > weights[b];
    return steps[a]->phase < steps[b]->phase;
  });
  return order;
}

IndexStepSchedule::IndexStepSchedule(std::vector<const IndexScript::Step*> steps,
                                     std::vector<int64_t> rows)
    : steps_(std::move(steps)), rows_(std::move(rows)), state_(steps_.size(), State::kWaiting) {
  rows_.resize(steps_.size(), 0);
  for (const auto* step : steps_) {
    std::vector<std::string> tables{Lower(step->table)};
    tables.insert(tables.end(), step->references.begin(), step->references.end());
    tables_.push_back(std::move(tables));
  }
}

bool IndexStepSchedule::MayStart(size_t i) const {
  using Phase = IndexScript::Step::Phase;
  if (state_[i] != State::kWaiting) return false;
  const std::vector<std::string>& mine = tables_[i];
  for (size_t j = 0; j < steps_.size(); ++j) {
    if (j == i || state_[j] == State::kDone) continue;
    if (WaitsFor(*steps_[i], rows_[i], *steps_[j], rows_[j])) return false;
    if (state_[j] != State::kRunning) continue;
    if (steps_[i]->phase == Phase::kIndexes && steps_[j]->phase == Phase::kIndexes) continue;
    for (const auto& t : tables_[j]) {
      if (std::find(mine.begin(), mine.end(), t) != mine.end()) return false;
    }
  }
  return true;
}

int IndexStepSchedule::Next() const {
  for (size_t i = 0; i < steps_.size(); ++i) {
    if (MayStart(i)) return static_cast<int>(i);
  }
  return -1;
}

bool IndexStepSchedule::AllDone() const {
  return std::all_of(state_.begin(), state_.end(), [](State s) { return s == State::kDone; });
}

namespace {

std::string StepLabel(const IndexScript::Step& step) {
  std::string label = step.table;
  if (!step.index_names.empty()) {
    label += ":";
    for (size_t i = 0; i < step.index_names.size(); ++i) {
      label += (i ? ", " : " ") + step.index_names[i];
    }
  }
  return label;
}

struct Planned {
  const IndexScript::Step* step;
  int64_t weight;
  int meter_step;
};

// Runs one step on *conn, connecting first when it is null (with the script's and the options'
// session settings).
Status RunStep(db::DbBackend& backend, const IndexScript& script, const IndexBuildOptions& options,
               const LoadContext& ctx, const Planned& p, std::unique_ptr<db::Connection>& conn) {
  if (conn == nullptr) {
    auto made = backend.Connect();
    if (!made.ok()) return made.status();
    conn = std::move(made).value();
    for (const auto& s : script.session) SB_RETURN_IF_ERROR(conn->ExecuteScript(s));
    if (!options.session_sql.empty()) SB_RETURN_IF_ERROR(conn->ExecuteScript(options.session_sql));
  }
  if (ctx.meter != nullptr) ctx.meter->IndexStepStarted(p.meter_step);
  for (const auto& stmt : p.step->statements) {
    if (ctx.stop_requested()) return LoadContext::Stopped();
    SB_RETURN_IF_ERROR(conn->ExecuteScript(stmt));
  }
  if (ctx.meter != nullptr) ctx.meter->IndexStepDone(p.meter_step);
  return Status::Ok();
}

}  // namespace

Status BuildIndexes(db::DbBackend& backend, const IndexScript& script,
                    const IndexBuildOptions& options, const LoadContext& ctx) {
  // Rows per table, from what the loader metered: heavier steps start first.
  std::map<std::string, int64_t> rows;
  if (ctx.meter != nullptr) {
    for (const auto& t : ctx.meter->Read()) rows[Lower(t.name)] = t.rows;
  }
  std::vector<Planned> plan;
  for (const auto& step : script.steps) {
    auto it = rows.find(Lower(step.table));
    plan.push_back({&step, it == rows.end() ? 1 : std::max<int64_t>(1, it->second), -1});
  }
  {
    std::vector<const IndexScript::Step*> steps;
    std::vector<int64_t> weights;
    for (const auto& p : plan) {
      steps.push_back(p.step);
      weights.push_back(p.weight);
    }
    std::vector<Planned> ordered;
    for (size_t i : IndexStepPriority(steps, weights)) ordered.push_back(plan[i]);
    plan = std::move(ordered);
  }
  const bool has_rest = !Trim(script.rest).empty();
  int rest_step = -1;
  if (ctx.meter != nullptr) {
    for (auto& p : plan) p.meter_step = ctx.meter->ExpectIndexStep(StepLabel(*p.step), p.weight);
    // The rest (triggers, full-text, sequences) costs about as much as a small table.
    if (has_rest) rest_step = ctx.meter->ExpectIndexStep("triggers and the rest", 1);
  }

  int threads = std::max(1, options.threads);
  if (!backend.capabilities().concurrent_writers) threads = 1;
  threads = static_cast<int>(std::min<size_t>(threads, plan.size()));

  std::vector<const IndexScript::Step*> ordered;
  std::vector<int64_t> ordered_rows;
  for (const auto& p : plan) {
    ordered.push_back(p.step);
    ordered_rows.push_back(p.weight);
  }
  IndexStepSchedule schedule(std::move(ordered), std::move(ordered_rows));
  std::mutex mu;
  std::condition_variable changed;
  int running = 0;
  Status first_error;
  bool failed = false;
  auto fail = [&](const Status& s) {
    std::lock_guard lock(mu);
    if (first_error.ok()) first_error = s;
    failed = true;
    changed.notify_all();
  };
  auto worker = [&] {
    std::unique_ptr<db::Connection> conn;
    std::unique_lock lock(mu);
    for (;;) {
      int i = -1;
      changed.wait(lock, [&] {
        if (failed || schedule.AllDone()) return true;
        i = schedule.Next();
        return i >= 0 || running == 0;
      });
      if (failed || schedule.AllDone()) return;
      if (i < 0) {
        // Nothing runs and nothing may start: cannot happen (a step waits only for steps of
        // earlier phases), but never wait for ever.
        lock.unlock();
        return fail(Status::Internal("index phase: no step may start"));
      }
      schedule.Start(i);
      ++running;
      lock.unlock();
      Status st = RunStep(backend, script, options, ctx, plan[i], conn);
      lock.lock();
      --running;
      if (!st.ok()) {
        lock.unlock();
        return fail(st);
      }
      schedule.Done(i);
      changed.notify_all();
    }
  };
  {
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
    if (threads > 0) worker();
    for (auto& t : pool) t.join();
  }
  if (failed) return first_error;
  if (!has_rest) return Status::Ok();
  if (ctx.stop_requested()) return LoadContext::Stopped();
  auto conn = backend.Connect();
  if (!conn.ok()) return conn.status();
  if (ctx.meter != nullptr) ctx.meter->IndexStepStarted(rest_step);
  std::string all;
  for (const auto& s : script.session) all += s + "\n";
  SB_RETURN_IF_ERROR((*conn)->ExecuteScript(all + script.rest));
  if (ctx.meter != nullptr) ctx.meter->IndexStepDone(rest_step);
  return Status::Ok();
}

}  // namespace sb::workload
