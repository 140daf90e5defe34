// Internal to report/: the result document as a JSON value, written (json_write.cc) and read
// back (json_read.cc). json_report.h is the public contract; this header only joins its parts.
#ifndef STOREBENCH_REPORT_FILES_JSON_DOCUMENT_H_
#define STOREBENCH_REPORT_FILES_JSON_DOCUMENT_H_

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "storebench/status.h"

namespace sb::report::internal {

// ordered_json keeps keys in insertion order, so the document reads top-down as documented and
// figures keep DVD Store's canonical order.
using Json = nlohmann::ordered_json;

// Time-series points are spliced in after pretty-printing, one point per line: the writer puts a
// placeholder string where each document's "points" array goes (the top-level document's and
// each instance document's), and ResultToJson replaces it. A placeholder is this prefix, a salt
// and the series' number; ResultToJson picks a salt whose placeholders each occur exactly once in
// the text, so a user-supplied string (a host name, a setting) can never be mistaken for one.
inline constexpr char kPointsPlaceholder[] = "__storebench_time_series_points__";

// A time series whose points replace `placeholder` (a JSON string value) in the dumped text.
struct PointsSplice {
  std::string placeholder;
  const metrics::TimeSeries* series = nullptr;
};

// A double as a JSON number; NaN and infinities (which JSON cannot hold) as null.
inline Json Num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// Invalid UTF-8 in user-supplied strings (host names, settings) must not make dump() throw.
inline std::string Dump(const Json& j, int indent) {
  return j.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

// A JSON exception's message without its "[json.exception.out_of_range.406] " prefix, e.g.
// "number overflow parsing '1e400'", for a sentence that names the file.
inline std::string JsonErrorWords(const nlohmann::json::exception& e) {
  std::string what = e.what();
  const size_t bracket = what.find("] ");
  if (what.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos) {
    what = what.substr(bracket + 2);
  }
  return what;
}

// The whole document. With `splices`, each non-empty series' points are a placeholder made from
// kPointsPlaceholder and `salt` and listed in *splices in document order; without, the points are
// written inline.
Json ToDocument(const metrics::RunResult& r, const std::string& salt,
                std::vector<PointsSplice>* splices);
// One time-series point.
Json PointToJson(const metrics::IntervalPoint& p);

// The "power" section (report/files/power_json.cc), and reading it back into *p (absent: nothing).
Json PowerToJson(const metrics::PowerResult& p);
Status ReadPower(const Json& doc, const std::string& path, metrics::PowerResult* p);

// Fills *r from a parsed document (see ResultFromJson for the errors). `path` locates the
// document in error messages: "" for the top level, "instances[1]" for an instance document.
Status ReadDocument(const Json& doc, const std::string& path, metrics::RunResult* r);

}  // namespace sb::report::internal

#endif  // STOREBENCH_REPORT_FILES_JSON_DOCUMENT_H_
