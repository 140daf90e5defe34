// Swingbench's results file (charbench -r results.xml) made from a RunResult, so the scripts
// and viewers that read Swingbench's results read storebench's runs: the element names follow
// the files Swingbench 2.6 writes, as public readers of them parse them (Dominic Giles'
// parse_results.py: AverageTransactionsPerSecond, MaximumTransactionRate, Result/@id,
// AverageResponse; and the Overview, DMLResults, TransactionResults and TPSReadings elements).
// docs/soe.md#results-file lists every element and what storebench puts in it.
#ifndef STOREBENCH_REPORT_FILES_SWINGBENCH_RESULTS_H_
#define STOREBENCH_REPORT_FILES_SWINGBENCH_RESULTS_H_

#include <string>
#include <vector>

#include "metrics/run_result.h"

namespace sb::report {

// One transaction type of the run: its operation type's name in the RunResult ("NCR") and the
// name Swingbench gives it (its configuration's Transaction/Id, "Customer Registration").
struct SwingbenchTransaction {
  std::string type;
  std::string id;
};

// The results document. `benchmark_name`: the Overview's BenchmarkName; "" takes the Swingbench
// configuration's Name the run was given (--config_file), else "storebench <workload>". Response
// times are in milliseconds, over the measured window; a transaction type the run does not have is
// left out.
std::string SwingbenchResultsXml(const metrics::RunResult& r, const std::string& benchmark_name,
                                 const std::vector<SwingbenchTransaction>& transactions);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_SWINGBENCH_RESULTS_H_
