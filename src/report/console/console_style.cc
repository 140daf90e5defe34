#include "report/console/console_style.h"

#include "base/strings.h"

namespace sb::report {

void ConsoleStyle::Line(const std::string& line) const {
  std::fprintf(stream_, "%s\n", EscapeForTerminal(line, /*keep_newlines=*/true).c_str());
  std::fflush(stream_);
}

void ConsoleRegistry::Register(const std::string& name, ConsoleFactory factory) {
  entries_.push_back({name, std::move(factory)});
}

Result<std::unique_ptr<ConsoleStyle>> ConsoleRegistry::Create(
    const std::string& name, const ConsoleSettings& settings) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return e.factory(settings);
  }
  std::string known;
  for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
  return Status::InvalidArgument("unknown console style '" + name + "' (known: " + known + ")");
}

std::vector<std::string> ConsoleRegistry::Names() const {
  std::vector<std::string> names;
  for (const Entry& e : entries_) names.push_back(e.name);
  return names;
}

}  // namespace sb::report
