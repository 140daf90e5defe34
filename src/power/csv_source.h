// csv:FILE — a power analyzer's log imported after the run (an Extech or Yokogawa logger's
// export, PTDaemon's own log turned into CSV), aligned to the run by wall-clock time:
//
//   csv:/logs/wt310.csv?time=Time&watts=Watts&offset=-2.5
//   csv:/logs/yoko.csv?time=Date+Time&watts=P-1&tz=utc
//
// Options: time= the timestamp column (two columns joined with '+' are read as one, date then
// time; default "time"), watts= the watts column (default "watts"), offset= seconds added to
// every logged time to get this host's wall clock (the logger's clock runs 2.5 s ahead: -2.5),
// tz=utc|local for timestamps without a zone (default local). Column names are compared without
// regard to case. The delimiter (',', ';' or tab) is the one of the header line. Timestamps:
// Unix seconds, "YYYY-MM-DD[T ]HH:MM:SS[.fff][Z|±HH:MM]", "YYYY/MM/DD HH:MM:SS[.fff]" and
// "MM/DD/YYYY HH:MM:SS[.fff]".
#ifndef STOREBENCH_POWER_CSV_SOURCE_H_
#define STOREBENCH_POWER_CSV_SOURCE_H_

#include <memory>
#include <string>
#include <vector>

#include "power/power_spec.h"
#include "storebench/power_source.h"

namespace sb::power {

// Unix seconds of `text` in one of the formats above; `utc` decides zone-less timestamps.
Result<double> ParseLogTime(const std::string& text, bool utc);

// Every reading of a log's text (see above); `what` names the source in messages.
Result<std::vector<LoggedReading>> ParsePowerCsv(const std::string& text, const PowerSpec& spec,
                                                 const std::string& what);

std::unique_ptr<PowerSource> MakeCsvSource(const PowerSpec& spec);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_CSV_SOURCE_H_
