// The report page: header, one section per file, full disclosure at the end.
#include "report/html/html_report.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "report/files/json_report.h"
#include "report/html/html_parts.h"

namespace sb::report {

namespace html {

std::string Exact(double v) {
  if (!std::isfinite(v)) return "";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char whole[32];
    std::snprintf(whole, sizeof whole, "%.0f", v);
    return whole;
  }
  char buf[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string Shown(double v) {
  if (!std::isfinite(v)) return "–";
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else if (std::fabs(v) >= 1000) {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  } else if (std::fabs(v) >= 1) {
    std::snprintf(buf, sizeof buf, "%.3f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  return buf;
}

Cell Text(const std::string& text) { return {HtmlEscape(text), "", false}; }
Cell Num(double v) { return {Shown(v), Exact(v), true}; }
Cell Int(int64_t v) { return {std::to_string(v), std::to_string(v), true}; }
Cell Pass(bool passed) {
  return {passed ? "<span class='pass'>PASS</span>" : "<span class='fail'>FAIL</span>", "", false};
}

Table::Table(std::string key, std::vector<std::string> headers)
    : key_(std::move(key)), headers_(std::move(headers)) {}

void Table::Row(std::vector<Cell> cells) { rows_.push_back(std::move(cells)); }

std::string Table::Html() const {
  std::string out = "<table class='data' data-table='" + HtmlEscape(key_) + "'><thead><tr>";
  for (const std::string& h : headers_) out += "<th>" + HtmlEscape(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& row : rows_) {
    out += "<tr>";
    for (const Cell& c : row) {
      out += c.numeric ? "<td class='n'" : "<td";
      if (!c.value.empty()) out += " data-value='" + c.value + "'";
      out += ">" + c.html + "</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

std::string Figure(const std::string& chart, const Table& table, const std::string& caption) {
  return "<figure class='fig'><figcaption>" + HtmlEscape(caption) +
         "</figcaption><div class='figbody'><div class='plot'>" + chart +
         "</div><div class='figtable'>" + table.Html() + "</div></div></figure>";
}

const char* KindName(const ResultFile& f) {
  switch (f.kind) {
    case FileKind::kSearch:
      return "consolidation search";
    case FileKind::kComparison:
      return "comparison";
    case FileKind::kRun:
      if (!f.run.storage.empty()) return "storage run";
      if (f.run.workload == "exec") return "timed command";
      if (!f.run.instances.empty()) return "consolidation run";
      return "run";
  }
  return "run";
}

}  // namespace html

namespace {

using html::Cell;
using html::Table;

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px;color:#111;max-width:1400px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:19px;border-bottom:2px solid #1f77b4;padding-bottom:2px;margin-top:32px}
h3{font-size:16px;margin:20px 0 6px}.meta{color:#555}
table.data{border-collapse:collapse;font-size:12px;margin:4px 0 12px}
table.data th,table.data td{border:1px solid #ccc;padding:2px 6px;vertical-align:top}
table.data th{background:#f0f3f7;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.fig{margin:8px 0 18px;page-break-inside:avoid}.fig figcaption{font-weight:600;margin-bottom:4px}
.figbody{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.figtable{max-height:300px;overflow:auto;border:1px solid #eee}
svg.chart{background:#fff;max-width:100%;height:auto}
svg .grid{stroke:#e5e5e5}svg .axis{stroke:#333}svg .tick,svg .legend,svg .blabel,svg .rlabel{font-size:11px;fill:#333}
svg .alabel{font-size:12px;fill:#111}svg .ctitle{font-size:13px;font-weight:600;fill:#111}
svg .band.warmup{fill:#999;fill-opacity:.18}svg .band.window{fill:#1f77b4;fill-opacity:.10}
svg .ref{stroke:#d62728;stroke-dasharray:6 4;stroke-width:1.5}svg .rlabel{fill:#d62728}
.pass{color:#17761f;font-weight:600}.fail{color:#b00;font-weight:600}
.warn{background:#fff6d6;border-left:4px solid #e0a800;padding:4px 8px;margin:4px 0}
pre.config{background:#f7f7f7;border:1px solid #ddd;padding:8px;font-size:11px;white-space:pre-wrap;word-break:break-all}
nav ol{margin:4px 0 0 18px;padding:0}
h2,h3,h4,figcaption{break-after:avoid;page-break-after:avoid}
@media print{body{margin:0;max-width:none;font-size:11px}.figbody{display:block}.figtable{max-height:none;overflow:visible;border:0}
section.result{break-before:page;page-break-before:always}
table.data{max-width:100%;font-size:8px}table.data th,table.data td{overflow-wrap:anywhere;padding:1px 3px}table.data td.n{overflow-wrap:normal;white-space:nowrap}
table.data thead{display:table-header-group}table.data tr{break-inside:avoid}
h2,h3,h4,figcaption{break-after:avoid;page-break-after:avoid;break-inside:avoid}.fig,svg.chart{break-inside:avoid}
pre.config{font-size:8px}}
)";

}  // namespace

std::string RenderHtmlReport(const std::vector<ReportItem>& items,
                             const std::string& generated_at) {
  std::string out =
      "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
      "<meta name='viewport' content='width=device-width,initial-scale=1'>"
      "<meta name='generator' content='storebench " +
      std::string(ToolVersion()) + "'><title>storebench report</title><style>" + kStyle +
      "</style></head><body>\n";
  out += "<header><h1>storebench report</h1><p class='meta'>Generated " + HtmlEscape(generated_at) +
         " by storebench " + ToolVersion() + " from " + std::to_string(items.size()) +
         " file(s). Every chart has its figures in a table beside it; the full configuration, "
         "hosts and versions are at the end.</p><nav><ol>";
  for (size_t i = 0; i < items.size(); ++i) {
    const ReportItem& item = items[i];
    std::string title = item.file.path;
    if (item.file.kind == FileKind::kRun && !item.file.run.label.empty()) {
      title += " — " + item.file.run.label;
    }
    out += "<li><a href='#f" + std::to_string(i + 1) + "'>" + HtmlEscape(title) + "</a> (" +
           html::KindName(item.file) + ")</li>";
  }
  out += "<li><a href='#disclosure'>Full disclosure</a></li></ol></nav></header>\n";
  for (size_t i = 0; i < items.size(); ++i) {
    const ReportItem& item = items[i];
    const std::string id = "f" + std::to_string(i + 1);
    out += "<section class='result' id='" + id + "' data-kind='" + html::KindName(item.file) +
           "'><h2>" + std::to_string(i + 1) + ". " + html::KindName(item.file) + ": " +
           HtmlEscape(item.file.path) + "</h2>";
    for (const std::string& n : item.notes) out += "<p class='warn'>" + HtmlEscape(n) + "</p>";
    switch (item.file.kind) {
      case FileKind::kRun:
        out += item.file.run.storage.empty() ? html::RunSection(item.file.run, item.file.power, id)
                                             : html::StorageSection(item.file.run, id);
        break;
      case FileKind::kSearch:
        out += html::SearchSection(item, id);
        break;
      case FileKind::kComparison:
        out += html::ComparisonSection(item.file.comparison, id);
        break;
    }
    out += "</section>\n";
  }
  out += html::SearchesChart(items);
  out +=
      "<section id='disclosure'><h2>Full disclosure</h2><p>What ran, where and with which "
      "versions, as each result file records it.</p>";
  for (size_t i = 0; i < items.size(); ++i) {
    out += html::Disclosure(items[i], "f" + std::to_string(i + 1));
    // A search's runs share their configuration but for the instance count: the median run at
    // the peak (else the last one read) stands for them; each run's file is in the verdict table.
    const auto& runs = items[i].median_runs;
    const std::pair<int, metrics::RunResult>* shown = runs.empty() ? nullptr : &runs.back();
    for (const auto& entry : runs) {
      if (entry.first == items[i].file.search.peak) shown = &entry;
    }
    if (shown != nullptr) {
      ReportItem one;
      one.file.kind = FileKind::kRun;
      one.file.path = "the search's median run at " + std::to_string(shown->first) +
                      " instance(s); the other counts' runs differ in the instance count";
      one.file.run = shown->second;
      out +=
          html::Disclosure(one, "f" + std::to_string(i + 1) + "-n" + std::to_string(shown->first));
    }
  }
  out += "</section>\n</body></html>\n";
  return out;
}

}  // namespace sb::report
