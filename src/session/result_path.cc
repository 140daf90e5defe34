#include "session/result_path.h"

#include "base/clock.h"
#include "base/unique_file.h"

namespace sb::session {

std::string ResultPath(const std::string& json_option, const std::string& ext) {
  if (!json_option.empty()) return json_option;
  const std::string stamp = WallClockLocal(/*compact=*/true);
  auto claimed = CreateUniqueFile("results", stamp, ext);
  return claimed.ok() ? *claimed : "results/" + stamp + ext;
}

}  // namespace sb::session
