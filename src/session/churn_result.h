// io churn's result document ("kind": "storebench.churn"): what the writers did and the volume's
// samples (driver/churn_run.h), with the directory's file system and the command's options.
#ifndef STOREBENCH_SESSION_CHURN_RESULT_H_
#define STOREBENCH_SESSION_CHURN_RESULT_H_

#include <string>

#include "backend/fs/extent_map.h"
#include "driver/churn_run.h"

namespace sb::session {

// The document's JSON text (2-space indent): kind, format_version 1, tool, started_at, ended_at,
// interrupted, dir, filesystem, config (the parsed `config_json`), the writers' counts, before
// and after (the first and last samples) and every sample. `churn` holds at least one sample.
std::string ChurnResultJson(const driver::ChurnRunResult& churn, const std::string& dir,
                            const fs::FileSystemInfo& fsinfo, const std::string& config_json,
                            const std::string& ended_at);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_CHURN_RESULT_H_
