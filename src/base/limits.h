// Upper limits on what the user may ask for, in one place so the option parser, the DriverConfig
// reader, the ICF reader and the access-specification parser refuse the same values with the same
// numbers (docs/limits.md lists them). Each limit is far above any sensible run and far below
// what would wrap an int, overflow int64 nanoseconds or exhaust memory: input beyond it is bad
// input (exit 2), never clamped or wrapped.
#ifndef STOREBENCH_BASE_LIMITS_H_
#define STOREBENCH_BASE_LIMITS_H_

#include <cstddef>
#include <cstdint>

namespace sb::limits {

// Threads and I/O depth.
inline constexpr int64_t kMaxDbThreads = 4096;     // oltp --n_threads (each opens a connection)
inline constexpr int64_t kMaxIoWorkers = 1024;     // io --workers, ICF disk workers
inline constexpr int64_t kMaxOutstanding = 65536;  // io --outstanding, ICF outstanding I/Os

// Times: one year, so that time + duration stays far from the int64 nanosecond limit (292 years).
inline constexpr int64_t kMaxDurationNanos = int64_t{365} * 24 * 3600 * 1000000000;
inline constexpr double kMaxThinkTimeSec = 3600;  // mean think time per unit
// Open-loop rates, units per second: the slowest still gives each of kMaxDbThreads workers a
// gap that fits in int64 nanoseconds (4096 / 0.001 s = 4.1e6 s).
inline constexpr double kMinRatePerSec = 0.001;
inline constexpr double kMaxRatePerSec = 1e8;

// Input files and lines.
inline constexpr size_t kMaxConfigFileBytes = size_t{1} << 20;  // a DriverConfig file
inline constexpr size_t kMaxConfigLineBytes = size_t{4} << 10;  // one line of it
inline constexpr size_t kMaxIcfBytes = size_t{4} << 20;         // an Iometer .icf file
// Lines of one access specification: Iometer's own MAX_ACCESS_SPECS (Access.h).
inline constexpr size_t kMaxSpecLines = 100;
inline constexpr size_t kMaxSpecs = 1000;  // access specifications in one ICF or --spec

// Access-specification fields (ICF and --spec): Iometer's dialog takes at most 1 GiB transfers;
// bursts and delays are ints there.
inline constexpr int64_t kMaxTransferBytes = int64_t{1} << 30;
inline constexpr int64_t kMaxBurst = int64_t{1} << 30;
inline constexpr int64_t kMaxDelayMs = int64_t{1} << 30;

// Input files read whole (docs/limits.md): far above what storebench writes, so that /dev/zero,
// a FIFO or a runaway file is refused instead of read into memory without end.
inline constexpr size_t kMaxResultFileBytes = size_t{1} << 30;    // a result, search or plan JSON
inline constexpr size_t kMaxPowerLogBytes = size_t{1} << 30;      // a csv: power log
inline constexpr size_t kMaxPasswordFileBytes = size_t{4} << 10;  // a password_file

// How much of an offending input line an error message quotes.
inline constexpr size_t kMaxQuotedChars = 60;

}  // namespace sb::limits

#endif  // STOREBENCH_BASE_LIMITS_H_
