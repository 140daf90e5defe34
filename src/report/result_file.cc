#include "report/result_file.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/json_document.h"
#include "report/json_report.h"

namespace sb::report {

namespace {

// The reader's JSON type: the document is parsed once and read from this value.
using Json = internal::Json;

Status Bad(const std::string& path, const std::string& what) {
  return Status::InvalidArgument("'" + path + "' " + what);
}

PowerSummary PowerFrom(const Json& doc) {
  PowerSummary p;
  if (!doc.is_object() || !doc.contains("power") || !doc["power"].is_object()) return p;
  const Json& power = doc["power"];
  p.present = true;
  auto number = [](const Json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_number() ? o[key].get<double>() : NAN;
  };
  // The mean over the measured window: windows[] {label "measured", avg_w}.
  if (power.contains("windows") && power["windows"].is_array()) {
    for (const Json& w : power["windows"]) {
      if (w.is_object() && w.contains("label") && w["label"] == "measured") {
        p.mean_w = number(w, "avg_w");
      }
    }
  }
  if (!std::isfinite(p.mean_w)) p.mean_w = number(power, "measured_mean_w");
  if (power.contains("sources") && power["sources"].is_array()) {
    for (const Json& src : power["sources"]) {
      if (!src.is_object()) continue;
      const char* key = src.contains("description") && src["description"].is_string() &&
                                !src["description"].get<std::string>().empty()
                            ? "description"
                            : "spec";
      if (src.contains(key) && src[key].is_string()) {
        p.source += (p.source.empty() ? "" : ", ") + src[key].get<std::string>();
      }
    }
  }
  // Per second: points {t: [...], sum_w: [...]} (null: not every source had a reading).
  if (power.contains("points") && power["points"].is_object()) {
    const Json& pts = power["points"];
    if (pts.contains("t") && pts["t"].is_array() && pts.contains("sum_w") &&
        pts["sum_w"].is_array()) {
      for (size_t i = 0; i < pts["t"].size() && i < pts["sum_w"].size(); ++i) {
        if (!pts["t"][i].is_number()) continue;
        p.points.emplace_back(pts["t"][i].get<double>(),
                              pts["sum_w"][i].is_number() ? pts["sum_w"][i].get<double>() : NAN);
      }
    }
  }
  return p;
}

}  // namespace

PowerSummary ReadPowerSection(const std::string& document_text) {
  return PowerFrom(Json::parse(document_text, nullptr, /*allow_exceptions=*/false));
}

Result<ResultFile> ReadAnyResultFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    if (err == ENOENT) return Status::NotFound("'" + path + "' does not exist");
    return Bad(path, std::string("cannot be read: ") + std::strerror(err));
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Bad(path, "is empty, not a storebench result file");
  }
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // A parse error at the very end of the text is a document cut short (a copy or a write that
    // did not finish); anywhere else the file is not JSON at all.
    if (e.byte >= text.size()) {
      return Bad(path, "is truncated: the JSON ends after " + std::to_string(text.size()) +
                           " bytes before the document is complete");
    }
    return Bad(path, "is not a storebench result file: not JSON (error at byte " +
                         std::to_string(e.byte) + ")");
  }
  if (!doc.is_object()) return Bad(path, "is not a storebench result file: not a JSON object");
  ResultFile f;
  f.path = path;
  const std::string kind = doc.contains("kind") && doc["kind"].is_string() ? doc["kind"] : "";
  if (kind == kSearchKind) {
    auto s = SearchFromJson(text, path);
    if (!s.ok()) return s.status();
    f.kind = FileKind::kSearch;
    f.search = std::move(s).value();
    return f;
  }
  if (kind == kComparisonKind) {
    auto c = ComparisonFromJson(text);
    if (!c.ok()) return Status(c.status().code(), "'" + path + "': " + c.status().message());
    f.kind = FileKind::kComparison;
    f.comparison = std::move(c).value();
    return f;
  }
  const bool storebench = doc.contains("tool") && doc["tool"].is_object() &&
                          doc["tool"].contains("name") && doc["tool"]["name"] == "storebench" &&
                          doc.contains("schema_version");
  if (!storebench) {
    return Bad(path,
               "is not a storebench result file: it has no \"schema_version\" and "
               "\"tool\": {\"name\": \"storebench\"} (nor a search's or comparison's \"kind\")");
  }
  if (Status s = internal::ReadDocument(doc, "", &f.run); !s.ok()) {
    return Status(s.code(), "'" + path + "': " + s.message());
  }
  f.kind = FileKind::kRun;
  f.power = PowerFrom(doc);
  return f;
}

}  // namespace sb::report
