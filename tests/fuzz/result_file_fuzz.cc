// libFuzzer target: the reader of every file `storebench compare` and `storebench report` take
// (report::ReadResultText: a run's result, a consolidation search file, a comparison) and the
// run-result reader alone (report::ResultFromJson). Whatever the bytes, each returns a Status; a
// document it accepts is summarized and written back as compare, report and the writer would.
#include <cstddef>
#include <cstdint>
#include <string>

#include "report/files/json_report.h"
#include "report/files/result_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto file = sb::report::ReadResultText(text, "fuzz.json");
  if (!file.ok()) (void)file.status().message();
  auto run = sb::report::ResultFromJson(text);
  if (!run.ok()) {
    (void)run.status().message();
    return 0;
  }
  (void)sb::report::SummarizePower(run->power);
  (void)sb::report::ResultToJson(*run);
  return 0;
}
