// storebench io fragtest: specifications on a fragmented test file, defrag, the same again.
#include "cli/app.h"
#include "cli/io_fs_internal.h"

namespace sb::cli {

int Fragtest(const config::OptionSet&, const io::EngineRegistry&) {
  return Fail(Status::InvalidArgument("io fragtest: not yet"));
}

}  // namespace sb::cli
