// The full disclosure of one result file at the end of the report: its identity, its
// configuration as it ran, its environment, its choices and its instances (docs/report.md).
#include <nlohmann/json.hpp>

#include "report/files/json_report.h"
#include "report/html/html_parts.h"

namespace sb::report::html {

namespace {

// A storage run: each access specification as it ran (the result's storage[] records it), and
// the configuration's settings that a preset or ICF file decided put right where all
// specifications agree — files written before the configuration recorded them give the
// options' defaults (outstanding 1 for a 64-deep run).
std::string StorageAsRan(const metrics::RunResult& r, nlohmann::json* config) {
  if (r.storage.empty()) return "";
  Table t("disclosure-storage", {"specification", "engine", "workers", "outstanding per target",
                                 "submit batch", "direct", "targets", "ramp s", "measured s"});
  bool same = true;
  for (const metrics::StorageTest& s : r.storage) {
    t.Row({Text(s.name), Text(s.engine), Int(s.workers), Int(s.outstanding), Int(s.submit_batch),
           Text(s.direct ? "yes" : "no"), Int(static_cast<int64_t>(s.targets.size())),
           Num(s.ramp_sec), Num(s.measured_sec)});
    same = same && s.workers == r.storage[0].workers && s.outstanding == r.storage[0].outstanding;
  }
  std::string corrected;
  if (same && config->is_object()) {
    for (const auto& [key, value] : {std::pair<const char*, int>{"workers", r.storage[0].workers},
                                     {"outstanding", r.storage[0].outstanding}}) {
      if (config->contains(key) && (*config)[key] != value) {
        corrected += (corrected.empty() ? "" : ", ") + std::string(key) + " " +
                     (*config)[key].dump() + " → " + std::to_string(value);
        (*config)[key] = value;
      }
    }
  }
  return t.Html() + (corrected.empty() ? std::string()
                                       : "<p class='warn'>The file's configuration gave the "
                                         "options' defaults where its specifications set them; "
                                         "shown as they ran: " +
                                             HtmlEscape(corrected) + ".</p>");
}

}  // namespace

std::string Disclosure(const ReportItem& item, const std::string& id) {
  const ResultFile& f = item.file;
  std::string out =
      "<h3 id='" + id + "-disclosure'>" + HtmlEscape(f.path) + " (" + KindName(f) + ")</h3>";
  if (f.kind != FileKind::kRun) {
    if (f.kind == FileKind::kSearch) {
      out += "<p>Plan <code>" + HtmlEscape(f.search.plan) + "</code>; step " +
             HtmlEscape(f.search.step) + ", " + std::to_string(f.search.runs) +
             " run(s) per count; the runs' configuration is in their own result files (below "
             "when given to the report).</p>";
    } else {
      out += "<p>Method: ratio of means, " +
             HtmlEscape(Shown(f.comparison.options.confidence * 100)) +
             " % percentile bootstrap interval, hierarchical (runs, then instances), " +
             std::to_string(f.comparison.options.resamples) + " resamples, seed " +
             std::to_string(f.comparison.options.seed) + ".</p>";
      Table files("disclosure-files", {"group", "result file"});
      for (size_t g = 0; g < f.comparison.labels.size(); ++g) {
        for (const std::string& file : f.comparison.files[g]) {
          files.Row({Text(f.comparison.labels[g]), Text(file)});
        }
      }
      out += files.Html();
    }
    return out;
  }
  const metrics::RunResult& r = f.run;
  Table ident("disclosure-identity", {"field", "value"});
  ident.Row({Text("storebench version"), Text(ToolVersion())});
  ident.Row({Text("workload"), Text(r.workload)});
  ident.Row({Text("label"), Text(r.label)});
  ident.Row({Text("started (UTC)"), Text(r.started_at)});
  ident.Row({Text("ended (UTC)"), Text(r.ended_at)});
  ident.Row({Text("load model"), Text(r.loop_model)});
  ident.Row({Text("measured window (s)"), Num(r.measured_sec)});
  ident.Row({Text("interrupted"), Text(r.interrupted ? "yes" : "no")});
  out += ident.Html();
  nlohmann::json config = nlohmann::json::parse(r.config_json, nullptr, false);
  // Before the configuration is printed: it puts right what the storage specifications set.
  const std::string storage = StorageAsRan(r, &config);
  out += "<h4>Configuration</h4>" + storage + "<pre class='config'>" +
         HtmlEscape(config.is_discarded()
                        ? r.config_json
                        : config.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) +
         "</pre>";
  Table env("disclosure-environment", {"host and versions", "value"});
  for (const auto& [k, v] : r.environment) env.Row({Text(k), Text(v)});
  out += "<h4>Environment</h4>" + env.Html();
  if (!r.choices.empty()) {
    Table choices("disclosure-choices", {"choice", "as made"});
    for (const auto& [k, v] : r.choices) choices.Row({Text(k), Text(v)});
    out += "<h4>Choices the figures depend on</h4>" + choices.Html();
  }
  if (!r.instances.empty()) {
    Table inst("disclosure-instances", {"instance", "target"});
    for (const auto& i : r.instances) inst.Row({Text(i.name), Text(i.target)});
    out += "<h4>Instances</h4>" + inst.Html();
  }
  return out;
}

}  // namespace sb::report::html
