// The result document: one JSON file per run, from which every other output can be rebuilt.
//
// Layout and field meanings are documented in docs/output-schema.md and checked by
// docs/output-schema.json. `schema_version` is the first key; a reader refuses documents with a
// newer schema_version than kResultSchemaVersion.
#ifndef STOREBENCH_REPORT_FILES_JSON_REPORT_H_
#define STOREBENCH_REPORT_FILES_JSON_REPORT_H_

#include <string>
#include <string_view>

#include "metrics/run_result.h"
#include "storebench/status.h"

namespace sb::report {

inline constexpr int kResultSchemaVersion = 2;

// storebench's version as written into "tool": {"version": ...}.
const char* ToolVersion();

// The result document, pretty-printed (2-space indent, no trailing newline). Each time-series
// point is kept on one line so that long runs stay readable, in instance documents too. A run of
// several instances also writes "instances": each instance's result as a complete document.
// Non-finite numbers are written as null. `r.config_json` is embedded as a JSON object (empty text
// → {}; text that is not a JSON object → {"unparsed": text}).
std::string ResultToJson(const metrics::RunResult& r);

// Parses a result document back into a RunResult. Everything ResultToJson writes round-trips,
// except that config_json comes back as compact JSON text (same keys, same order) and null
// numbers come back as NaN. Fails with InvalidArgument naming the offending key
// ("operations[2].p99_ms: expected a number", "instances[1].headlines: ...") on malformed or
// incomplete documents, and with FailedPrecondition on a newer schema_version. Older documents
// read: "windows", "baselines", "steady_state" and "warnings" were added within schema_version 1
// and read as empty / default when absent; a schema_version 1 document has no "headlines",
// "headline_specs", window "headlines" or baseline "kind" (read as empty, and kind
// "window_mean", the only kind then). Each window's "operations" must list the top-level
// operation types in the same order (the writer writes one entry per type, zeros where a window
// has no summary for it). Each element of "instances" is read as a document of its own.
Result<metrics::RunResult> ResultFromJson(std::string_view text);

// Writes ResultToJson(r) plus a newline to `path`: creates missing parent directories, writes a
// temporary file next to it, flushes it to disk and renames it over `path`, so readers never see
// a half-written file. Fails with IoError naming the path and the reason.
Status WriteResultFile(const std::string& path, const metrics::RunResult& r);

// Reads and parses a result file written by WriteResultFile.
Result<metrics::RunResult> ReadResultFile(const std::string& path);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_JSON_REPORT_H_
