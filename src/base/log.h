// Minimal leveled logging to stderr. Progress and diagnostics go to stderr; results to stdout.
#ifndef STOREBENCH_BASE_LOG_H_
#define STOREBENCH_BASE_LOG_H_

#include <cstdio>
#include <string>

namespace sb {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// The minimum level printed; set once by the CLI before threads start.
void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();

// Thread-safe: writes one whole line with a single fwrite.
void Log(LogLevel level, const std::string& message);

inline void LogInfo(const std::string& m) { Log(LogLevel::kInfo, m); }
inline void LogWarning(const std::string& m) { Log(LogLevel::kWarning, m); }
inline void LogError(const std::string& m) { Log(LogLevel::kError, m); }

}  // namespace sb

#endif  // STOREBENCH_BASE_LOG_H_
