// ParseDriverConfigFile: DVD Store's DriverConfig.txt, one name=value per line.
#include <cctype>
#include <string>
#include <string_view>

#include "base/input_file.h"
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

std::string Quoted(std::string_view text) {
  return "'" + QuotablePrefix(text, limits::kMaxQuotedChars) + "'";
}

}  // namespace

Status ParseDriverConfigFile(const std::string& path, OptionSet* options) {
  // Not fopen: a FIFO given as the config file would block the open forever.
  // At most the limit (and one byte): a long line in it is named by its line number, a file
  // that goes on beyond it is refused as too large.
  auto content = ReadInputPrefix(path, "config file", limits::kMaxConfigFileBytes);
  if (!content.ok()) return content.status();
  std::string_view rest = *content;
  int line_number = 0;
  Status status;
  while (status.ok() && !rest.empty()) {
    ++line_number;
    const size_t nl = rest.find('\n');
    std::string_view text = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    const std::string origin = path + ":" + std::to_string(line_number);
    // A DriverConfig line is a name and a short value: a longer one is refused, quoted short.
    if (text.size() > limits::kMaxConfigLineBytes) {
      status = Status::InvalidArgument("config line " + Quoted(text) + " is longer than " +
                                       std::to_string(limits::kMaxConfigLineBytes) + " bytes (" +
                                       origin + ")");
      break;
    }
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
  if (status.ok() && content->size() > limits::kMaxConfigFileBytes) {
    status = Status::InvalidArgument("config file '" + path + "' is larger than " +
                                     std::to_string(limits::kMaxConfigFileBytes >> 20) +
                                     " MiB; a DriverConfig file is a list of name=value lines");
  }
  return status;
}

}  // namespace sb::config
