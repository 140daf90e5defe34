// A comparison's result file: the document "kind": "storebench comparison" and its reader.
#ifndef STOREBENCH_REPORT_FILES_COMPARISON_JSON_H_
#define STOREBENCH_REPORT_FILES_COMPARISON_JSON_H_

#include <string>

#include "stats/comparison.h"
#include "storebench/status.h"

namespace sb::report {

// The comparison document (pretty-printed JSON ending in a newline) and its reader (fails with
// InvalidArgument naming the key on a malformed document, FailedPrecondition on a newer version).
std::string ComparisonToJson(const Comparison& c);
Result<Comparison> ComparisonFromJson(const std::string& text);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_COMPARISON_JSON_H_
