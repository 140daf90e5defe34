#include "report/console/sysbench_report.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>

namespace sb::report {
namespace {

double PerSec(double n, double seconds) { return seconds > 0 ? n / seconds : 0; }

double Ms(int64_t nanos) { return static_cast<double>(nanos) / 1e6; }

std::string Line(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Line(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return std::string(buf) + "\n";
}

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::string FormatSysbenchHeader(const SysbenchHeader& h) {
  // The version line is sysbench's with storebench named where sysbench names its LuaJIT, so
  // parsers that look for "sysbench 1.0" read it and no one takes it for sysbench itself.
  std::string out = "sysbench 1.0.20 (using " + h.using_what + ")\n\n";
  out += "Running the test with following options:\n";
  out += Line("Number of threads: %" PRId64, h.threads);
  if (h.rate > 0) out += Line("Target transaction rate: %d/sec", static_cast<int>(h.rate));
  if (h.report_interval > 0) {
    out += Line("Report intermediate results every %" PRId64 " second(s)", h.report_interval);
  }
  // sysbench's format strings end in "\n" here, hence the blank line.
  if (h.seed != 0) {
    out += Line("Initializing random number generator from seed (%lld).\n",
                static_cast<long long>(h.seed));
  } else {
    out += "Initializing random number generator from current time\n\n";
  }
  if (h.forced_shutdown >= 0) {
    out += Line("Forcing shutdown in %u seconds", static_cast<unsigned>(h.forced_shutdown));
  }
  out += "\n";
  out += "Initializing worker threads...\n\n";
  return out;
}

void SysbenchCounts::AddPoint(const metrics::TimeSeries& series,
                              const metrics::IntervalPoint& point) {
  if (!point.type_counts.empty()) events += point.type_counts[0];
  for (size_t k = 0; k < series.counter_names.size() && k < point.counters.size(); ++k) {
    const std::string& name = series.counter_names[k];
    const int64_t v = point.counters[k];
    if (name == "reads") reads += v;
    if (name == "writes") writes += v;
    if (name == "other") other += v;
    if (name == "reconnects") reconnects += v;
    if (StartsWith(name, "errors.")) errors += v;
  }
}

std::string FormatSysbenchInterval(double t_sec, int64_t threads, int percentile,
                                   const SysbenchCounts& c) {
  const double s = c.seconds;
  const double pct_ms =
      percentile > 0 && c.latency.count() > 0 ? Ms(c.latency.ValueAtPercentile(percentile)) : 0;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "[ %.0fs ] thds: %" PRId64
                " tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) "
                "lat (ms,%d%%): %4.2f err/s: %4.2f reconn/s: %4.2f",
                t_sec, threads, PerSec(static_cast<double>(c.events), s),
                PerSec(static_cast<double>(c.reads + c.writes + c.other), s),
                PerSec(static_cast<double>(c.reads), s), PerSec(static_cast<double>(c.writes), s),
                PerSec(static_cast<double>(c.other), s), percentile, pct_ms,
                PerSec(static_cast<double>(c.errors), s),
                PerSec(static_cast<double>(c.reconnects), s));
  return buf;
}

std::string FormatSysbenchHistogram(const metrics::Histogram& h) {
  // sysbench's rows: 1024 buckets spaced evenly in log(ms) from 0.001 ms to 100 s, each shown
  // by its value (sb_histogram.c); storebench's finer buckets are gathered into them.
  constexpr int kRows = 1024;
  const double low = std::log(0.001), mult = (kRows - 1) / (std::log(100000.0) - low);
  std::map<int, uint64_t> rows;
  for (size_t b = 0; b < metrics::Histogram::kNumBuckets; ++b) {
    const uint64_t n = h.bucket_count(b);
    if (n == 0) continue;
    const double ms = std::max(0.001, Ms(metrics::Histogram::BucketMid(b)));
    const int row =
        std::clamp(static_cast<int>(std::floor((std::log(ms) - low) * mult + 0.5)), 0, kRows - 1);
    rows[row] += n;
  }
  uint64_t most = 0;
  for (const auto& [row, n] : rows) most = std::max(most, n);
  std::string out = "Latency histogram (values are in milliseconds)\n";
  out += "       value  ------------- distribution ------------- count\n";
  for (const auto& [row, n] : rows) {
    // 40 columns for the fullest row, at least one for any other.
    const auto stars = static_cast<size_t>(std::max<uint64_t>(1, n * 40 / most));
    out += Line("%12.3f |%-40s %" PRIu64, std::exp(row / mult + low),
                std::string(stars, '*').c_str(), n);
  }
  return out;
}

std::string FormatSysbenchReport(const SysbenchCounts& c, int percentile,
                                 const std::vector<metrics::ThreadShare>& threads) {
  const double s = c.seconds;
  const int64_t queries = c.reads + c.writes + c.other;
  std::string out = "SQL statistics:\n";
  out += "    queries performed:\n";
  out += Line("        read:                            %" PRId64, c.reads);
  out += Line("        write:                           %" PRId64, c.writes);
  out += Line("        other:                           %" PRId64, c.other);
  out += Line("        total:                           %" PRId64, queries);
  out += Line("    transactions:                        %-6" PRIu64 " (%.2f per sec.)", c.events,
              PerSec(static_cast<double>(c.events), s));
  out += Line("    queries:                             %-6" PRId64 " (%.2f per sec.)", queries,
              PerSec(static_cast<double>(queries), s));
  out += Line("    ignored errors:                      %-6" PRId64 " (%.2f per sec.)", c.errors,
              PerSec(static_cast<double>(c.errors), s));
  out += Line("    reconnects:                          %-6" PRId64 " (%.2f per sec.)",
              c.reconnects, PerSec(static_cast<double>(c.reconnects), s));
  out += "\n";
  out += "General statistics:\n";
  out += Line("    total time:                          %.4fs", s);
  out += Line("    total number of events:              %" PRIu64, c.events);
  out += "\n";
  out += "Latency (ms):\n";
  out += Line("         min: %39.2f", Ms(c.latency.min()));
  out += Line("         avg: %39.2f", c.latency.mean() / 1e6);
  out += Line("         max: %39.2f", Ms(c.latency.max()));
  if (percentile > 0) {
    out += Line("        %3dth percentile: %27.2f", percentile,
                c.latency.count() > 0 ? Ms(c.latency.ValueAtPercentile(percentile)) : 0.0);
  } else {
    out += "         percentile stats:               disabled\n";
  }
  out += Line("         sum: %39.2f", Ms(c.latency.sum()));
  if (!threads.empty()) {
    double units_sum = 0, busy_sum = 0;
    for (const metrics::ThreadShare& t : threads) {
      units_sum += static_cast<double>(t.units);
      busy_sum += t.busy_sec;
    }
    const auto n = static_cast<double>(threads.size());
    const double units_avg = units_sum / n, busy_avg = busy_sum / n;
    double units_var = 0, busy_var = 0;
    for (const metrics::ThreadShare& t : threads) {
      units_var += std::pow(static_cast<double>(t.units) - units_avg, 2);
      busy_var += std::pow(t.busy_sec - busy_avg, 2);
    }
    out += "\n";
    out += "Threads fairness:\n";
    out +=
        Line("    events (avg/stddev):           %.4f/%3.2f", units_avg, std::sqrt(units_var / n));
    out += Line("    execution time (avg/stddev):   %.4f/%3.2f", busy_avg, std::sqrt(busy_var / n));
  }
  return out;
}

}  // namespace sb::report
