// Internal to report/: the result document as a JSON value, written (json_write.cc) and read
// back (json_read.cc). json_report.h is the public contract; this header only joins its parts.
#ifndef STOREBENCH_REPORT_JSON_DOCUMENT_H_
#define STOREBENCH_REPORT_JSON_DOCUMENT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "base/status.h"
#include "metrics/run_result.h"

namespace sb::report::internal {

// ordered_json keeps keys in insertion order, so the document reads top-down as documented and
// figures keep DVD Store's canonical order.
using Json = nlohmann::ordered_json;

// Time-series points are spliced in after pretty-printing (one point per line). "points" is the
// last key of "time_series", which is the last key of the document, so the last occurrence of
// this placeholder is ours even if some user-supplied string happened to contain it.
inline constexpr char kPointsPlaceholder[] = "__storebench_time_series_points__";

// Invalid UTF-8 in user-supplied strings (host names, settings) must not make dump() throw.
inline std::string Dump(const Json& j, int indent) {
  return j.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

// The whole document, with kPointsPlaceholder in place of the time-series points.
Json ToDocument(const metrics::RunResult& r);
// One time-series point.
Json PointToJson(const metrics::IntervalPoint& p);

// Fills *r from a parsed document (see ResultFromJson for the errors).
Status ReadDocument(const Json& doc, metrics::RunResult* r);

}  // namespace sb::report::internal

#endif  // STOREBENCH_REPORT_JSON_DOCUMENT_H_
