// The result document read back into a RunResult, with errors that name the offending key.
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "report/files/json_document.h"
#include "report/files/json_report.h"

namespace sb::report::internal {

namespace {

using metrics::RunResult;

std::string Child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string Element(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

Status Expected(const std::string& path, const char* what) {
  return Status::InvalidArgument("result JSON: " + path + ": expected " + what);
}

Status AsString(const Json& v, const std::string& path, std::string* out) {
  if (!v.is_string()) return Expected(path, "a string");
  *out = v.get<std::string>();
  return Status::Ok();
}

Status AsBool(const Json& v, const std::string& path, bool* out) {
  if (!v.is_boolean()) return Expected(path, "true or false");
  *out = v.get<bool>();
  return Status::Ok();
}

// A number, or null for a value that is not a number (NaN).
Status AsDouble(const Json& v, const std::string& path, double* out) {
  if (v.is_null()) {
    *out = std::numeric_limits<double>::quiet_NaN();
    return Status::Ok();
  }
  if (!v.is_number()) return Expected(path, "a number");
  *out = v.get<double>();
  return Status::Ok();
}

Status AsInt64(const Json& v, const std::string& path, int64_t* out) {
  if (!v.is_number_integer()) return Expected(path, "an integer");
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Expected(path, "an integer below 2^63");
  }
  *out = v.get<int64_t>();
  return Status::Ok();
}

Status AsUint64(const Json& v, const std::string& path, uint64_t* out) {
  if (!v.is_number_unsigned()) return Expected(path, "a non-negative integer");
  *out = v.get<uint64_t>();
  return Status::Ok();
}

Status Member(const Json& obj, std::string_view key, const std::string& path, const Json** out) {
  auto it = obj.find(std::string(key));
  if (it == obj.end()) {
    return Status::InvalidArgument("result JSON: missing key '" + Child(path, key) + "'");
  }
  *out = &*it;
  return Status::Ok();
}

Status GetObject(const Json& obj, std::string_view key, const std::string& path, const Json** out) {
  SB_RETURN_IF_ERROR(Member(obj, key, path, out));
  if (!(*out)->is_object()) return Expected(Child(path, key), "an object");
  return Status::Ok();
}

Status GetArray(const Json& obj, std::string_view key, const std::string& path, const Json** out) {
  SB_RETURN_IF_ERROR(Member(obj, key, path, out));
  if (!(*out)->is_array()) return Expected(Child(path, key), "an array");
  return Status::Ok();
}

// `array` (at `path`) must be an array of objects; calls read(element, element_path) on each in
// order and stops at the first error.
template <typename Read>
Status ForEachObject(const Json& array, const std::string& path, Read read) {
  if (!array.is_array()) return Expected(path, "an array");
  for (size_t i = 0; i < array.size(); ++i) {
    const std::string element_path = Element(path, i);
    if (!array[i].is_object()) return Expected(element_path, "an object");
    SB_RETURN_IF_ERROR(read(array[i], element_path));
  }
  return Status::Ok();
}

// obj[key] read with As(value, path, out).
template <typename T>
Status Get(const Json& obj, std::string_view key, const std::string& path,
           Status (*as)(const Json&, const std::string&, T*), T* out) {
  const Json* v = nullptr;
  SB_RETURN_IF_ERROR(Member(obj, key, path, &v));
  return as(*v, Child(path, key), out);
}

template <typename T>
Status GetVector(const Json& obj, std::string_view key, const std::string& path,
                 Status (*as)(const Json&, const std::string&, T*), std::vector<T>* out) {
  const Json* array = nullptr;
  SB_RETURN_IF_ERROR(GetArray(obj, key, path, &array));
  const std::string array_path = Child(path, key);
  out->clear();
  out->reserve(array->size());
  for (size_t i = 0; i < array->size(); ++i) {
    T value{};
    SB_RETURN_IF_ERROR(as((*array)[i], Element(array_path, i), &value));
    out->push_back(std::move(value));
  }
  return Status::Ok();
}

template <typename T>
Status GetMap(const Json& obj, std::string_view key, const std::string& path,
              Status (*as)(const Json&, const std::string&, T*), std::map<std::string, T>* out) {
  const Json* map = nullptr;
  SB_RETURN_IF_ERROR(GetObject(obj, key, path, &map));
  const std::string map_path = Child(path, key);
  out->clear();
  for (const auto& [k, v] : map->items()) {
    T value{};
    SB_RETURN_IF_ERROR(as(v, Child(map_path, k), &value));
    (*out)[k] = std::move(value);
  }
  return Status::Ok();
}

// An operation's "histogram" (docs/output-schema.md#latency-histogram), checked by FromBuckets
// so a reader can rebuild and merge it.
Status ReadHistogram(const Json& j, const std::string& path, metrics::HistogramData* h) {
  if (!j.is_object()) return Expected(path, "an object");
  int64_t sub_bits = 0;
  SB_RETURN_IF_ERROR(Get(j, "sub_bits", path, AsInt64, &sub_bits));
  h->sub_bits = static_cast<int>(sub_bits);
  SB_RETURN_IF_ERROR(Get(j, "sum_ns", path, AsInt64, &h->sum_ns));
  SB_RETURN_IF_ERROR(Get(j, "min_ns", path, AsInt64, &h->min_ns));
  SB_RETURN_IF_ERROR(Get(j, "max_ns", path, AsInt64, &h->max_ns));
  SB_RETURN_IF_ERROR(Get(j, "saturated", path, AsUint64, &h->saturated));
  const Json* buckets = nullptr;
  SB_RETURN_IF_ERROR(GetArray(j, "buckets", path, &buckets));
  const std::string buckets_path = Child(path, "buckets");
  for (size_t i = 0; i < buckets->size(); ++i) {
    const Json& b = (*buckets)[i];
    const std::string b_path = Element(buckets_path, i);
    if (!b.is_array() || b.size() != 2) return Expected(b_path, "a [low_ns, count] pair");
    metrics::HistogramBucket bucket;
    SB_RETURN_IF_ERROR(AsInt64(b[0], b_path, &bucket.low_ns));
    SB_RETURN_IF_ERROR(AsUint64(b[1], b_path, &bucket.count));
    h->buckets.push_back(bucket);
  }
  if (auto rebuilt = metrics::FromBuckets(*h); !rebuilt.ok()) {
    return Status::InvalidArgument(path + ": " + rebuilt.status().message());
  }
  return Status::Ok();
}

// An "operations" array at `path` into parallel type names and latency summaries.
Status ReadOperationList(const Json& ops, const std::string& path, std::vector<std::string>* types,
                         std::vector<metrics::LatencySummary>* latency) {
  return ForEachObject(ops, path, [&](const Json& op, const std::string& op_path) -> Status {
    std::string type;
    metrics::LatencySummary s;
    SB_RETURN_IF_ERROR(Get(op, "type", op_path, AsString, &type));
    SB_RETURN_IF_ERROR(Get(op, "count", op_path, AsUint64, &s.count));
    SB_RETURN_IF_ERROR(Get(op, "mean_ms", op_path, AsDouble, &s.mean_ms));
    SB_RETURN_IF_ERROR(Get(op, "min_ms", op_path, AsDouble, &s.min_ms));
    SB_RETURN_IF_ERROR(Get(op, "p50_ms", op_path, AsDouble, &s.p50_ms));
    SB_RETURN_IF_ERROR(Get(op, "p90_ms", op_path, AsDouble, &s.p90_ms));
    SB_RETURN_IF_ERROR(Get(op, "p95_ms", op_path, AsDouble, &s.p95_ms));
    SB_RETURN_IF_ERROR(Get(op, "p99_ms", op_path, AsDouble, &s.p99_ms));
    SB_RETURN_IF_ERROR(Get(op, "p999_ms", op_path, AsDouble, &s.p999_ms));
    SB_RETURN_IF_ERROR(Get(op, "max_ms", op_path, AsDouble, &s.max_ms));
    if (op.contains("histogram")) {
      SB_RETURN_IF_ERROR(ReadHistogram(op["histogram"], Child(op_path, "histogram"), &s.histogram));
    }
    types->push_back(std::move(type));
    latency->push_back(s);
    return Status::Ok();
  });
}

Status ReadOperations(const Json& doc, const std::string& base, RunResult* r) {
  const Json* ops = nullptr;
  SB_RETURN_IF_ERROR(GetArray(doc, "operations", base, &ops));
  return ReadOperationList(*ops, Child(base, "operations"), &r->type_names, &r->latency);
}

// The optional keys added within schema_version 1 ("windows", "baselines", "steady_state",
// "warnings"): an absent key leaves the default (documents written before they existed).
const Json* Optional(const Json& obj, std::string_view key) {
  auto it = obj.find(std::string(key));
  return it == obj.end() ? nullptr : &*it;
}

// A key that schema_version 2 added: required from version 2 on; in a version 1 document it is
// absent and *out stays null (the caller keeps the default).
Status Since2(const Json& obj, std::string_view key, const std::string& path, int64_t version,
              const Json** out) {
  *out = Optional(obj, key);
  if (*out == nullptr && version >= 2) return Member(obj, key, path, out);
  return Status::Ok();
}

// A headlines object (name → number or null) into ordered pairs; absent in version 1.
Status ReadHeadlines(const Json& obj, const std::string& path, int64_t version,
                     std::vector<std::pair<std::string, double>>* out) {
  const Json* h = nullptr;
  SB_RETURN_IF_ERROR(Since2(obj, "headlines", path, version, &h));
  if (h == nullptr) return Status::Ok();
  const std::string h_path = Child(path, "headlines");
  if (!h->is_object()) return Expected(h_path, "an object");
  for (const auto& [name, value] : h->items()) {
    double v = 0;
    SB_RETURN_IF_ERROR(AsDouble(value, Child(h_path, name), &v));
    out->emplace_back(name, v);
  }
  return Status::Ok();
}

// A spec's "types" or "counters": (index, weight) pairs. The names are for human readers; the
// index is what counts.
Status ReadTerms(const Json& spec, std::string_view key, const std::string& path,
                 std::vector<std::pair<int, double>>* out) {
  const Json* terms = nullptr;
  SB_RETURN_IF_ERROR(GetArray(spec, key, path, &terms));
  return ForEachObject(*terms, Child(path, key), [&](const Json& tj, const std::string& t_path) {
    int64_t index = 0;
    double weight = 0;
    std::string name;
    SB_RETURN_IF_ERROR(Get(tj, "index", t_path, AsInt64, &index));
    if (index < 0 || index > std::numeric_limits<int>::max()) {
      return Expected(Child(t_path, "index"), "an index >= 0");
    }
    SB_RETURN_IF_ERROR(Get(tj, "name", t_path, AsString, &name));
    SB_RETURN_IF_ERROR(Get(tj, "weight", t_path, AsDouble, &weight));
    out->emplace_back(static_cast<int>(index), weight);
    return Status::Ok();
  });
}

Status ReadHeadlineSpecs(const Json& doc, const std::string& base, int64_t version, RunResult* r) {
  const Json* specs = nullptr;
  SB_RETURN_IF_ERROR(Since2(doc, "headline_specs", base, version, &specs));
  if (specs == nullptr) return Status::Ok();
  return ForEachObject(*specs, Child(base, "headline_specs"),
                       [&](const Json& hj, const std::string& path) {
                         metrics::HeadlineSpec h;
                         SB_RETURN_IF_ERROR(Get(hj, "name", path, AsString, &h.name));
                         SB_RETURN_IF_ERROR(Get(hj, "words", path, AsString, &h.words));
                         SB_RETURN_IF_ERROR(Get(hj, "per_second", path, AsDouble, &h.per_second));
                         SB_RETURN_IF_ERROR(ReadTerms(hj, "types", path, &h.types));
                         SB_RETURN_IF_ERROR(ReadTerms(hj, "counters", path, &h.counters));
                         r->headline_specs.push_back(std::move(h));
                         return Status::Ok();
                       });
}

Status ReadWindows(const Json& doc, const std::string& base, int64_t version, RunResult* r) {
  const Json* windows = Optional(doc, "windows");
  if (windows == nullptr) return Status::Ok();
  const std::string windows_path = Child(base, "windows");
  return ForEachObject(*windows, windows_path, [&](const Json& wj, const std::string& path) {
    metrics::WindowResult w;
    SB_RETURN_IF_ERROR(Get(wj, "label", path, AsString, &w.label));
    SB_RETURN_IF_ERROR(Get(wj, "start_sec", path, AsDouble, &w.start_sec));
    SB_RETURN_IF_ERROR(Get(wj, "end_sec", path, AsDouble, &w.end_sec));
    SB_RETURN_IF_ERROR(Get(wj, "complete", path, AsBool, &w.complete));
    const Json* per_sec = nullptr;
    SB_RETURN_IF_ERROR(GetObject(wj, "per_sec", path, &per_sec));
    const std::string ps_path = Child(path, "per_sec");
    SB_RETURN_IF_ERROR(Get(*per_sec, "min", ps_path, AsDouble, &w.per_sec_min));
    SB_RETURN_IF_ERROR(Get(*per_sec, "mean", ps_path, AsDouble, &w.per_sec_mean));
    SB_RETURN_IF_ERROR(Get(*per_sec, "median", ps_path, AsDouble, &w.per_sec_median));
    SB_RETURN_IF_ERROR(Get(*per_sec, "max", ps_path, AsDouble, &w.per_sec_max));
    SB_RETURN_IF_ERROR(Get(wj, "per_minute", path, AsDouble, &w.per_minute));
    const Json* running = nullptr;
    SB_RETURN_IF_ERROR(GetObject(wj, "running_opm", path, &running));
    const std::string ro_path = Child(path, "running_opm");
    SB_RETURN_IF_ERROR(Get(*running, "start", ro_path, AsDouble, &w.running_start));
    SB_RETURN_IF_ERROR(Get(*running, "end", ro_path, AsDouble, &w.running_end));
    SB_RETURN_IF_ERROR(ReadHeadlines(wj, path, version, &w.headlines));
    const Json* ops = nullptr;
    SB_RETURN_IF_ERROR(GetArray(wj, "operations", path, &ops));
    const std::string ops_path = Child(path, "operations");
    std::vector<std::string> types;
    SB_RETURN_IF_ERROR(ReadOperationList(*ops, ops_path, &types, &w.latency));
    // Window latency is parallel to the top-level operation types.
    if (types != r->type_names) {
      return Status::InvalidArgument(
          "result JSON: " + ops_path + " must list the same types in the same order as " +
          Child(base, "operations") + " (" + std::to_string(r->type_names.size()) + " types)");
    }
    r->windows.push_back(std::move(w));
    return Status::Ok();
  });
}

Status ReadBaselines(const Json& doc, const std::string& base, int64_t version, RunResult* r) {
  const Json* baselines = Optional(doc, "baselines");
  if (baselines == nullptr) return Status::Ok();
  const std::string baselines_path = Child(base, "baselines");
  return ForEachObject(*baselines, baselines_path, [&](const Json& bj, const std::string& path) {
    metrics::BaselineResult b;  // kind "window_mean": the only kind before version 2
    SB_RETURN_IF_ERROR(Get(bj, "rule", path, AsString, &b.rule));
    const Json* kind = nullptr;
    SB_RETURN_IF_ERROR(Since2(bj, "kind", path, version, &kind));
    if (kind != nullptr) SB_RETURN_IF_ERROR(AsString(*kind, Child(path, "kind"), &b.kind));
    SB_RETURN_IF_ERROR(Get(bj, "words", path, AsString, &b.words));
    SB_RETURN_IF_ERROR(Get(bj, "measured", path, AsDouble, &b.measured));
    SB_RETURN_IF_ERROR(Get(bj, "passed", path, AsBool, &b.passed));
    if (Optional(bj, "decided_by") != nullptr) {
      SB_RETURN_IF_ERROR(Get(bj, "decided_by", path, AsString, &b.decided_by));
    }
    r->baselines.push_back(std::move(b));
    return Status::Ok();
  });
}

Status ReadSteadyState(const Json& doc, const std::string& base, RunResult* r) {
  const Json* sj = Optional(doc, "steady_state");
  if (sj == nullptr) return Status::Ok();
  const std::string path = Child(base, "steady_state");
  if (!sj->is_object()) return Expected(path, "an object");
  metrics::SteadyStateResult& s = r->steady_state;
  SB_RETURN_IF_ERROR(Get(*sj, "evaluated", path, AsBool, &s.evaluated));
  SB_RETURN_IF_ERROR(Get(*sj, "steady", path, AsBool, &s.steady));
  SB_RETURN_IF_ERROR(Get(*sj, "slope_pct", path, AsDouble, &s.slope_pct));
  SB_RETURN_IF_ERROR(Get(*sj, "cv_pct", path, AsDouble, &s.cv_pct));
  SB_RETURN_IF_ERROR(Get(*sj, "max_slope_pct", path, AsDouble, &s.max_slope_pct));
  SB_RETURN_IF_ERROR(Get(*sj, "max_cv_pct", path, AsDouble, &s.max_cv_pct));
  SB_RETURN_IF_ERROR(Get(*sj, "detail", path, AsString, &s.detail));
  return Status::Ok();
}

Status ReadWarnings(const Json& doc, const std::string& base, RunResult* r) {
  if (Optional(doc, "warnings") == nullptr) return Status::Ok();
  return GetVector(doc, "warnings", base, AsString, &r->warnings);
}

Status ReadReadings(const Json& obj, std::string_view key, const std::string& parent,
                    bool with_meaning, std::vector<metrics::ServerCheckResult::Reading>* out) {
  const Json* arr = nullptr;
  SB_RETURN_IF_ERROR(GetArray(obj, key, parent, &arr));
  return ForEachObject(*arr, Child(parent, key), [&](const Json& j, const std::string& path) {
    metrics::ServerCheckResult::Reading x;
    SB_RETURN_IF_ERROR(Get(j, "name", path, AsString, &x.name));
    if (with_meaning) SB_RETURN_IF_ERROR(Get(j, "meaning", path, AsString, &x.meaning));
    // "source" (optional): where a server counter was read.
    if (with_meaning && Optional(j, "source") != nullptr) {
      SB_RETURN_IF_ERROR(Get(j, "source", path, AsString, &x.source));
    }
    SB_RETURN_IF_ERROR(Get(j, "before", path, AsInt64, &x.before));
    SB_RETURN_IF_ERROR(Get(j, "after", path, AsInt64, &x.after));
    out->push_back(std::move(x));
    return Status::Ok();
  });
}

// "server_check" was added within schema_version 1: absent means no cross-check was made.
// "sut_cpu" (optional): the system under test's CPU, one array per column.
Status ReadSutCpu(const Json& doc, const std::string& base, RunResult* r) {
  const Json* sj = Optional(doc, "sut_cpu");
  if (sj == nullptr) return Status::Ok();
  const std::string path = Child(base, "sut_cpu");
  if (!sj->is_object()) return Expected(path, "an object");
  metrics::SutCpu& c = r->sut_cpu;
  SB_RETURN_IF_ERROR(Get(*sj, "source", path, AsString, &c.source));
  if (Optional(*sj, "error") != nullptr) {
    SB_RETURN_IF_ERROR(Get(*sj, "error", path, AsString, &c.error));
  }
  SB_RETURN_IF_ERROR(Get(*sj, "measured_mean_pct", path, AsDouble, &c.measured_mean_pct));
  SB_RETURN_IF_ERROR(Get(*sj, "measured_max_pct", path, AsDouble, &c.measured_max_pct));
  const Json* points = nullptr;
  SB_RETURN_IF_ERROR(GetObject(*sj, "points", path, &points));
  const std::string pp = Child(path, "points");
  std::vector<double> t, util, user, sys, iowait, steal;
  SB_RETURN_IF_ERROR(GetVector(*points, "t", pp, AsDouble, &t));
  SB_RETURN_IF_ERROR(GetVector(*points, "utilization_pct", pp, AsDouble, &util));
  SB_RETURN_IF_ERROR(GetVector(*points, "user_pct", pp, AsDouble, &user));
  SB_RETURN_IF_ERROR(GetVector(*points, "system_pct", pp, AsDouble, &sys));
  SB_RETURN_IF_ERROR(GetVector(*points, "iowait_pct", pp, AsDouble, &iowait));
  SB_RETURN_IF_ERROR(GetVector(*points, "steal_pct", pp, AsDouble, &steal));
  for (size_t k = 0; k < t.size(); ++k) {
    if (util.size() <= k || user.size() <= k || sys.size() <= k || iowait.size() <= k ||
        steal.size() <= k) {
      return Expected(pp, "arrays of equal length");
    }
    c.points.push_back({t[k], util[k], user[k], sys[k], iowait[k], steal[k]});
  }
  return Status::Ok();
}

Status ReadServerCheck(const Json& doc, const std::string& base, RunResult* r) {
  const Json* sj = Optional(doc, "server_check");
  if (sj == nullptr) return Status::Ok();
  const std::string path = Child(base, "server_check");
  if (!sj->is_object()) return Expected(path, "an object");
  metrics::ServerCheckResult& c = r->server_check;
  c.present = true;
  SB_RETURN_IF_ERROR(Get(*sj, "span", path, AsString, &c.span));
  SB_RETURN_IF_ERROR(Get(*sj, "start_exact", path, AsBool, &c.start_exact));
  SB_RETURN_IF_ERROR(Get(*sj, "hold_ms", path, AsDouble, &c.hold_ms));
  SB_RETURN_IF_ERROR(Get(*sj, "counters_settled", path, AsBool, &c.counters_settled));
  if (Optional(*sj, "error") != nullptr) {
    SB_RETURN_IF_ERROR(Get(*sj, "error", path, AsString, &c.error));
  }
  SB_RETURN_IF_ERROR(Get(*sj, "client_units", path, AsUint64, &c.client_units));
  SB_RETURN_IF_ERROR(ReadReadings(*sj, "server_counters", path, true, &c.server_counters));
  SB_RETURN_IF_ERROR(ReadReadings(*sj, "probe", path, false, &c.probe));
  const Json* comparisons = nullptr;
  SB_RETURN_IF_ERROR(GetArray(*sj, "comparisons", path, &comparisons));
  for (size_t i = 0; i < comparisons->size(); ++i) {
    const std::string mp = Element(Child(path, "comparisons"), i);
    const Json& mj = (*comparisons)[i];
    if (!mj.is_object()) return Expected(mp, "an object");
    metrics::ServerCheckResult::Comparison m;
    SB_RETURN_IF_ERROR(Get(mj, "name", mp, AsString, &m.name));
    SB_RETURN_IF_ERROR(Get(mj, "client", mp, AsInt64, &m.client));
    SB_RETURN_IF_ERROR(Get(mj, "server", mp, AsInt64, &m.server));
    SB_RETURN_IF_ERROR(Get(mj, "relation", mp, AsString, &m.relation));
    SB_RETURN_IF_ERROR(Get(mj, "passed", mp, AsBool, &m.passed));
    SB_RETURN_IF_ERROR(Get(mj, "detail", mp, AsString, &m.detail));
    c.comparisons.push_back(std::move(m));
  }
  return Status::Ok();
}

Status ReadIoCountsObject(const Json& j, const std::string& path, metrics::IoCounts* c) {
  if (!j.is_object()) return Expected(path, "an object");
  SB_RETURN_IF_ERROR(Get(j, "read_ios", path, AsUint64, &c->read_ios));
  SB_RETURN_IF_ERROR(Get(j, "write_ios", path, AsUint64, &c->write_ios));
  SB_RETURN_IF_ERROR(Get(j, "read_bytes", path, AsUint64, &c->read_bytes));
  SB_RETURN_IF_ERROR(Get(j, "write_bytes", path, AsUint64, &c->write_bytes));
  SB_RETURN_IF_ERROR(Get(j, "read_errors", path, AsUint64, &c->read_errors));
  SB_RETURN_IF_ERROR(Get(j, "write_errors", path, AsUint64, &c->write_errors));
  SB_RETURN_IF_ERROR(Get(j, "read_latency_sum_ns", path, AsInt64, &c->read_latency_sum_ns));
  SB_RETURN_IF_ERROR(Get(j, "write_latency_sum_ns", path, AsInt64, &c->write_latency_sum_ns));
  SB_RETURN_IF_ERROR(Get(j, "read_latency_max_ns", path, AsInt64, &c->read_latency_max_ns));
  SB_RETURN_IF_ERROR(Get(j, "write_latency_max_ns", path, AsInt64, &c->write_latency_max_ns));
  std::vector<uint64_t> bins;
  SB_RETURN_IF_ERROR(GetVector(j, "iometer_latency_bins", path, AsUint64, &bins));
  if (bins.size() != metrics::kIometerBins) {
    return Expected(Child(path, "iometer_latency_bins"), "an array of 21 counts");
  }
  std::copy(bins.begin(), bins.end(), c->latency_bins.begin());
  return Status::Ok();
}

Status ReadIoCounts(const Json& obj, std::string_view key, const std::string& parent,
                    metrics::IoCounts* c) {
  const Json* j = nullptr;
  SB_RETURN_IF_ERROR(GetObject(obj, key, parent, &j));
  const std::string path = Child(parent, key);
  return ReadIoCountsObject(*j, path, c);
}

Status ReadStorage(const Json& doc, const std::string& base, int64_t version, RunResult* r) {
  const Json* storage = Optional(doc, "storage");
  if (storage == nullptr) return Status::Ok();
  const std::string storage_path = Child(base, "storage");
  return ForEachObject(*storage, storage_path, [&](const Json& tj, const std::string& path) {
    metrics::StorageTest t;
    int64_t workers = 0, outstanding = 0, cpus = 0;
    SB_RETURN_IF_ERROR(Get(tj, "name", path, AsString, &t.name));
    SB_RETURN_IF_ERROR(GetVector(tj, "spec_lines", path, AsString, &t.spec_lines));
    std::string target_names;
    uint64_t range_start = 0, range_bytes = 0;
    SB_RETURN_IF_ERROR(Get(tj, "target", path, AsString, &target_names));
    SB_RETURN_IF_ERROR(Get(tj, "engine", path, AsString, &t.engine));
    SB_RETURN_IF_ERROR(Get(tj, "workers", path, AsInt64, &workers));
    SB_RETURN_IF_ERROR(Get(tj, "outstanding", path, AsInt64, &outstanding));
    SB_RETURN_IF_ERROR(Get(tj, "direct", path, AsBool, &t.direct));
    SB_RETURN_IF_ERROR(Get(tj, "data_pattern", path, AsString, &t.data_pattern));
    SB_RETURN_IF_ERROR(Get(tj, "range_start_bytes", path, AsUint64, &range_start));
    SB_RETURN_IF_ERROR(Get(tj, "range_bytes", path, AsUint64, &range_bytes));
    SB_RETURN_IF_ERROR(Get(tj, "ramp_sec", path, AsDouble, &t.ramp_sec));
    SB_RETURN_IF_ERROR(Get(tj, "measured_sec", path, AsDouble, &t.measured_sec));
    SB_RETURN_IF_ERROR(Get(tj, "interrupted", path, AsBool, &t.interrupted));
    if (Optional(tj, "rate_iops") != nullptr) {
      SB_RETURN_IF_ERROR(Get(tj, "rate_iops", path, AsDouble, &t.rate_iops));
      SB_RETURN_IF_ERROR(Get(tj, "arrival", path, AsString, &t.arrival));
    }
    if (Optional(tj, "stopped") != nullptr) {
      SB_RETURN_IF_ERROR(Get(tj, "stopped", path, AsString, &t.stopped));
    }
    t.workers = static_cast<int>(workers);
    t.outstanding = static_cast<int>(outstanding);
    // Documents from before the field submitted every free slot in one call.
    t.submit_batch = 0;
    if (const Json* b = Optional(tj, "submit_batch"); b != nullptr) {
      int64_t batch = 0;
      SB_RETURN_IF_ERROR(Get(tj, "submit_batch", path, AsInt64, &batch));
      t.submit_batch = static_cast<int>(batch);
    }
    const Json* pct = nullptr;
    SB_RETURN_IF_ERROR(GetObject(tj, "percentiles", path, &pct));
    const std::string pp = Child(path, "percentiles");
    const std::pair<const char*, double*> pcts[] = {
        {"read_p50_ms", &t.read_p50_ms},   {"read_p99_ms", &t.read_p99_ms},
        {"read_p999_ms", &t.read_p999_ms}, {"write_p50_ms", &t.write_p50_ms},
        {"write_p99_ms", &t.write_p99_ms}, {"write_p999_ms", &t.write_p999_ms},
        {"p50_ms", &t.all_p50_ms},         {"p90_ms", &t.all_p90_ms},
        {"p99_ms", &t.all_p99_ms},         {"p999_ms", &t.all_p999_ms},
        {"p9999_ms", &t.all_p9999_ms}};
    for (const auto& [k, out] : pcts) SB_RETURN_IF_ERROR(Get(*pct, k, pp, AsDouble, out));
    SB_RETURN_IF_ERROR(ReadIoCounts(tj, "totals", path, &t.totals));
    const Json* per = nullptr;
    SB_RETURN_IF_ERROR(GetArray(tj, "per_worker", path, &per));
    for (size_t w = 0; w < per->size(); ++w) {
      metrics::IoCounts c;
      SB_RETURN_IF_ERROR(ReadIoCountsObject((*per)[w], Element(Child(path, "per_worker"), w), &c));
      t.per_worker.push_back(c);
    }
    // "targets" and "per_worker_target" came with multi-target runs; before, one target.
    if (const Json* targets = Optional(tj, "targets"); targets != nullptr) {
      SB_RETURN_IF_ERROR(ForEachObject(
          *targets, Child(path, "targets"), [&](const Json& one, const std::string& ep) {
            metrics::StorageTarget target;
            SB_RETURN_IF_ERROR(Get(one, "path", ep, AsString, &target.path));
            SB_RETURN_IF_ERROR(
                Get(one, "range_start_bytes", ep, AsUint64, &target.range_start_bytes));
            SB_RETURN_IF_ERROR(Get(one, "range_bytes", ep, AsUint64, &target.range_bytes));
            // "extents", "extents_note" and "filesystem" came with the fragmentation tools
            // (docs/storage.md, "Fragmentation"); null: none.
            if (const Json* e = Optional(one, "extents"); e != nullptr && !e->is_null()) {
              SB_RETURN_IF_ERROR(Get(one, "extents", ep, AsInt64, &target.extents));
            }
            if (Optional(one, "extents_note") != nullptr) {
              SB_RETURN_IF_ERROR(Get(one, "extents_note", ep, AsString, &target.extents_note));
            }
            if (Optional(one, "filesystem") != nullptr) {
              SB_RETURN_IF_ERROR(Get(one, "filesystem", ep, AsString, &target.filesystem));
            }
            t.targets.push_back(std::move(target));
            return Status::Ok();
          }));
      const Json* pwt = nullptr;
      SB_RETURN_IF_ERROR(GetArray(tj, "per_worker_target", path, &pwt));
      const std::string pp = Child(path, "per_worker_target");
      for (size_t w = 0; w < pwt->size(); ++w) {
        const std::string wp = Element(pp, w);
        if (!(*pwt)[w].is_array()) return Expected(wp, "an array");
        t.per_worker_target.emplace_back();
        for (size_t k = 0; k < (*pwt)[w].size(); ++k) {
          metrics::IoCounts c;
          SB_RETURN_IF_ERROR(ReadIoCountsObject((*pwt)[w][k], Element(wp, k), &c));
          t.per_worker_target.back().push_back(c);
        }
      }
    } else {
      metrics::StorageTarget only;
      only.path = target_names;
      only.range_start_bytes = range_start;
      only.range_bytes = range_bytes;
      t.targets.push_back(std::move(only));
      for (const auto& c : t.per_worker) t.per_worker_target.push_back({c});
    }
    const Json* cpu = nullptr;
    SB_RETURN_IF_ERROR(GetObject(tj, "cpu", path, &cpu));
    const std::string cp = Child(path, "cpu");
    SB_RETURN_IF_ERROR(Get(*cpu, "cpus", cp, AsInt64, &cpus));
    t.cpu.cpus = static_cast<int>(cpus);
    const std::pair<const char*, double*> cpu_fields[] = {
        {"utilization_pct", &t.cpu.utilization_pct},
        {"user_pct", &t.cpu.user_pct},
        {"system_pct", &t.cpu.system_pct},
        {"irq_pct", &t.cpu.irq_pct},
        {"softirq_pct", &t.cpu.softirq_pct},
        {"steal_pct", &t.cpu.steal_pct},
        {"iowait_pct", &t.cpu.iowait_pct},
        {"interrupts_per_sec", &t.cpu.interrupts_per_sec}};
    for (const auto& [k, out] : cpu_fields) SB_RETURN_IF_ERROR(Get(*cpu, k, cp, AsDouble, out));
    SB_RETURN_IF_ERROR(Get(tj, "driver_cpu_sec", path, AsDouble, &t.driver_cpu_sec));
    const Json* series = nullptr;
    SB_RETURN_IF_ERROR(GetObject(tj, "series", path, &series));
    const std::string sp = Child(path, "series");
    std::vector<double> ts, mean, p99, mx;
    std::vector<std::string> phase;
    std::vector<uint64_t> ri, wi, rb, wb;
    SB_RETURN_IF_ERROR(GetVector(*series, "t", sp, AsDouble, &ts));
    SB_RETURN_IF_ERROR(GetVector(*series, "phase", sp, AsString, &phase));
    SB_RETURN_IF_ERROR(GetVector(*series, "read_ios", sp, AsUint64, &ri));
    SB_RETURN_IF_ERROR(GetVector(*series, "write_ios", sp, AsUint64, &wi));
    SB_RETURN_IF_ERROR(GetVector(*series, "read_bytes", sp, AsUint64, &rb));
    SB_RETURN_IF_ERROR(GetVector(*series, "write_bytes", sp, AsUint64, &wb));
    SB_RETURN_IF_ERROR(GetVector(*series, "mean_ms", sp, AsDouble, &mean));
    SB_RETURN_IF_ERROR(GetVector(*series, "p99_ms", sp, AsDouble, &p99));
    SB_RETURN_IF_ERROR(GetVector(*series, "max_ms", sp, AsDouble, &mx));
    for (size_t k = 0; k < ts.size(); ++k) {
      if (phase.size() <= k || ri.size() <= k || wi.size() <= k || rb.size() <= k ||
          wb.size() <= k || mean.size() <= k || p99.size() <= k || mx.size() <= k) {
        return Expected(sp, "arrays of equal length");
      }
      t.series.push_back({ts[k], phase[k], ri[k], wi[k], rb[k], wb[k], mean[k], p99[k], mx[k]});
    }
    // Windows and baselines of the test (optional): read as a run's, with its three types.
    RunResult wind;
    wind.type_names = {"io", "read", "write"};
    SB_RETURN_IF_ERROR(ReadWindows(tj, path, version, &wind));
    SB_RETURN_IF_ERROR(ReadBaselines(tj, path, version, &wind));
    t.windows = std::move(wind.windows);
    t.baselines = std::move(wind.baselines);
    r->storage.push_back(std::move(t));
    return Status::Ok();
  });
}

Status ReadTimeSeries(const Json& doc, const std::string& base, metrics::TimeSeries* ts) {
  const Json* series = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "time_series", base, &series));
  const std::string path = Child(base, "time_series");
  SB_RETURN_IF_ERROR(Get(*series, "interval_sec", path, AsDouble, &ts->interval_sec));
  SB_RETURN_IF_ERROR(GetVector(*series, "type_names", path, AsString, &ts->type_names));
  SB_RETURN_IF_ERROR(GetVector(*series, "counter_names", path, AsString, &ts->counter_names));
  const Json* points = nullptr;
  SB_RETURN_IF_ERROR(GetArray(*series, "points", path, &points));
  ts->points.reserve(points->size());
  for (size_t i = 0; i < points->size(); ++i) {
    const std::string p_path = Element(path + ".points", i);
    const Json& pj = (*points)[i];
    if (!pj.is_object()) return Expected(p_path, "an object");
    metrics::IntervalPoint p;
    SB_RETURN_IF_ERROR(Get(pj, "t", p_path, AsDouble, &p.t_sec));
    SB_RETURN_IF_ERROR(Get(pj, "phase", p_path, AsString, &p.phase));
    SB_RETURN_IF_ERROR(GetVector(pj, "counts", p_path, AsUint64, &p.type_counts));
    SB_RETURN_IF_ERROR(GetVector(pj, "mean_ms", p_path, AsDouble, &p.type_mean_ms));
    SB_RETURN_IF_ERROR(GetVector(pj, "p99_ms", p_path, AsDouble, &p.type_p99_ms));
    SB_RETURN_IF_ERROR(GetVector(pj, "counters", p_path, AsInt64, &p.counters));
    const size_t types = ts->type_names.size();
    if (p.type_counts.size() != types || p.type_mean_ms.size() != types ||
        p.type_p99_ms.size() != types) {
      return Status::InvalidArgument("result JSON: " + p_path +
                                     ": counts, mean_ms and p99_ms must have one entry per "
                                     "time_series.type_names entry (" +
                                     std::to_string(types) + ")");
    }
    if (p.counters.size() != ts->counter_names.size()) {
      return Status::InvalidArgument("result JSON: " + p_path +
                                     ".counters must have one entry per "
                                     "time_series.counter_names entry (" +
                                     std::to_string(ts->counter_names.size()) + ")");
    }
    ts->points.push_back(std::move(p));
  }
  return Status::Ok();
}

}  // namespace

