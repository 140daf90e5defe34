// ParseDriverConfigFile: DVD Store's DriverConfig.txt, one name=value per line.
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "base/limits.h"
#include "base/strings.h"
#include "config/options.h"

namespace sb::config {

namespace {

std::string_view Trim(std::string_view s) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);  // also a Windows '\r'
  return s;
}

enum class LineRead { kLine, kEnd, kTooLong };

// Reads one line without its '\n', at most limits::kMaxConfigLineBytes of it, counting every byte
// read into *total. A DriverConfig line is a name and a short value: a longer one (or a "file"
// like /dev/zero that never ends a line) is refused instead of read into memory whole.
LineRead ReadLine(std::FILE* f, std::string* line, size_t* total) {
  line->clear();
  int c;
  bool any = false;
  while ((c = std::fgetc(f)) != EOF) {
    any = true;
    ++*total;
    if (c == '\n') return LineRead::kLine;
    if (line->size() >= limits::kMaxConfigLineBytes) return LineRead::kTooLong;
    line->push_back(static_cast<char>(c));
  }
  return any ? LineRead::kLine : LineRead::kEnd;
}

std::string Quoted(std::string_view text) {
  return "'" + QuotablePrefix(text, limits::kMaxQuotedChars) + "'";
}

}  // namespace

Status ParseDriverConfigFile(const std::string& path, OptionSet* options) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::NotFound("config file '" + path + "' cannot be read: " + std::strerror(errno));
  }
  std::string line;
  int line_number = 0;
  size_t total = 0;
  Status status;
  while (status.ok()) {
    const LineRead read = ReadLine(f, &line, &total);
    if (read == LineRead::kEnd) break;
    ++line_number;
    const std::string origin = path + ":" + std::to_string(line_number);
    if (read == LineRead::kTooLong) {
      status = Status::InvalidArgument("config line " + Quoted(line) + " is longer than " +
                                       std::to_string(limits::kMaxConfigLineBytes) + " bytes (" +
                                       origin + ")");
      break;
    }
    if (total > limits::kMaxConfigFileBytes) {
      status = Status::InvalidArgument("config file '" + path + "' is larger than " +
                                       std::to_string(limits::kMaxConfigFileBytes >> 20) +
                                       " MiB; a DriverConfig file is a list of name=value lines");
      break;
    }
    std::string_view text = line;
    if (line_number == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // BOM
    text = Trim(text);
    if (text.empty() || text.front() == '#') continue;
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos) {
      status = Status::InvalidArgument("config line " + Quoted(text) + " is not name=value (" +
                                       origin + ")");
      break;
    }
    const std::string_view name = Trim(text.substr(0, eq));
    const std::string_view value = Trim(text.substr(eq + 1));
    if (name.empty()) {
      status = Status::InvalidArgument("config line " + Quoted(text) +
                                       " has no option name before '=' (" + origin + ")");
      break;
    }
    // DVD Store keys are lower-case, but accept any case.
    const OptionSpec* spec = options->FindSpec(name, /*ignore_case=*/true);
    status = options->Set(spec != nullptr ? std::string_view(spec->name) : name, value, origin);
  }
  if (status.ok() && std::ferror(f)) {
    status = Status::IoError("config file '" + path + "' cannot be read: " + std::strerror(errno));
  }
  std::fclose(f);
  return status;
}

}  // namespace sb::config
