#include "workload/named_sql.h"

namespace sb::workload {

std::map<std::string, std::string> ParseNamedSql(std::string_view text) {
  std::map<std::string, std::string> out;
  std::string name;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    if (line.rfind("-- name:", 0) == 0) {
      line.remove_prefix(8);
      const size_t first = line.find_first_not_of(' ');
      name = first == std::string_view::npos ? "" : std::string(line.substr(first));
      while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
      out[name];
      continue;
    }
    if (name.empty() || line.rfind("--", 0) == 0) continue;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    out[name].append(line).append("\n");
  }
  return out;
}

std::map<std::string, std::string> ParseNamedText(std::string_view text) {
  std::map<std::string, std::string> out = ParseNamedSql(text);
  for (auto& [name, words] : out) {
    if (!words.empty() && words.back() == '\n') words.pop_back();
  }
  return out;
}

void ReplaceAll(std::string& text, std::string_view placeholder, std::string_view value) {
  for (size_t pos = text.find(placeholder); pos != std::string::npos;
       pos = text.find(placeholder, pos + value.size())) {
    text.replace(pos, placeholder.size(), value);
  }
}

}  // namespace sb::workload
