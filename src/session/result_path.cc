#include "session/result_path.h"

#include "base/clock.h"
#include "base/unique_file.h"

namespace sb::session {

std::string ResultPath(const std::string& json_option, const std::string& ext, bool* claimed) {
  if (claimed != nullptr) *claimed = false;
  if (!json_option.empty()) return json_option;
  const std::string stamp = WallClockLocal(/*compact=*/true);
  auto created = CreateUniqueFile("results", stamp, ext);
  if (claimed != nullptr) *claimed = created.ok();
  return created.ok() ? *created : "results/" + stamp + ext;
}

}  // namespace sb::session
