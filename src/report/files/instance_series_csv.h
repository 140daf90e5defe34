// A per-second CSV of each instance's time series, for spreadsheets, with the figures the HTML
// report plots: the headline metrics derived from each point with the headline definitions
// (RunResult::headline_specs), each operation type's p99, the errors and every counter, power and
// the system under test's CPU.
#ifndef STOREBENCH_REPORT_FILES_INSTANCE_SERIES_CSV_H_
#define STOREBENCH_REPORT_FILES_INSTANCE_SERIES_CSV_H_

#include <string>

#include "metrics/run_result.h"

namespace sb::report {

// Header "instance,second,phase,<headline names...>,<unit>_p99_ms,errors", then one row per
// instance per time-series point, instance by instance, each in time order; every line ends in
// '\n'. The instances are r.instances; a result without instances is one instance named r.name,
// or "1" when that is empty.
//   second      the point's t (end of its interval, seconds since Start)
//   headlines   r.headline_specs' names (r.headline_name alone when there are none); each value
//               is (Σ weight · counts[index] + Σ weight · counters[index]) · per_second /
//               interval_sec over the point, from the instance's own spec of that name (r's when
//               the instance has none); empty when no spec defines it
//   <unit>_p99  the first operation type's p99 in the interval, ms (<unit> names that type)
//   errors      the sum of the point's counters whose name starts with "errors."
// With power (r.power), the columns "power_w" (the sources' sum) and "power_w <spec>" per source
// follow: the mean of the power points in the row's interval (previous row's second, second],
// the same on every instance's row; empty when no point there has a reading. Then the columns the
// report plots besides:
//   <type>_p99_ms  each further operation type's p99 in the interval, ms
//   <counter>      how much each counter of the series grew in the interval (errors.deadlock,
//                  retries, rollbacks, late, ...), by the series' counter names
//   sut_cpu_pct    (only when the run sampled it) the system under test's CPU utilization of the
//                  reading within half a second of the point, % of all its CPUs; empty if none
// Numbers are written in the shortest form that reads back exactly; non-finite values as empty
// cells. Text cells holding a comma, quote or line break are quoted as RFC 4180 says.
std::string InstanceSeriesCsv(const metrics::RunResult& r);

// The power columns of a per-second CSV: the header part ",power_w,power_w <spec>..." and a
// row's fields for the interval (prev, t] (power time): the mean of the power points there, empty
// fields when none has a reading. Both "" without power.
std::string PowerCsvHeader(const metrics::PowerResult& power);
std::string PowerCsvFields(const metrics::PowerResult& power, double prev, double t);

// Power alone (storebench power log / idle): "second,power_w,power_w <spec>..." and one row per
// power point (second: seconds since sampling began).
std::string PowerSeriesCsv(const metrics::PowerResult& power);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_INSTANCE_SERIES_CSV_H_
