// The last step every command that measures shares (oltp run, run --plan, io run, io fragtest,
// io read and copy, exec, power): the result document written to --json, or to a new
// results/<timestamp><ext> (session/result_path.h), whole or not at all
// (report::WriteResultFile), and where it went said on stderr.
#ifndef STOREBENCH_CLI_RESULT_DOCUMENT_H_
#define STOREBENCH_CLI_RESULT_DOCUMENT_H_

#include <string>

#include "metrics/run_result.h"
#include "storebench/status.h"

namespace sb::cli {

// The path written, or the write's error (the caller chooses its exit code).
Result<std::string> WriteResultDocument(const std::string& json_option, const std::string& ext,
                                        const metrics::RunResult& r);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_RESULT_DOCUMENT_H_
