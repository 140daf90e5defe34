// Headline metrics: the figures a workload is judged by (DVD Store: orders per minute; the
// sysbench-style workload: transactions and queries per second; storage: IOPS and MiB/s). A
// workload declares them; baselines, verdicts, the consolidation search and reports read them by
// name, so no generic code needs to know which workload it measures.
#ifndef STOREBENCH_METRICS_HEADLINE_H_
#define STOREBENCH_METRICS_HEADLINE_H_

#include <string>
#include <utility>
#include <vector>

#include "metrics/headline_spec.h"
#include "metrics/recorder.h"
#include "metrics/run_result.h"

namespace sb::metrics {

// Units of work per minute: the headline of a workload whose unit is type 0 (DVD Store's OPM).
HeadlineSpec UnitsPerMinute(const std::string& name, const std::string& words);
// Units of work per second.
HeadlineSpec UnitsPerSecond(const std::string& name, const std::string& words);

// Storage tests' headlines over the series storage runs keep for windows and baselines (types:
// all I/Os, reads, writes; counters: bytes read, bytes written): iops, read_iops, write_iops,
// mib_per_sec.
std::vector<HeadlineSpec> StorageHeadlines();

// The first spec named `name`, or nullptr.
const HeadlineSpec* FindHeadline(const std::vector<HeadlineSpec>& specs, const std::string& name);

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_HEADLINE_H_
