#include "report/files/result_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/input_file.h"
#include "base/limits.h"
#include "report/files/comparison_json.h"
#include "report/files/json_document.h"
#include "report/files/json_report.h"
#include "report/files/search_comparison.h"

namespace sb::report {

namespace {

// The reader's JSON type: the document is parsed once and read from this value.
using Json = internal::Json;

Status Bad(const std::string& path, const std::string& what) {
  return Status::InvalidArgument("'" + path + "' " + what);
}

// The parsed document of `path` (whose text is `text`), read as whichever file it is.
Result<ResultFile> ReadParsed(const std::string& path, const std::string& text, const Json& doc) {
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
  if (kind == kSearchComparisonKind) {
    return Bad(path,
               "is a comparison of two searches: give storebench report the two search files, "
               "which it draws on one chart");
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
  f.power = SummarizePower(f.run.power);
  return f;
}

}  // namespace

PowerSummary SummarizePower(const metrics::PowerResult& power) {
  PowerSummary p;
  if (!power.present()) return p;
  p.present = true;
  for (const metrics::PowerWindow& w : power.windows) {
    if (w.label == "measured") p.mean_w = w.avg_w;
  }
  for (const metrics::PowerSourceResult& src : power.sources) {
    if (!p.source.empty()) p.source += ", ";
    p.source += src.description.empty() ? src.spec : src.description;
  }
  p.points.reserve(power.points.size());
  for (const metrics::PowerPoint& pt : power.points) p.points.emplace_back(pt.t_sec, pt.sum_w);
  return p;
}

Result<ResultFile> ReadAnyResultFile(const std::string& path) {
  // A special file (a FIFO, /dev/zero) or a runaway size is refused, not read (base/input_file.h).
  auto text = ReadInputFile(path, "result file", limits::kMaxResultFileBytes);
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound && NothingAt(path)) {
      return Status::NotFound("'" + path + "' does not exist");
    }
    return Status(text.status().code() == StatusCode::kNotFound ? StatusCode::kInvalidArgument
                                                                : text.status().code(),
                  text.status().message());
  }
  return ReadResultText(*text, path);
}

Result<ResultFile> ReadResultText(const std::string& text, const std::string& path) {
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
  } catch (const Json::exception& e) {
    // The parser's other refusals: a number beyond a double (out_of_range.406, "1e400"), which
    // nlohmann/json reports as an out_of_range exception rather than a parse error.
    return Bad(path, "is not a storebench result file: " + internal::JsonErrorWords(e));
  }
  try {
    return ReadParsed(path, text, doc);
  } catch (const Json::exception& e) {
    return Bad(path, "is a damaged storebench file: " + internal::JsonErrorWords(e));
  }
}

}  // namespace sb::report
