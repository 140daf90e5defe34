#include "report/console/prometheus_text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace sb::report {
namespace {

std::string Escape(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A bound's `le` text in seconds, the shortest that reads back as the bound ("5e-05", "1.5",
// "60"): the same text in every series, which histogram_quantile's grouping by `le` needs.
std::string LeText(int64_t nanos) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(nanos) / 1e9);
  return buf;
}

// A metric name part from a counter name: letters, digits and '_' (Prometheus' name rule).
std::string NamePart(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

std::string Label(const char* name, const std::string& value) {
  return std::string(",") + name + "=\"" + Escape(value) + "\"";
}

// Builds the exposition: families in first-use order, each with its HELP and TYPE once and its
// samples together (the text format requires it), and each series (name and labels) once.
class Exposition {
 public:
  void Family(const std::string& name, const char* type, const std::string& help) {
    if (std::find(families_.begin(), families_.end(), name) != families_.end()) return;
    families_.push_back(name);
    text_[name] = "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  }
  // `family` must have been declared; `sample` is its name or name + suffix (_bucket, _sum,
  // _count); `labels` starts with a comma (or is empty).
  void Sample(const std::string& family, const std::string& sample, const std::string& labels,
              const std::string& value) {
    const std::string series = sample + "{" + (labels.empty() ? labels : labels.substr(1)) + "}";
    if (!seen_.insert(series).second) return;
    text_[family] += series + " " + value + "\n";
  }
  // A histogram's series: cumulative buckets at kLatencyBoundsNanos and +Inf, _sum in seconds,
  // _count. Its ~40 lines are checked for repeats as one (by its labels): at a few hundred
  // histograms a second, a set lookup per line would cost more than writing the text.
  void Histogram(const std::string& family, const std::string& labels,
                 const metrics::Histogram& h) {
    static const std::vector<int64_t> bounds(kLatencyBoundsNanos.begin(),
                                             kLatencyBoundsNanos.end());
    static const std::vector<std::string> les = [] {
      std::vector<std::string> out;
      for (int64_t b : kLatencyBoundsNanos) out.push_back("le=\"" + LeText(b) + "\"} ");
      out.emplace_back("le=\"+Inf\"} ");
      return out;
    }();
    if (!seen_.insert(family + "{" + labels + "}").second) return;
    const std::vector<uint64_t> at = CountsAtOrBelow(h, bounds);
    std::string& out = text_[family];
    const std::string head = family + "_bucket{" + (labels.empty() ? "" : labels.substr(1) + ",");
    for (size_t i = 0; i < les.size(); ++i) {
      out.append(head).append(les[i]);
      out.append(std::to_string(i < at.size() ? at[i] : h.count())).push_back('\n');
    }
    const std::string rest = "{" + (labels.empty() ? labels : labels.substr(1)) + "} ";
    out += family + "_sum" + rest + Num(static_cast<double>(h.sum()) / 1e9) + "\n";
    out += family + "_count" + rest + std::to_string(h.count()) + "\n";
  }
  std::string Text() const {
    std::string out;
    for (const std::string& f : families_) out += text_.at(f);
    return out;
  }

 private:
  std::vector<std::string> families_;
  std::map<std::string, std::string> text_;
  std::set<std::string> seen_;
};

// Where a counter goes: its family, the label that tells it from the family's other members
// (none: ""), and the family's help.
struct CounterFamily {
  std::string family;
  std::string label, value;
  std::string help;
};

CounterFamily FamilyOf(const std::string& workload, const std::string& name) {
  // sysbench's classes of statements (reads, writes, other): parts of one count.
  if (name == "reads" || name == "writes" || name == "other") {
    return {"storebench_queries_total", "op",
            name == "reads"    ? "read"
            : name == "writes" ? "write"
                               : "other",
            "Statements by sysbench's class (op: read, write, other) since Start."};
  }
  // A storage test's read_bytes, write_errors, ...: by direction.
  if (workload == "storage") {
    for (const char* op : {"read", "write"}) {
      const std::string prefix = std::string(op) + "_";
      if (name.rfind(prefix, 0) == 0) {
        const std::string what = name.substr(prefix.size());
        return {"storebench_io_" + NamePart(what) + "_total", "op", op,
                "Storage " + what + " by direction (op: read, write) since the test's Start."};
      }
    }
  }
  const size_t dot = name.find('.');
  if (dot != std::string::npos) {
    const std::string head = name.substr(0, dot), kind = name.substr(dot + 1);
    if (head == "errors") {
      return {"storebench_errors_total", "category", kind,
              "Failed database calls by error category since Start."};
    }
    return {"storebench_" + NamePart(head) + "_total", "kind", kind,
            "Count of " + head + " by kind since Start."};
  }
  if (name == "late") {
    return {"storebench_late_operations_total", "", "",
            "Units slower than --latency_limit since Start."};
  }
  return {"storebench_" + NamePart(name) + "_total", "", "", "Count of " + name + " since Start."};
}

// The labels every series of `t` has: workload, then instance and spec when they apply.
std::string BaseLabels(const metrics::LiveTotals& t, bool label_instances) {
  std::string base = Label("workload", t.workload);
  if (label_instances) base += Label("instance", t.instance);
  if (!t.spec.empty()) base += Label("spec", t.spec);
  return base;
}

}  // namespace

std::vector<uint64_t> CountsAtOrBelow(const metrics::Histogram& h,
                                      const std::vector<int64_t>& bounds_nanos) {
  std::vector<uint64_t> out(bounds_nanos.size(), 0);
  size_t j = 0;
  uint64_t below = 0;
  if (h.count() > 0) {
    const int64_t lo = h.min(), hi = h.max();
    for (size_t b = h.first_bucket(); b < h.end_bucket(); ++b) {
      const uint64_t n = h.bucket_count(b);
      if (n == 0) continue;
      const int64_t value = std::clamp(metrics::Histogram::BucketMid(b), lo, hi);
      while (j < bounds_nanos.size() && value > bounds_nanos[j]) out[j++] = below;
      below += n;
    }
  }
  while (j < bounds_nanos.size()) out[j++] = below;
  return out;
}

std::string PrometheusText(const std::vector<metrics::LiveTotals>& all, bool label_instances) {
  Exposition e;
  const std::string unit_family = "storebench_unit_duration_seconds";
  const std::string step_family = "storebench_step_duration_seconds";
  const std::string lag_family = "storebench_schedule_lag_seconds";
  const std::string elapsed = "storebench_elapsed_seconds";
  for (const metrics::LiveTotals& t : all) {
    const std::string base = BaseLabels(t, label_instances);
    e.Family(unit_family, "histogram",
             "Latency of the unit of work (unit: order, transaction, io; op: a storage I/O's "
             "direction) since Start; _count is the number of units.");
    for (size_t i = 0; i < t.units.size(); ++i) {
      std::string labels = base + Label("unit", t.unit);
      if (i < t.unit_ops.size()) labels += Label("op", t.unit_ops[i]);
      e.Histogram(unit_family, labels, t.units[i]);
    }
    if (!t.steps.empty()) {
      e.Family(step_family, "histogram",
               "Latency of the workload's steps inside a unit (e.g. DVD Store's login, browse, "
               "purchase), each its own operation, since Start.");
    }
    for (size_t i = 0; i < t.steps.size() && i < t.step_names.size(); ++i) {
      e.Histogram(step_family, base + Label("step", t.step_names[i]), t.steps[i]);
    }
    if (t.schedule_lag.count() > 0) {
      e.Family(lag_family, "histogram",
               "Open loop: how late each unit started after its scheduled time, since Start.");
      e.Histogram(lag_family, base, t.schedule_lag);
    }
    for (size_t i = 0; i < t.counter_names.size() && i < t.counters.size(); ++i) {
      const CounterFamily f = FamilyOf(t.workload, t.counter_names[i]);
      e.Family(f.family, "counter", f.help);
      const std::string labels = f.label.empty() ? base : base + Label(f.label.c_str(), f.value);
      e.Sample(f.family, f.family, labels, std::to_string(t.counters[i]));
    }
  }
  // Last: a gauge, not a count.
  for (const metrics::LiveTotals& t : all) {
    const std::string base = BaseLabels(t, label_instances);
    e.Family(elapsed, "gauge",
             "Seconds since Start, or since the warm-up (ramp) reset once it has happened.");
    e.Sample(elapsed, elapsed, base, Num(t.elapsed_sec));
  }
  return e.Text();
}

}  // namespace sb::report
