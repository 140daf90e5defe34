// libFuzzer target: the Iometer ICF parser (storage::ParseIcf) and the checks run on what it
// imports (storage::ValidateIcfSpecs, with and without O_DIRECT).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "workload/storage/icf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto icf = sb::storage::ParseIcf(text, "fuzz.icf");
  if (!icf.ok()) {
    (void)icf.status().message();
    return 0;
  }
  (void)sb::storage::ValidateIcfSpecs(*icf, /*direct=*/false);
  (void)sb::storage::ValidateIcfSpecs(*icf, /*direct=*/true);
  for (const auto& spec : icf->specs) {
    for (const auto& line : spec.lines) (void)line.ToIcfLine();
    (void)spec.MaxTransfer();
    (void)spec.HasWrites();
  }
  return 0;
}
