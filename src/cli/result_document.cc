#include "cli/result_document.h"

#include <unistd.h>

#include "cli/app.h"
#include "report/files/json_report.h"
#include "session/result_path.h"

namespace sb::cli {

Result<std::string> WriteResultDocument(const std::string& json_option, const std::string& ext,
                                        const metrics::RunResult& r) {
  bool claimed = false;
  const std::string path = session::ResultPath(json_option, ext, &claimed);
  if (Status s = report::WriteResultFile(path, r); !s.ok()) {
    // The default name was claimed as an empty file of this run's: a result that cannot be
    // written (a full disk) must not leave that 0-byte file behind looking like one.
    if (claimed) ::unlink(path.c_str());
    return s;
  }
  Progress("result written to " + path);
  return path;
}

}  // namespace sb::cli
