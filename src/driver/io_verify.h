// `storebench io verify`: the write phase fills a target's test range with verify blocks (each
// carries its offset and a checksum, workload/storage/verify_block.h); the read phase reads them
// back and reports every block that differs from what the write phase wrote. Both phases stream
// through the range in order with `depth` I/Os in flight on one engine instance.
#ifndef STOREBENCH_DRIVER_IO_VERIFY_H_
#define STOREBENCH_DRIVER_IO_VERIFY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "storebench/io_engine.h"
#include "storebench/status.h"

namespace sb::driver {

struct VerifyConfig {
  std::string engine = "io_uring";
  std::string path;
  uint64_t range_start = 0;  // absolute offset; REQUIRES: a multiple of `block`'s sector
  uint64_t range_bytes = 0;  // whole blocks are verified; a partial last block is left alone
  uint32_t block = 4096;     // REQUIRES: a multiple of 512, at least 512
  uint64_t seed = 1;
  int depth = 32;
  bool direct = true;
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: end early
};

struct VerifyPhase {
  uint64_t blocks = 0;  // written or read
  double seconds = 0;
  bool interrupted = false;
  // Read phase: one line per block that differs (or could not be read), in offset order.
  std::vector<std::string> mismatches;
};

// The write phase. REQUIRES: the caller checked that the target may be written. A failed write
// is an IoError naming the offset.
Result<VerifyPhase> WriteVerifyBlocks(const io::EngineRegistry& engines, const VerifyConfig& c,
                                      Clock& clock,
                                      const std::function<void(const std::string&)>& progress);
// The read phase: never writes.
Result<VerifyPhase> ReadVerifyBlocks(const io::EngineRegistry& engines, const VerifyConfig& c,
                                     Clock& clock,
                                     const std::function<void(const std::string&)>& progress);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_IO_VERIFY_H_
