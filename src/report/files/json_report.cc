#include "report/files/json_report.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include "base/input_file.h"
#include "base/limits.h"
#include "base/output_file.h"
#include "report/files/json_document.h"
#include "version/version.h"

namespace sb::report {

namespace {

using internal::Json;
using metrics::RunResult;

}  // namespace

const char* ToolVersion() { return version::Version(); }

namespace {

// Where `quoted` occurs in `text`: its only position, or npos when it occurs never or twice.
size_t OnlyOccurrence(const std::string& text, const std::string& quoted) {
  const size_t at = text.find(quoted);
  if (at == std::string::npos || text.find(quoted, at + 1) != std::string::npos) {
    return std::string::npos;
  }
  return at;
}

// The series' points as a JSON array, one point per line, for a "points" key whose line is
// indented by `indent` spaces.
std::string PointLines(const metrics::TimeSeries& series, size_t indent) {
  const std::string point_indent(indent + 2, ' ');
  std::string out = "[\n";
  for (size_t i = 0; i < series.points.size(); ++i) {
    out += point_indent + internal::Dump(internal::PointToJson(series.points[i]), -1);
    out += i + 1 < series.points.size() ? ",\n" : "\n";
  }
  return out + std::string(indent, ' ') + "]";
}

// ToDocument's text with every placeholder replaced by its points, or "" when a placeholder does
// not occur exactly once (a user string happens to hold it).
std::string Splice(const std::string& text, const std::vector<internal::PointsSplice>& splices) {
  std::vector<std::pair<size_t, const internal::PointsSplice*>> at;
  for (const auto& s : splices) {
    const size_t pos = OnlyOccurrence(text, "\"" + s.placeholder + "\"");
    if (pos == std::string::npos) return "";
    at.emplace_back(pos, &s);
  }
  std::sort(at.begin(), at.end());
  std::string out;
  size_t done = 0;
  for (const auto& [pos, s] : at) {
    const size_t line_start = text.rfind('\n', pos) + 1;  // npos + 1 == 0 on the first line
    const size_t indent = text.find_first_not_of(' ', line_start) - line_start;
    out.append(text, done, pos - done);
    out += PointLines(*s->series, indent);
    done = pos + s->placeholder.size() + 2;
  }
  out.append(text, done, std::string::npos);
  return out;
}

}  // namespace

std::string ResultToJson(const RunResult& r) {
  // The salt changes only if a placeholder collides with a user string, which takes a string
  // made to collide; after a few tries the points are simply written inline (valid, less compact).
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::vector<internal::PointsSplice> splices;
    const std::string salt = attempt == 0 ? "" : std::to_string(attempt) + "_";
    const std::string text = internal::Dump(internal::ToDocument(r, salt, &splices), 2);
    if (splices.empty()) return text;
    std::string spliced = Splice(text, splices);
    if (!spliced.empty()) return spliced;
  }
  return internal::Dump(internal::ToDocument(r, "", nullptr), 2);
}

Result<RunResult> ResultFromJson(std::string_view text) {
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    // parse_error ("parse error at line 3, column 5: ...") and the parser's out_of_range for a
    // number beyond a double ("number overflow parsing '1e400'").
    return Status::InvalidArgument("result JSON is not valid JSON: " + internal::JsonErrorWords(e));
  }
  RunResult r;
  try {
    SB_RETURN_IF_ERROR(internal::ReadDocument(doc, "", &r));
  } catch (const Json::exception& e) {
    return Status::InvalidArgument("result JSON is damaged: " + internal::JsonErrorWords(e));
  }
  return r;
}

// Whole or not at all (base/output_file.h): temp file, fsync, rename.
Status WriteResultFile(const std::string& path, const RunResult& r) {
  return WriteOutputFile(path, ResultToJson(r) + "\n", "result file");
}

Result<RunResult> ReadResultFile(const std::string& path) {
  auto text = ReadInputFile(path, "result file", limits::kMaxResultFileBytes);
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound && NothingAt(path)) {
      return Status::NotFound("result file '" + path + "' does not exist");
    }
    return text.status();
  }
  Result<RunResult> r = ResultFromJson(*text);
  if (!r.ok()) {
    return Status(r.status().code(), path + ": " + r.status().message());
  }
  return r;
}

}  // namespace sb::report
