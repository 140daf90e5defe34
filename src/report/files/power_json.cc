// The result document's "power" section (docs/output-schema.md), written and read back.
#include <cmath>
#include <limits>
#include <string>

#include "report/files/json_document.h"

namespace sb::report::internal {

namespace {

Status Bad(const std::string& path, const char* what) {
  return Status::InvalidArgument("result JSON: " + path + ": expected " + what);
}

// A number (null: NaN), a string, a bool or an integer at obj[key]; a missing key is an error.
Status Field(const Json& obj, const char* key, const std::string& path, double* out) {
  if (!obj.contains(key)) return Bad(path + "." + key, "a number");
  const Json& v = obj[key];
  if (v.is_null()) {
    *out = std::numeric_limits<double>::quiet_NaN();
  } else if (v.is_number()) {
    *out = v.get<double>();
  } else {
    return Bad(path + "." + key, "a number");
  }
  return Status::Ok();
}
Status Field(const Json& obj, const char* key, const std::string& path, int64_t* out) {
  if (!obj.contains(key) || !obj[key].is_number_integer()) {
    return Bad(path + "." + key, "an integer");
  }
  *out = obj[key].get<int64_t>();
  return Status::Ok();
}
Status Field(const Json& obj, const char* key, const std::string& path, std::string* out) {
  if (!obj.contains(key) || !obj[key].is_string()) return Bad(path + "." + key, "a string");
  *out = obj[key].get<std::string>();
  return Status::Ok();
}
Status Field(const Json& obj, const char* key, const std::string& path, bool* out) {
  if (!obj.contains(key) || !obj[key].is_boolean()) return Bad(path + "." + key, "true or false");
  *out = obj[key].get<bool>();
  return Status::Ok();
}
Status Numbers(const Json& v, const std::string& path, std::vector<double>* out) {
  if (!v.is_array()) return Bad(path, "an array");
  for (const Json& x : v) {
    if (x.is_null()) {
      out->push_back(std::numeric_limits<double>::quiet_NaN());
    } else if (x.is_number()) {
      out->push_back(x.get<double>());
    } else {
      return Bad(path, "an array of numbers");
    }
  }
  return Status::Ok();
}
Status Figures(const Json& v, const std::string& path,
               std::vector<std::pair<std::string, double>>* out) {
  if (!v.is_object()) return Bad(path, "an object");
  for (const auto& [k, x] : v.items()) {
    if (!x.is_number() && !x.is_null()) {
      std::string at = path;
      at += ".";
      at += k;
      return Bad(at, "a number");
    }
    out->emplace_back(k, x.is_null() ? std::numeric_limits<double>::quiet_NaN() : x.get<double>());
  }
  return Status::Ok();
}

}  // namespace

Json PowerToJson(const metrics::PowerResult& p) {
  Json j = Json::object();
  j["interval_sec"] = Num(p.interval_sec);
  Json sources = Json::array();
  for (const metrics::PowerSourceResult& s : p.sources) {
    Json o = Json::object();
    o["spec"] = s.spec;
    o["description"] = s.description;
    o["measures"] = s.measures;
    o["resolution_w"] = s.resolution_w > 0 ? Num(s.resolution_w) : Json(nullptr);
    o["uncertainty"] = s.uncertainty >= 0 ? Num(s.uncertainty) : Json(nullptr);
    o["note"] = s.note;
    o["live"] = s.live;
    o["readings"] = s.readings;
    o["missing"] = s.missing;
    Json at = Json::array();
    for (double t : s.missing_at_sec) at.push_back(Num(t));
    o["missing_at_sec"] = std::move(at);
    Json errors = Json::array();
    for (const std::string& e : s.errors) errors.push_back(e);
    o["errors"] = std::move(errors);
    o["clock_offset_sec"] = s.has_clock_offset ? Num(s.clock_offset_sec) : Json(nullptr);
    sources.push_back(std::move(o));
  }
  j["sources"] = std::move(sources);
  // One array per column (compact for long runs); watts: one array per source.
  Json t = Json::array(), sum = Json::array(), watts = Json::array();
  for (size_t i = 0; i < p.sources.size(); ++i) watts.push_back(Json::array());
  for (const metrics::PowerPoint& pt : p.points) {
    t.push_back(Num(pt.t_sec));
    sum.push_back(Num(pt.sum_w));
    for (size_t i = 0; i < p.sources.size(); ++i) {
      watts[i].push_back(i < pt.watts.size() ? Num(pt.watts[i]) : Json(nullptr));
    }
  }
  Json points = Json::object();
  points["t"] = std::move(t);
  points["sum_w"] = std::move(sum);
  points["watts"] = std::move(watts);
  j["points"] = std::move(points);
  Json windows = Json::array();
  for (const metrics::PowerWindow& w : p.windows) {
    Json o = Json::object();
    o["label"] = w.label;
    o["start_sec"] = Num(w.start_sec);
    o["end_sec"] = Num(w.end_sec);
    o["seconds"] = w.seconds;
    o["missing"] = w.missing;
    o["avg_w"] = Num(w.avg_w);
    o["energy_j"] = Num(w.energy_j);
    Json per_watt = Json::object(), per_unit = Json::object();
    for (const auto& [k, v] : w.per_watt) per_watt[k] = Num(v);
    for (const auto& [k, v] : w.joules_per_unit) per_unit[k] = Num(v);
    o["per_watt"] = std::move(per_watt);
    o["joules_per_unit"] = std::move(per_unit);
    windows.push_back(std::move(o));
  }
  j["windows"] = std::move(windows);
  Json marks = Json::array();
  for (const auto& [at, m] : p.marks) {
    Json o = Json::object();
    o["t_sec"] = Num(at);
    o["mark"] = m;
    marks.push_back(std::move(o));
  }
  j["marks"] = std::move(marks);
  return j;
}

// "power" was added within schema_version 1: absent means power was not measured.
Status ReadPower(const Json& doc, const std::string& base, metrics::PowerResult* p) {
  if (!doc.is_object() || !doc.contains("power")) return Status::Ok();
  const std::string path = base.empty() ? "power" : base + ".power";
  const Json& j = doc["power"];
  if (!j.is_object()) return Bad(path, "an object");
  SB_RETURN_IF_ERROR(Field(j, "interval_sec", path, &p->interval_sec));
  if (!j.contains("sources") || !j["sources"].is_array()) return Bad(path + ".sources", "an array");
  for (size_t i = 0; i < j["sources"].size(); ++i) {
    const Json& o = j["sources"][i];
    const std::string sp = path + ".sources[" + std::to_string(i) + "]";
    if (!o.is_object()) return Bad(sp, "an object");
    metrics::PowerSourceResult s;
    SB_RETURN_IF_ERROR(Field(o, "spec", sp, &s.spec));
    SB_RETURN_IF_ERROR(Field(o, "description", sp, &s.description));
    SB_RETURN_IF_ERROR(Field(o, "measures", sp, &s.measures));
    SB_RETURN_IF_ERROR(Field(o, "resolution_w", sp, &s.resolution_w));
    if (std::isnan(s.resolution_w)) s.resolution_w = 0;
    SB_RETURN_IF_ERROR(Field(o, "uncertainty", sp, &s.uncertainty));
    if (std::isnan(s.uncertainty)) s.uncertainty = -1;
    SB_RETURN_IF_ERROR(Field(o, "note", sp, &s.note));
    SB_RETURN_IF_ERROR(Field(o, "live", sp, &s.live));
    SB_RETURN_IF_ERROR(Field(o, "readings", sp, &s.readings));
    SB_RETURN_IF_ERROR(Field(o, "missing", sp, &s.missing));
    if (!o.contains("missing_at_sec")) return Bad(sp + ".missing_at_sec", "an array");
    SB_RETURN_IF_ERROR(Numbers(o["missing_at_sec"], sp + ".missing_at_sec", &s.missing_at_sec));
    if (!o.contains("errors") || !o["errors"].is_array()) return Bad(sp + ".errors", "an array");
    for (const Json& e : o["errors"]) {
      if (!e.is_string()) return Bad(sp + ".errors", "an array of strings");
      s.errors.push_back(e.get<std::string>());
    }
    double offset = 0;
    SB_RETURN_IF_ERROR(Field(o, "clock_offset_sec", sp, &offset));
    s.has_clock_offset = !std::isnan(offset);
    s.clock_offset_sec = s.has_clock_offset ? offset : 0;
    p->sources.push_back(std::move(s));
  }
  const std::string pp = path + ".points";
  if (!j.contains("points") || !j["points"].is_object()) return Bad(pp, "an object");
  const Json& points = j["points"];
  std::vector<double> t, sum;
  if (!points.contains("t") || !points.contains("sum_w")) return Bad(pp, "t and sum_w");
  SB_RETURN_IF_ERROR(Numbers(points["t"], pp + ".t", &t));
  SB_RETURN_IF_ERROR(Numbers(points["sum_w"], pp + ".sum_w", &sum));
  if (!points.contains("watts") || !points["watts"].is_array() ||
      points["watts"].size() != p->sources.size()) {
    return Bad(pp + ".watts", "one array per source");
  }
  std::vector<std::vector<double>> watts(p->sources.size());
  for (size_t i = 0; i < watts.size(); ++i) {
    SB_RETURN_IF_ERROR(Numbers(points["watts"][i], pp + ".watts", &watts[i]));
    if (watts[i].size() != t.size()) return Bad(pp + ".watts", "arrays as long as t");
  }
  if (sum.size() != t.size()) return Bad(pp + ".sum_w", "an array as long as t");
  for (size_t k = 0; k < t.size(); ++k) {
    metrics::PowerPoint pt;
    pt.t_sec = t[k];
    pt.sum_w = sum[k];
    for (const auto& w : watts) pt.watts.push_back(w[k]);
    p->points.push_back(std::move(pt));
  }
  if (!j.contains("windows") || !j["windows"].is_array()) return Bad(path + ".windows", "an array");
  for (size_t i = 0; i < j["windows"].size(); ++i) {
    const Json& o = j["windows"][i];
    const std::string wp = path + ".windows[" + std::to_string(i) + "]";
    if (!o.is_object()) return Bad(wp, "an object");
    metrics::PowerWindow w;
    SB_RETURN_IF_ERROR(Field(o, "label", wp, &w.label));
    SB_RETURN_IF_ERROR(Field(o, "start_sec", wp, &w.start_sec));
    SB_RETURN_IF_ERROR(Field(o, "end_sec", wp, &w.end_sec));
    SB_RETURN_IF_ERROR(Field(o, "seconds", wp, &w.seconds));
    SB_RETURN_IF_ERROR(Field(o, "missing", wp, &w.missing));
    SB_RETURN_IF_ERROR(Field(o, "avg_w", wp, &w.avg_w));
    SB_RETURN_IF_ERROR(Field(o, "energy_j", wp, &w.energy_j));
    if (!o.contains("per_watt") || !o.contains("joules_per_unit")) {
      return Bad(wp, "per_watt and joules_per_unit");
    }
    SB_RETURN_IF_ERROR(Figures(o["per_watt"], wp + ".per_watt", &w.per_watt));
    SB_RETURN_IF_ERROR(Figures(o["joules_per_unit"], wp + ".joules_per_unit", &w.joules_per_unit));
    p->windows.push_back(std::move(w));
  }
  if (j.contains("marks")) {
    if (!j["marks"].is_array()) return Bad(path + ".marks", "an array");
    for (const Json& o : j["marks"]) {
      double at = 0;
      std::string m;
      SB_RETURN_IF_ERROR(Field(o, "t_sec", path + ".marks", &at));
      SB_RETURN_IF_ERROR(Field(o, "mark", path + ".marks", &m));
      p->marks.emplace_back(at, m);
    }
  }
  return Status::Ok();
}

}  // namespace sb::report::internal
