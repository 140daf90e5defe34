// cmd:COMMAND — any command that prints watts (the first number it prints, e.g. "231.5" or
// "Instantaneous power reading: 231 Watts"), run with sh -c once a second, e.g. a PDU's reading
// through snmpget or ipmitool. A command that has not finished within 2 s (coreutils' timeout) is
// a missing second. The command is taken whole (no options), so what it measures is "unknown".
#ifndef STOREBENCH_POWER_CMD_SOURCE_H_
#define STOREBENCH_POWER_CMD_SOURCE_H_

#include <memory>
#include <string>

#include "power/power_spec.h"
#include "storebench/power_source.h"

namespace sb::power {

// The first decimal number in `text` (a command's output), with its sign; InvalidArgument when
// there is none or it is hexadecimal ("0x20"). The sampler's reading rule (power/reading_rule.h)
// then decides whether it is a plausible reading.
Result<double> FirstNumber(const std::string& text);

// `timeout_ms`: how long a reading's command may take before it is a missing second (a run's is
// 2 s; a test's may be shorter).
std::unique_ptr<PowerSource> MakeCmdSource(const PowerSpec& spec, int timeout_ms = 2000);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_CMD_SOURCE_H_
