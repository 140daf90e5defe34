// HammerDB's words under a TPC-C-like run's summary, from the result's figures alone: its
// "TEST RESULT : System achieved X NOPM from Y <db> TPM" line, and with keying and thinking the
// response-time constraints of TPC-C clause 5.2.5.7, the efficiency and the Delivery skips of
// clause 2.7.4 (docs/tpcc.md).
#ifndef STOREBENCH_REPORT_CONSOLE_HAMMERDB_LINES_H_
#define STOREBENCH_REPORT_CONSOLE_HAMMERDB_LINES_H_

#include <string>
#include <utility>
#include <vector>

namespace sb::report {

// The lines for a result's `figures` (the workload's names: nopm_dnext, tpm_server, tpm_client,
// rt_<type>_p90_msec, response_time_constraints_met, ...); `db_product` names the server
// ("PostgreSQL", "MariaDB", "SQLite"). No lines when the figures hold no NOPM or constraints.
std::vector<std::string> HammerDbResultLines(
    const std::vector<std::pair<std::string, double>>& figures, const std::string& db_product);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_HAMMERDB_LINES_H_
