#include "workload/index_build.h"

#include <algorithm>
#include <atomic>
#include <cctype>
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
// [UNIQUE|FULLTEXT] INDEX name ON table" nor "ALTER TABLE table"); the names of the indexes and
// constraints it adds are appended to *names; *phase: when it may run (IndexScript::Step::Phase);
// *create_index: a CREATE INDEX statement.
std::string TableOf(std::string_view statement, std::vector<std::string>* names,
                    IndexScript::Step::Phase* phase, bool* create_index) {
  using Phase = IndexScript::Step::Phase;
  std::vector<std::string> w, raw;
  Words(statement, &w, &raw);
  *phase = Phase::kIndexes;
  *create_index = false;
  if (w.size() >= 3 && w[0] == "alter" && w[1] == "table") {
    // ADD [UNIQUE|FULLTEXT|SPATIAL] {INDEX|KEY} name, ADD PRIMARY KEY, ADD CONSTRAINT name
    bool index = false, foreign = false, using_index = false;
    for (size_t i = 3; i + 1 < w.size(); ++i) {
      if (w[i] == "foreign") foreign = true;
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
    std::vector<std::string> names;
    IndexScript::Step::Phase phase = IndexScript::Step::Phase::kIndexes;
    bool create_index = false;
    const std::string table = TableOf(current, &names, &phase, &create_index);
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

}  // namespace

Status BuildIndexes(db::DbBackend& backend, const IndexScript& script,
                    const IndexBuildOptions& options, const LoadContext& ctx) {
  // Rows per table, from what the loader metered: heavier steps start first.
  std::map<std::string, int64_t> rows;
  if (ctx.meter != nullptr) {
    for (const auto& t : ctx.meter->Read()) rows[Lower(t.name)] = t.rows;
  }
  struct Planned {
    const IndexScript::Step* step;
    int64_t weight;
    int meter_step;
  };
  std::vector<Planned> plan;
  for (const auto& step : script.steps) {
    auto it = rows.find(Lower(step.table));
    plan.push_back({&step, it == rows.end() ? 1 : std::max<int64_t>(1, it->second), -1});
  }
  // Phase by phase (a foreign key's referenced table must have its primary key, and the check
  // reads the referencing table once its indexes are in), heaviest first within each.
  std::stable_sort(plan.begin(), plan.end(), [](const Planned& a, const Planned& b) {
    if (a.step->phase != b.step->phase) return a.step->phase < b.step->phase;
    return a.weight > b.weight;
  });
  const bool has_rest = !Trim(script.rest).empty();
  int rest_step = -1;
  if (ctx.meter != nullptr) {
    for (auto& p : plan) p.meter_step = ctx.meter->ExpectIndexStep(StepLabel(*p.step), p.weight);
    // The rest (triggers, full-text, sequences) costs about as much as a small table.
    if (has_rest) rest_step = ctx.meter->ExpectIndexStep("triggers and the rest", 1);
  }

  int threads = std::max(1, options.threads);
  if (!backend.capabilities().concurrent_writers) threads = 1;

  std::mutex mu;
  Status first_error;
  std::atomic<bool> failed{false};
  std::atomic<size_t> next{0};
  size_t wave_end = 0;
  auto fail = [&](const Status& s) {
    std::lock_guard lock(mu);
    if (first_error.ok()) first_error = s;
    failed = true;
  };
  auto worker = [&] {
    std::unique_ptr<db::Connection> conn;
    for (size_t i = next++; i < wave_end && !failed; i = next++) {
      if (conn == nullptr) {
        auto made = backend.Connect();
        if (!made.ok()) return fail(made.status());
        conn = std::move(made).value();
        for (const auto& s : script.session) {
          if (Status st = conn->ExecuteScript(s); !st.ok()) return fail(st);
        }
        if (!options.session_sql.empty()) {
          if (Status st = conn->ExecuteScript(options.session_sql); !st.ok()) return fail(st);
        }
      }
      const Planned& p = plan[i];
      if (ctx.meter != nullptr) ctx.meter->IndexStepStarted(p.meter_step);
      for (const auto& stmt : p.step->statements) {
        if (ctx.stop_requested()) return fail(LoadContext::Stopped());
        if (Status st = conn->ExecuteScript(stmt); !st.ok()) return fail(st);
      }
      if (ctx.meter != nullptr) ctx.meter->IndexStepDone(p.meter_step);
    }
  };
  for (size_t begin = 0, end = 0; begin < plan.size(); begin = end) {
    end = begin;
    while (end < plan.size() && plan[end].step->phase == plan[begin].step->phase) ++end;
    next = begin;
    wave_end = end;
    const int wave_threads = static_cast<int>(std::min<size_t>(threads, end - begin));
    std::vector<std::thread> pool;
    for (int i = 1; i < wave_threads; ++i) pool.emplace_back(worker);
    if (wave_threads > 0) worker();
    for (auto& t : pool) t.join();
    if (failed) return first_error;
  }
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
