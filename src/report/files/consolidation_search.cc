#include "report/files/consolidation_search.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "base/output_file.h"

namespace sb::report {

namespace {
using Json = nlohmann::ordered_json;

// A figure the run may lack: null in the file.
Json Figure(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

double FigureFrom(const Json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return SearchWindow::kNone;
  return j[key].get<double>();
}

Json WindowToJson(const SearchWindow& w) {
  Json instances = Json::array();
  for (size_t i = 0; i < w.instances.size(); ++i) {
    instances.push_back({{"name", i < w.instance_names.size() ? w.instance_names[i] : ""},
                         {"value", Figure(w.instances[i])}});
  }
  return {{"label", w.label},
          {"instances", std::move(instances)},
          {"aggregate", Figure(w.aggregate)},
          {"host_cpu_pct", Figure(w.host_cpu_pct)},
          {"avg_power_w", Figure(w.power_w)},
          {"per_watt", Figure(w.per_watt)}};
}

SearchWindow WindowFromJson(const Json& j) {
  SearchWindow w;
  w.label = j.value("label", "");
  for (const auto& ij : j.value("instances", Json::array())) {
    w.instance_names.push_back(ij.value("name", ""));
    w.instances.push_back(FigureFrom(ij, "value"));
  }
  w.aggregate = FigureFrom(j, "aggregate");
  w.host_cpu_pct = FigureFrom(j, "host_cpu_pct");
  w.power_w = FigureFrom(j, "avg_power_w");
  w.per_watt = FigureFrom(j, "per_watt");
  return w;
}

Json RunToJson(const SearchRun& r) {
  Json j = {{"result_file", r.result_file},
            {"exit_code", r.exit_code},
            {"passed", r.passed},
            {"deciding_figure", r.deciding},
            {"instance_min", r.instance_min},
            {"instance_median", r.instance_median},
            {"aggregate", r.aggregate},
            {"deciding_window", WindowToJson(r.window)}};
  if (!r.run_class.empty()) {
    j["class"] = r.run_class;
    j["class_reason"] = r.class_reason;
  }
  return j;
}

SearchRun RunFromJson(const Json& rj) {
  SearchRun r;
  r.result_file = rj.value("result_file", "");
  r.exit_code = rj.value("exit_code", 0);
  r.passed = rj.value("passed", false);
  r.deciding = rj.value("deciding_figure", 0.0);
  r.instance_min = rj.value("instance_min", 0.0);
  r.instance_median = rj.value("instance_median", 0.0);
  r.aggregate = rj.value("aggregate", 0.0);
  if (rj.contains("deciding_window")) r.window = WindowFromJson(rj["deciding_window"]);
  r.run_class = rj.value("class", "");
  r.class_reason = rj.value("class_reason", "");
  r.run_no = rj.value("run", 0);
  return r;
}

}  // namespace

int SearchCount::runs_passed() const {
  return static_cast<int>(
      std::count_if(runs.begin(), runs.end(), [](const SearchRun& r) { return r.passed; }));
}

std::string SearchToJson(const Search& s) {
  Json j;
  j["kind"] = kSearchKind;
  j["plan"] = s.plan;
  j["step"] = s.step;
  j["instances"] = {{"from", s.from}, {"to", s.to}};
  j["runs_per_count"] = s.runs;
  j["rerun_faults"] = s.rerun_faults;
  j["headline"] = s.headline;
  j["finished"] = s.finished;
  j["peak"] = s.peak;
  Json counts = Json::array();
  for (const SearchCount& c : s.counts) {
    Json cj;
    cj["count"] = c.count;
    cj["passed"] = c.passed;
    cj["median_run"] = c.median_run;
    cj["runs_passed"] = c.runs_passed();
    Json runs = Json::array();
    for (const SearchRun& r : c.runs) runs.push_back(RunToJson(r));
    // The median run's row of the report table (its figures in the deciding window); written
    // for the reader, derived from the runs when read back.
    if (c.median_run >= 0 && c.median_run < static_cast<int>(c.runs.size())) {
      Json row = WindowToJson(c.runs[c.median_run].window);
      row["runs_passed"] = c.runs_passed();
      row["runs"] = c.runs.size();
      cj["median_run_window"] = std::move(row);
    }
    cj["runs"] = std::move(runs);
    if (!c.set_aside.empty()) {
      Json aside = Json::array();
      for (const SearchRun& r : c.set_aside) {
        Json rj = RunToJson(r);
        rj["run"] = r.run_no;
        aside.push_back(std::move(rj));
      }
      cj["set_aside"] = std::move(aside);
    }
    counts.push_back(std::move(cj));
  }
  j["counts"] = std::move(counts);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<Search> SearchFromJson(const std::string& text, const std::string& path) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("kind") || !j["kind"].is_string() ||
      j["kind"].get<std::string>() != kSearchKind) {
    return Status::InvalidArgument("'" + path + "' is not a storebench consolidation search file");
  }
  // value() throws on a key of the wrong type: every such file is refused with one message.
  try {
    Search s;
    s.plan = j.value("plan", "");
    s.step = j.value("step", "linear");
    const Json instances = j.value("instances", Json::object());
    s.from = instances.value("from", 1);
    s.to = instances.value("to", 1);
    s.runs = j.value("runs_per_count", 3);
    s.rerun_faults = j.value("rerun_faults", 0);
    s.headline = j.value("headline", "");
    s.finished = j.value("finished", false);
    s.peak = j.value("peak", 0);
    for (const auto& cj : j.value("counts", Json::array())) {
      SearchCount c;
      c.count = cj.value("count", 0);
      c.passed = cj.value("passed", false);
      c.median_run = cj.value("median_run", -1);
      for (const auto& rj : cj.value("runs", Json::array())) c.runs.push_back(RunFromJson(rj));
      for (const auto& rj : cj.value("set_aside", Json::array())) {
        c.set_aside.push_back(RunFromJson(rj));
      }
      if (c.median_run >= static_cast<int>(c.runs.size())) {
        return Status::InvalidArgument("'" + path + "': count " + std::to_string(c.count) +
                                       " names a median run it does not have");
      }
      s.counts.push_back(std::move(c));
    }
    return s;
  } catch (const Json::exception& e) {
    return Status::InvalidArgument("'" + path +
                                   "' is a damaged consolidation search file: " + e.what());
  }
}

Status WriteSearchFile(const Search& s, const std::string& path) {
  // Whole or not at all (a full disk left a 0-byte search file and exit 0): --resume reads it.
  return WriteOutputFile(path, SearchToJson(s), "the search file");
}

}  // namespace sb::report
