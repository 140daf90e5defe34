#include "cli/result_document.h"

#include "cli/app.h"
#include "report/files/json_report.h"
#include "session/result_path.h"

namespace sb::cli {

Result<std::string> WriteResultDocument(const std::string& json_option, const std::string& ext,
                                        const metrics::RunResult& r) {
  const std::string path = session::ResultPath(json_option, ext);
  if (Status s = report::WriteResultFile(path, r); !s.ok()) return s;
  Progress("result written to " + path);
  return path;
}

}  // namespace sb::cli
