// Parsing of human-written quantities: durations ("90s", "2m", "1h30m", "500ms") and byte sizes
// ("4KiB", "10MB"). Each parser names the offending text in its error.
#ifndef STOREBENCH_BASE_UNITS_H_
#define STOREBENCH_BASE_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "storebench/status.h"

namespace sb {

// Parses a duration. A bare number is interpreted in `bare_unit_nanos` (e.g. minutes for DVD
// Store's run_time). Accepted suffixes: ns, us, ms, s, m, h, combinable ("1h30m"). Negative values
// are rejected.
Result<int64_t> ParseDurationNanos(std::string_view text, int64_t bare_unit_nanos);

// Parses a byte size: a non-negative integer with an optional suffix B, K/KB/KiB, M/MB/MiB,
// G/GB/GiB, T/TB/TiB. KB/MB/GB/TB and K/M/G/T are powers of 1024 (as storage tools use them).
Result<uint64_t> ParseBytes(std::string_view text);

// Parses a whole non-negative decimal integer; rejects signs, fractions and trailing text.
Result<int64_t> ParseInt(std::string_view text, std::string_view what);
// Parses a finite decimal number written [-]digits[.digits][e[+|-]digits]: no blanks, no '+',
// no hexadecimal, no inf/nan (the same "exactly the text" rule as ParseInt).
Result<double> ParseDouble(std::string_view text, std::string_view what);
// Parses Y/N (any case), yes/no, true/false, on/off (sysbench), 1/0.
Result<bool> ParseBool(std::string_view text, std::string_view what);

// "90s", "1m30s", "2h".
std::string FormatDuration(int64_t nanos);

// "146.2 GB", "28.9 MB", "0.2 kB": decimal units with one decimal, as the load's summary line
// counts bytes.
std::string FormatDecimalBytes(double bytes);

}  // namespace sb

#endif  // STOREBENCH_BASE_UNITS_H_
