// libFuzzer target: the --spec access-specification parser (storage::ParseSpecText) and the
// checks run on what it returns (storage::ValidateSpec, with and without O_DIRECT).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "workload/storage/access_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto spec = sb::storage::ParseSpecText(text);
  if (!spec.ok()) {
    (void)spec.status().message();
    return 0;
  }
  int bad_line = 0;
  (void)sb::storage::ValidateSpec(*spec, /*direct=*/false, &bad_line);
  (void)sb::storage::ValidateSpec(*spec, /*direct=*/true, &bad_line);
  for (const auto& line : spec->lines) (void)line.ToIcfLine();
  (void)spec->MaxTransfer();
  (void)spec->HasWrites();
  return 0;
}
