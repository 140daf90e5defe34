// Reads a Swingbench configuration file (the XML of its Order Entry benchmarks, root element
// SwingBenchConfiguration) into storebench's options, for --config_file with --workload soe.
// docs/soe.md lists each element and the option it sets. What storebench cannot honour (the
// JDBC connection, Oracle-only settings) is collected into the option soe_config_not_honoured,
// which the run prints as one warning and records in its result.
#ifndef STOREBENCH_WORKLOAD_SOE_SWINGBENCH_CONFIG_H_
#define STOREBENCH_WORKLOAD_SOE_SWINGBENCH_CONFIG_H_

#include <string>

#include "config/options.h"
#include "storebench/status.h"

namespace sb::soe {

// Sets the options the file names, as the command line would at the file's position (later
// options win). Options not declared for the command (a load has no n_threads) are skipped.
// A file that cannot be read, is not well-formed XML (the message names its line), is not a
// Swingbench configuration, or names a transaction that is not Order Entry's is
// InvalidArgument.
Status ReadSwingbenchConfig(const std::string& path, config::OptionSet* options);

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_SWINGBENCH_CONFIG_H_