Status ReadDocument(const Json& doc, const std::string& base, RunResult* r) {
  if (!doc.is_object()) return Status::InvalidArgument("result JSON: expected an object");
  int64_t version = 0;
  SB_RETURN_IF_ERROR(Get(doc, "schema_version", base, AsInt64, &version));
  if (version > kResultSchemaVersion) {
    return Status::FailedPrecondition("result JSON has schema_version " + std::to_string(version) +
                                      ", newer than this storebench reads (" +
                                      std::to_string(kResultSchemaVersion) +
                                      "); use a newer storebench");
  }
  if (version < 1) return Expected(Child(base, "schema_version"), "an integer >= 1");

  // "name" and "target" identify an instance document (see "instances").
  if (Optional(doc, "name") != nullptr) {
    SB_RETURN_IF_ERROR(Get(doc, "name", base, AsString, &r->name));
    SB_RETURN_IF_ERROR(Get(doc, "target", base, AsString, &r->target));
  }
  SB_RETURN_IF_ERROR(Get(doc, "workload", base, AsString, &r->workload));
  if (Optional(doc, "label") != nullptr) {
    SB_RETURN_IF_ERROR(Get(doc, "label", base, AsString, &r->label));
  }
  SB_RETURN_IF_ERROR(Get(doc, "started_at", base, AsString, &r->started_at));
  if (Optional(doc, "first_unit_sec") != nullptr) {
    SB_RETURN_IF_ERROR(Get(doc, "first_unit_at", base, AsString, &r->first_unit_at));
    SB_RETURN_IF_ERROR(Get(doc, "first_unit_sec", base, AsDouble, &r->first_unit_sec));
  }
  SB_RETURN_IF_ERROR(Get(doc, "ended_at", base, AsString, &r->ended_at));
  SB_RETURN_IF_ERROR(Get(doc, "interrupted", base, AsBool, &r->interrupted));
  SB_RETURN_IF_ERROR(Get(doc, "loop_model", base, AsString, &r->loop_model));
  if (doc.contains("scale_out") && doc["scale_out"].is_object()) {
    r->scale_out_json = doc["scale_out"].dump();
  }
  if (const Json* rj = Optional(doc, "restore"); rj != nullptr) {
    const std::string rp = Child(base, "restore");
    SB_RETURN_IF_ERROR(Get(*rj, "method", rp, AsString, &r->restore_method));
    SB_RETURN_IF_ERROR(Get(*rj, "seconds", rp, AsDouble, &r->restore_seconds));
  }

  const Json* headline = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "headline", base, &headline));
  const std::string hp = Child(base, "headline");
  SB_RETURN_IF_ERROR(Get(*headline, "name", hp, AsString, &r->headline_name));
  SB_RETURN_IF_ERROR(Get(*headline, "value", hp, AsDouble, &r->headline_value));
  SB_RETURN_IF_ERROR(ReadHeadlines(doc, base, version, &r->headlines));
  SB_RETURN_IF_ERROR(ReadHeadlineSpecs(doc, base, version, r));

  const Json* config = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "config", base, &config));
  r->config_json = Dump(*config, -1);
  SB_RETURN_IF_ERROR(GetMap(doc, "environment", base, AsString, &r->environment));
  SB_RETURN_IF_ERROR(GetMap(doc, "choices", base, AsString, &r->choices));
  SB_RETURN_IF_ERROR(Get(doc, "measured_sec", base, AsDouble, &r->measured_sec));

  SB_RETURN_IF_ERROR(ReadOperations(doc, base, r));
  SB_RETURN_IF_ERROR(GetMap(doc, "counters", base, AsInt64, &r->counters));
  SB_RETURN_IF_ERROR(GetMap(doc, "errors", base, AsInt64, &r->errors));
  SB_RETURN_IF_ERROR(Get(doc, "retries", base, AsInt64, &r->retries));
  const Json* workers = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "workers", base, &workers));
  const std::string wp = Child(base, "workers");
  SB_RETURN_IF_ERROR(Get(*workers, "started", wp, AsInt64, &r->workers_started));
  SB_RETURN_IF_ERROR(Get(*workers, "failed", wp, AsInt64, &r->workers_failed));
  if (Optional(*workers, "stalled") != nullptr) {
    SB_RETURN_IF_ERROR(Get(*workers, "stalled", wp, AsInt64, &r->workers_stalled));
  }
  if (Optional(*workers, "connect_sec") != nullptr) {
    SB_RETURN_IF_ERROR(Get(*workers, "connect_sec", wp, AsDouble, &r->connect_sec));
  }
  // Optional (added within schema_version 1): each worker's share of the measured window.
  if (Optional(*workers, "units") != nullptr) {
    std::vector<uint64_t> units;
    std::vector<double> busy;
    SB_RETURN_IF_ERROR(GetVector(*workers, "units", wp, AsUint64, &units));
    SB_RETURN_IF_ERROR(GetVector(*workers, "busy_sec", wp, AsDouble, &busy));
    if (units.size() != busy.size()) return Expected(wp, "units and busy_sec of equal length");
    for (size_t k = 0; k < units.size(); ++k) r->threads.push_back({units[k], busy[k]});
  }

  const Json* figures = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "figures", base, &figures));
  for (const auto& [name, value] : figures->items()) {
    double v = 0;
    SB_RETURN_IF_ERROR(AsDouble(value, Child(Child(base, "figures"), name), &v));
    r->figures.emplace_back(name, v);
  }

  const Json* status = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "final_status", base, &status));
  metrics::StatusFigures& f = r->final_status;
  const std::string sp = Child(base, "final_status");
  SB_RETURN_IF_ERROR(Get(*status, "et_sec", sp, AsDouble, &f.et_sec));
  SB_RETURN_IF_ERROR(Get(*status, "n_overall", sp, AsInt64, &f.n_overall));
  SB_RETURN_IF_ERROR(Get(*status, "opm", sp, AsInt64, &f.opm));
  SB_RETURN_IF_ERROR(Get(*status, "rt_tot_lastn_max_msec", sp, AsInt64, &f.rt_tot_lastn_max_msec));
  SB_RETURN_IF_ERROR(Get(*status, "rt_tot_avg_msec", sp, AsInt64, &f.rt_tot_avg_msec));
  SB_RETURN_IF_ERROR(Get(*status, "rt_tot_sampled", sp, AsInt64, &f.rt_tot_sampled));
  SB_RETURN_IF_ERROR(Get(*status, "n_rollbacks", sp, AsInt64, &f.n_rollbacks));
  SB_RETURN_IF_ERROR(Get(*status, "rollback_pct", sp, AsDouble, &f.rollback_pct));

  const Json* driver = nullptr;
  SB_RETURN_IF_ERROR(GetObject(doc, "driver", base, &driver));
  const std::string dp = Child(base, "driver");
  SB_RETURN_IF_ERROR(Get(*driver, "cpu_sec", dp, AsDouble, &r->driver_cpu_sec));
  SB_RETURN_IF_ERROR(Get(*driver, "cpu_sec_per_op", dp, AsDouble, &r->driver_cpu_sec_per_op));
  SB_RETURN_IF_ERROR(Get(*driver, "cpu_share_of_core", dp, AsDouble, &r->driver_cpu_share));

  SB_RETURN_IF_ERROR(ReadWindows(doc, base, version, r));
  SB_RETURN_IF_ERROR(ReadBaselines(doc, base, version, r));
  SB_RETURN_IF_ERROR(ReadSteadyState(doc, base, r));
  SB_RETURN_IF_ERROR(ReadWarnings(doc, base, r));
  SB_RETURN_IF_ERROR(ReadStorage(doc, base, version, r));
  SB_RETURN_IF_ERROR(ReadServerCheck(doc, base, r));
  SB_RETURN_IF_ERROR(ReadSutCpu(doc, base, r));
  SB_RETURN_IF_ERROR(ReadPower(doc, base, &r->power));

  const Json* verify = nullptr;
  SB_RETURN_IF_ERROR(GetArray(doc, "verify", base, &verify));
  SB_RETURN_IF_ERROR(
      ForEachObject(*verify, Child(base, "verify"), [&](const Json& cj, const std::string& path) {
        RunResult::Check c;
        SB_RETURN_IF_ERROR(Get(cj, "name", path, AsString, &c.name));
        SB_RETURN_IF_ERROR(Get(cj, "passed", path, AsBool, &c.passed));
        SB_RETURN_IF_ERROR(Get(cj, "detail", path, AsString, &c.detail));
        r->verify.push_back(std::move(c));
        return Status::Ok();
      }));

  // Each instance's result is a complete document of its own ("instances" came with version 2;
  // absent: a run of one instance).
  if (const Json* instances = Optional(doc, "instances"); instances != nullptr) {
    SB_RETURN_IF_ERROR(ForEachObject(*instances, Child(base, "instances"),
                                     [&](const Json& ij, const std::string& path) {
                                       RunResult one;
                                       SB_RETURN_IF_ERROR(ReadDocument(ij, path, &one));
                                       r->instances.push_back(std::move(one));
                                       return Status::Ok();
                                     }));
  }

  return ReadTimeSeries(doc, base, &r->series);
}

}  // namespace sb::report::internal
