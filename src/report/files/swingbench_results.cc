#include "report/files/swingbench_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "metrics/histogram_buckets.h"
#include "version/version.h"

namespace sb::report {
namespace {

// XML 1.0 allows no control characters but tab, newline and carriage return: they are dropped.
std::string XmlText(const std::string& s) {
  std::string kept;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') kept += c;
  }
  return MarkupEscape(kept);
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::isfinite(v) ? v : 0.0);
  return buf;
}

// Swingbench's duration text, H:MM:SS (with milliseconds when `millis`).
std::string Duration(double sec, bool millis) {
  const auto total_ms = static_cast<int64_t>(std::llround(std::max(0.0, sec) * 1000));
  const int64_t s = millis ? total_ms / 1000 : (total_ms + 500) / 1000;
  char buf[64];
  if (millis) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld.%03lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60),
                  static_cast<long long>(total_ms % 1000));
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  }
  return buf;
}

// Milliseconds since the epoch of an ISO-8601 UTC instant ("2026-12-07T10:42:42.123Z"); 0 when
// it does not parse.
int64_t EpochMillis(const std::string& iso) {
  std::tm tm{};
  int ms = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) < 6) {
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

double Figure(const metrics::RunResult& r, const std::string& name) {
  for (const auto& [k, v] : r.figures) {
    if (k == name) return v;
  }
  return 0;
}

int64_t Counter(const metrics::RunResult& r, const std::string& name) {
  auto it = r.counters.find(name);
  return it == r.counters.end() ? 0 : it->second;
}

// The value of a run option as text ("" when absent), from the result's configuration.
std::string Option(const nlohmann::json& config, const std::string& name) {
  auto it = config.find(name);
  if (it == config.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

void Element(std::string* out, int indent, const std::string& name, const std::string& text) {
  out->append(static_cast<size_t>(indent), ' ');
  *out += "<" + name + ">" + XmlText(text) + "</" + name + ">\n";
}

void Overview(const metrics::RunResult& r, const nlohmann::json& config,
              const std::string& benchmark_name, std::string* x) {
  std::string name = benchmark_name;
  if (name.empty()) name = Option(config, "soe_config_name");
  if (name.empty()) name = "storebench " + r.workload;
  *x += "   <Overview>\n";
  Element(x, 6, "BenchmarkName", name);
  Element(x, 6, "Comment",
          "storebench " + std::string(version::Version()) + ", workload " + r.workload + ": " +
              r.loop_model);
  Element(x, 6, "TimeOfRun", r.started_at);
  Element(x, 6, "TotalRunTime", Duration(r.measured_sec, false));
  Element(x, 6, "TotalLogonTime", Duration(std::max(0.0, r.connect_sec), true));
  Element(x, 6, "TotalCompletedTransactions", Fixed(Figure(r, "completed_transactions"), 0));
  Element(x, 6, "TotalFailedTransactions", Fixed(Figure(r, "failed_transactions"), 0));
  Element(x, 6, "AverageTransactionsPerSecond", Fixed(Figure(r, "average_tps"), 2));
  Element(x, 6, "MaximumTransactionRate", Fixed(Figure(r, "maximum_tpm"), 0));
  *x += "   </Overview>\n";
}

void Configuration(const metrics::RunResult& r, const nlohmann::json& c, std::string* x) {
  const std::string pooled = Option(c, "soe_users");
  const std::string users = !pooled.empty() && pooled != "0" ? pooled : Option(c, "n_threads");
  *x += "   <Configuration>\n";
  Element(x, 6, "NumberOfUsers", users);
  Element(x, 6, "MinimumDelay", Option(c, "min_delay"));
  Element(x, 6, "MaximumDelay", Option(c, "max_delay"));
  Element(x, 6, "InterMinimumDelay", Option(c, "inter_min_delay"));
  Element(x, 6, "InterMaximumDelay", Option(c, "inter_max_delay"));
  Element(x, 6, "ConnectString", r.target.empty() ? Option(c, "db") : r.target);
  Element(x, 6, "TimingsIncludeSleeps",
          Option(c, "timings_include_sleep") == "Y" ? "true" : "false");
  Element(x, 6, "TimingsIn", "milliseconds");
  *x += "   </Configuration>\n";
}

void TransactionResults(const metrics::RunResult& r,
                        const std::vector<SwingbenchTransaction>& transactions, std::string* x) {
  *x += "   <TransactionResults>\n";
  for (const SwingbenchTransaction& t : transactions) {
    auto at = std::find(r.type_names.begin(), r.type_names.end(), t.type);
    if (at == r.type_names.end()) continue;
    const metrics::LatencySummary& l = r.latency[static_cast<size_t>(at - r.type_names.begin())];
    // The 10th percentile is no figure of the result: it comes from the kept histogram.
    double p10_ms = 0;
    if (auto h = metrics::FromBuckets(l.histogram); h.ok() && l.count > 0) {
      p10_ms = static_cast<double>(h->ValueAtPercentile(10)) / 1e6;
    }
    *x += "      <Result id=\"" + XmlText(t.id) + "\">\n";
    Element(x, 9, "TransactionCount", std::to_string(l.count));
    Element(x, 9, "AverageResponse", Fixed(l.mean_ms, 2));
    Element(x, 9, "MinimumResponse", Fixed(l.min_ms, 2));
    Element(x, 9, "MaximumResponse", Fixed(l.max_ms, 2));
    Element(x, 9, "TenthPercentile", Fixed(p10_ms, 2));
    Element(x, 9, "FiftiethPercentile", Fixed(l.p50_ms, 2));
    Element(x, 9, "NinetiethPercentile", Fixed(l.p90_ms, 2));
    Element(x, 9, "FailedTransactionCount", std::to_string(Counter(r, "failed." + t.type)));
    *x += "      </Result>\n";
  }
  *x += "   </TransactionResults>\n";
}

void DmlResults(const metrics::RunResult& r, std::string* x) {
  *x += "   <DMLResults>\n";
  const char* const kinds[][2] = {
      {"SelectStatements", "selects"}, {"InsertStatements", "inserts"},
      {"UpdateStatements", "updates"}, {"DeleteStatements", "deletes"},
      {"CommitStatements", "commits"}, {"RollbackStatements", "rollbacks"}};
  for (const auto& k : kinds) Element(x, 6, k[0], std::to_string(Counter(r, k[1])));
  *x += "   </DMLResults>\n";
}

// Completed transactions per second of the measured window, as "epoch ms, count" pairs.
void BenchmarkMetrics(const metrics::RunResult& r, std::string* x) {
  const metrics::TimeSeries& s = r.series;
  const auto failed_at = std::find(s.counter_names.begin(), s.counter_names.end(), "failed");
  const int64_t start_ms = EpochMillis(r.started_at);
  std::string readings;
  for (size_t k = 0; k < s.points.size(); ++k) {
    const metrics::IntervalPoint& p = s.points[k];
    if (p.phase != "measure" || p.type_counts.empty()) continue;
    int64_t n = static_cast<int64_t>(p.type_counts[0]);
    if (failed_at != s.counter_names.end()) {
      const auto i = static_cast<size_t>(failed_at - s.counter_names.begin());
      if (i < p.counters.size()) n -= p.counters[i];
    }
    if (!readings.empty()) readings += ",";
    readings += std::to_string(start_ms + std::llround(p.t_sec * 1000)) + ", " +
                std::to_string(std::max<int64_t>(0, n));
  }
  *x += "   <BenchmarkMetrics>\n";
  Element(x, 6, "TPSReadings", readings);
  *x += "   </BenchmarkMetrics>\n";
}

}  // namespace

std::string SwingbenchResultsXml(const metrics::RunResult& r, const std::string& benchmark_name,
                                 const std::vector<SwingbenchTransaction>& transactions) {
  std::string x = "<?xml version = '1.0' encoding = 'UTF-8'?>\n";
  x += "<Results xmlns=\"http://www.dominicgiles.com/swingbench\">\n";
  nlohmann::json config = nlohmann::json::parse(r.config_json, nullptr, false);
  if (!config.is_object()) config = nlohmann::json::object();
  Overview(r, config, benchmark_name, &x);
  Configuration(r, config, &x);
  TransactionResults(r, transactions, &x);
  DmlResults(r, &x);
  BenchmarkMetrics(r, &x);
  x += "</Results>\n";
  return x;
}

}  // namespace sb::report
