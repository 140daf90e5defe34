// libFuzzer target: the plan file parser (config::ParsePlan, TOML) and what a run derives from an
// accepted plan (instance count, scaled group, expanded URL templates).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto plan = sb::config::ParsePlan(text, "fuzz.toml");
  if (!plan.ok()) {
    (void)plan.status().message();
    return 0;
  }
  const int instances = plan->Instances();
  if (instances < 1 || instances > sb::config::kMaxPlanInstances) std::abort();
  const int scale = plan->ScaleGroup();
  if (scale < 0 || scale >= static_cast<int>(plan->groups.size())) std::abort();
  for (const auto& group : plan->groups) {
    for (int i = 1; i <= group.count && i <= 3; ++i) {
      // Every instance up to the count has a database (a list is never shorter).
      if (!sb::config::InstanceDatabase(*plan, group, i).ok()) std::abort();
    }
  }
  return 0;
}
