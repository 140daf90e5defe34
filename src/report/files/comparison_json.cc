// The comparison document: written by `storebench compare --json`, read by `storebench report`.
#include "report/files/comparison_json.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "report/files/json_report.h"

namespace sb::report {

namespace {

using Json = nlohmann::ordered_json;

Json Num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

double ToNum(const Json& j) {
  return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::string ComparisonToJson(const Comparison& c) {
  Json j;
  j["kind"] = kComparisonKind;
  j["schema_version"] = kComparisonSchemaVersion;
  j["tool"] = {{"name", "storebench"}, {"version", ToolVersion()}};
  j["workload"] = c.workload;
  j["method"] = {{"statistic", "ratio of means (B / A)"},
                 {"interval",
                  "percentile bootstrap, hierarchical: runs, then instances within "
                  "each resampled run"},
                 {"confidence", c.options.confidence},
                 {"resamples", c.options.resamples},
                 {"seed", c.options.seed},
                 {"normalize", c.options.normalize},
                 {"forced", c.options.force}};
  j["mismatches"] = c.mismatches;
  Json groups = Json::array();
  for (size_t g = 0; g < c.labels.size(); ++g) {
    groups.push_back({{"label", c.labels[g]}, {"files", c.files[g]}});
  }
  j["groups"] = std::move(groups);
  Json metrics = Json::array();
  for (const MetricComparison& m : c.metrics) {
    Json mj;
    mj["name"] = m.name;
    mj["words"] = m.words;
    mj["lower_is_better"] = m.lower_is_better;
    mj["reference"] = m.reference;
    Json gs = Json::array();
    for (const GroupFigures& g : m.groups) {
      Json values = Json::array();
      for (double v : g.values) values.push_back(Num(v));
      gs.push_back({{"label", g.label},
                    {"runs", g.runs},
                    {"median", Num(g.median)},
                    {"min", Num(g.min)},
                    {"max", Num(g.max)},
                    {"mean", Num(g.mean)},
                    {"stddev", Num(g.stddev)},
                    {"normalized_pct", Num(g.normalized_pct)},
                    {"values", std::move(values)}});
    }
    mj["groups"] = std::move(gs);
    Json ps = Json::array();
    for (const PairFigures& p : m.pairs) {
      Json pj = {{"a", p.a}, {"b", p.b}, {"ratio", Num(p.ratio)}};
      if (p.has_interval) {
        pj["ci_low"] = Num(p.low);
        pj["ci_high"] = Num(p.high);
      } else {
        pj["ci_low"] = nullptr;
        pj["ci_high"] = nullptr;
        pj["no_interval"] = p.no_interval;
      }
      pj["verdict"] = p.verdict;
      pj["better"] = p.better;
      ps.push_back(std::move(pj));
    }
    mj["pairs"] = std::move(ps);
    metrics.push_back(std::move(mj));
  }
  j["metrics"] = std::move(metrics);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<Comparison> ComparisonFromJson(const std::string& text) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("kind") || !j["kind"].is_string() ||
      j["kind"].get<std::string>() != kComparisonKind) {
    return Status::InvalidArgument("not a storebench comparison document");
  }
  // value() would throw on a version of another type (type_error.302).
  const auto v = j.find("schema_version");
  if (v != j.end() && !v->is_number_integer()) {
    return Status::InvalidArgument(
        "malformed comparison document: schema_version is not an integer");
  }
  const int64_t version = v == j.end() ? 0 : v->get<int64_t>();
  if (version > kComparisonSchemaVersion) {
    return Status::FailedPrecondition("comparison has schema_version " + std::to_string(version) +
                                      ", newer than this "
                                      "storebench reads (" +
                                      std::to_string(kComparisonSchemaVersion) +
                                      "); use a newer storebench");
  }
  try {
    Comparison c;
    c.workload = j.at("workload").get<std::string>();
    const Json& method = j.at("method");
    c.options.confidence = method.at("confidence").get<double>();
    c.options.resamples = method.at("resamples").get<int>();
    c.options.seed = method.at("seed").get<uint64_t>();
    c.options.normalize = method.at("normalize").get<std::string>();
    c.options.force = method.at("forced").get<bool>();
    c.mismatches = j.at("mismatches").get<std::vector<std::string>>();
    for (const Json& g : j.at("groups")) {
      c.labels.push_back(g.at("label").get<std::string>());
      c.files.push_back(g.at("files").get<std::vector<std::string>>());
    }
    for (const Json& mj : j.at("metrics")) {
      MetricComparison m;
      m.name = mj.at("name").get<std::string>();
      m.words = mj.at("words").get<std::string>();
      m.lower_is_better = mj.at("lower_is_better").get<bool>();
      m.reference = mj.at("reference").get<std::string>();
      for (const Json& gj : mj.at("groups")) {
        GroupFigures g;
        g.label = gj.at("label").get<std::string>();
        g.runs = gj.at("runs").get<int>();
        g.median = ToNum(gj.at("median"));
        g.min = ToNum(gj.at("min"));
        g.max = ToNum(gj.at("max"));
        g.mean = ToNum(gj.at("mean"));
        g.stddev = ToNum(gj.at("stddev"));
        g.normalized_pct = ToNum(gj.at("normalized_pct"));
        for (const Json& v : gj.at("values")) g.values.push_back(ToNum(v));
        m.groups.push_back(std::move(g));
      }
      for (const Json& pj : mj.at("pairs")) {
        PairFigures p;
        p.a = pj.at("a").get<std::string>();
        p.b = pj.at("b").get<std::string>();
        p.ratio = ToNum(pj.at("ratio"));
        p.has_interval = pj.at("ci_low").is_number() && pj.at("ci_high").is_number();
        p.low = ToNum(pj.at("ci_low"));
        p.high = ToNum(pj.at("ci_high"));
        p.no_interval = pj.value("no_interval", "");
        p.verdict = pj.at("verdict").get<std::string>();
        p.better = pj.at("better").get<bool>();
        m.pairs.push_back(std::move(p));
      }
      c.metrics.push_back(std::move(m));
    }
    return c;
  } catch (const Json::exception& e) {
    return Status::InvalidArgument(std::string("malformed comparison document: ") + e.what());
  }
}

}  // namespace sb::report
