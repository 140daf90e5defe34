// ptd://host[:port] — a client of SPEC's PTDaemon (the Power and Temperature Daemon that drives
// accepted power analyzers) over its TCP text protocol, lines ending in CRLF (default port 8888):
//
//   Hello                 → "Hello, PTDaemon here!"   (anything else: not a PTDaemon)
//   Identify              → the analyzer's identification (kept in the description)
//   Go,1000,0,<mark>      → starts the analyzer's 1-s logging, tagged with a phase mark
//   Watts                 → "Watts,<w>", the reading the sampler takes each second
//   Uncertainty           → "Uncertainty,<u>", the analyzer's uncertainty as a fraction of the
//                           reading (at the end: the source's `uncertainty`, the reply in the
//                           description)
//   RL                    → "Last N samples" and N log lines (read at the end: sample count)
//   Stop                  → ends logging (at every mark change and at the end)
//
// A reply starting with "Error" is a failed reading: recorded, and sampling goes on. A daemon that
// does not answer within `timeout_ms` (option, default 900 ms, so one slow reply costs at most
// one second) is a missing second; the connection is then dropped and re-opened on the next read,
// since a late reply would otherwise be taken for the next command's.
//
// Options: mark=<first mark> (default "storebench"), timeout_ms=<ms>.
#ifndef STOREBENCH_POWER_PTD_SOURCE_H_
#define STOREBENCH_POWER_PTD_SOURCE_H_

#include <memory>
#include <string>

#include "power/power_spec.h"
#include "storebench/power_source.h"

namespace sb::power {

inline constexpr int kPtdDefaultPort = 8888;

// The watts of a "Watts,<w>" reply (also "Watts, <w>"); InvalidArgument naming the reply
// otherwise (an "Error..." reply is quoted as the daemon's error).
Result<double> ParsePtdWatts(const std::string& reply);

// The uncertainty of an "Uncertainty,<u>" reply as a fraction of the reading ("<u>%" is a
// percentage); an error naming the reply otherwise.
Result<double> ParsePtdUncertainty(const std::string& reply);

std::unique_ptr<PowerSource> MakePtdSource(const PowerSpec& spec);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_PTD_SOURCE_H_
