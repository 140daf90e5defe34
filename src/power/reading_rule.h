// The one rule every power reading passes, whatever its source (a meter's reply, a command's
// output, a BMC, an energy counter, an imported log): a finite number of watts from 0 to
// kMaxPlausibleWatts. Anything else is a missing second with the reason, counted and listed as
// a failed read is (docs/power.md#plausible-readings), never a figure in the sums and averages.
#ifndef STOREBENCH_POWER_READING_RULE_H_
#define STOREBENCH_POWER_READING_RULE_H_

#include <cstddef>
#include <string_view>

#include "storebench/status.h"

namespace sb::power {

// 1 MW: far above any machine or rack a benchmark host meters, and low enough that a window's
// sum of a day of readings of many sources stays a finite double.
inline constexpr double kMaxPlausibleWatts = 1e6;

// Ok for a finite reading in [0, kMaxPlausibleWatts]; else IoError "implausible reading -5 W
// (a reading is a number from 0 to 1000000 W)".
Status CheckWatts(double watts);

// A decimal number at the start of `text`, as meters and commands print one: an optional sign,
// digits with an optional fraction, an optional exponent. Not hexadecimal, "inf" or "nan". A
// number beyond a double is ±infinity (CheckWatts refuses it). Returns the characters read, 0
// when `text` does not start with a number.
size_t ParseDecimal(std::string_view text, double* out);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_READING_RULE_H_
