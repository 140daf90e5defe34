// Numbers as the console summaries print them, shared by the DVD Store summary and the instance
// table so both print a figure the same way.
#ifndef STOREBENCH_REPORT_CONSOLE_NUMBERS_H_
#define STOREBENCH_REPORT_CONSOLE_NUMBERS_H_

#include <string>

namespace sb::report::numbers {

// `format` (one double conversion) applied to v.
std::string Printf(const char* format, double v);
// A per-minute rate or a baseline's measured value: whole numbers without decimals, others with
// one decimal from 100 up and three below (so 0.253 ms stays readable); "n/a" when not finite.
std::string Amount(double v);
// A latency in ms for the summary tables.
std::string Ms(double v);

}  // namespace sb::report::numbers

#endif  // STOREBENCH_REPORT_CONSOLE_NUMBERS_H_
