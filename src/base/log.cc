#include "base/log.h"

#include <atomic>

namespace sb {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};  // the one process-wide setting
}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level)); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load()); }

void Log(LogLevel level, const std::string& message) {
  if (static_cast<int>(level) < g_level.load(std::memory_order_relaxed)) return;
  static const char* const kPrefix[] = {"debug: ", "", "warning: ", "error: "};
  std::string line = kPrefix[static_cast<int>(level)] + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace sb
