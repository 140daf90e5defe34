// storebench io verify (docs/storage.md, "Verify (`io verify`)"): blocks written with their
// offsets and a seed, read back and checked.
#include "driver/io_verify.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/file_lock.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_internal.h"
#include "config/options.h"
#include "session/io_targets.h"
#include "storebench/io_engine.h"
#include "workload/storage/access_spec.h"
#include "workload/storage/test_file.h"

namespace sb::cli {

int IoVerify(const config::OptionSet& o, const io::EngineRegistry& engines) {
  auto targets = session::TargetPaths(o);
  if (!targets.ok()) return Fail(targets.status());
  const std::string& phase = o.GetString("verify_phase");
  const bool write = phase != "read", read = phase != "write";
  if (write && o.GetBool("readonly")) {
    return Fail(Status::InvalidArgument(
        "--readonly: the write phase writes; use --verify_phase=read to check blocks written "
        "before"));
  }
  auto block = ParseBytes(o.GetString("block_size"));
  if (!block.ok()) return Fail(block.status());
  if (*block < 512 || *block % 512 != 0 || *block > (64u << 20)) {
    return Fail(Status::InvalidArgument("block_size must be a multiple of 512 B up to 64 MiB"));
  }
  uint64_t wanted = 0;
  if (!o.GetString("max_size").empty()) {
    auto r = session::ParseMaxSize(o.GetString("max_size"));
    if (!r.ok()) return Fail(r.status());
    wanted = *r;
  }
  const uint64_t start = static_cast<uint64_t>(o.GetInt("start_sector")) * storage::kSectorBytes;
  driver::VerifyConfig c;
  c.engine = o.GetString("engine");
  c.block = static_cast<uint32_t>(*block);
  c.seed = static_cast<uint64_t>(o.GetInt("seed"));
  c.depth = static_cast<int>(std::clamp<int64_t>(o.GetInt("outstanding"), 1, 65536));
  c.direct = o.GetBool("direct");
  c.stop = InstallStopHandlers();
  // Every target is locked and checked for writing before any is written.
  std::vector<std::unique_ptr<FileLock>> locks;
  for (const std::string& path : *targets) {
    auto lock = session::LockTarget(path, write, /*create=*/false);
    if (!lock.ok()) return Fail(lock.status());
    locks.push_back(std::move(lock).value());
  }
  std::vector<driver::IoTarget> ranges;
  for (const std::string& path : *targets) {
    auto info = storage::InspectTarget(path);
    if (!info.ok()) return Fail(info.status());
    if (write) {
      if (Status s = storage::CheckWritable(*info, o.GetBool("force_destroy")); !s.ok()) {
        return Fail(s);
      }
    }
    std::string warning;
    auto range = session::TestRange(*info, start, wanted, &warning);
    if (!warning.empty()) Progress(warning);
    if (!range.ok()) return Fail(range.status());
    if (range->range_bytes < c.block) {
      return Fail(Status::InvalidArgument("the test range of '" + path + "' is smaller than one " +
                                          std::to_string(c.block) + "-byte block"));
    }
    ranges.push_back(*range);
  }
  SteadyClock clock;
  uint64_t mismatches = 0;
  uint64_t headerless = 0;  // mismatches of blocks without a verify header
  for (const driver::IoTarget& t : ranges) {
    c.path = t.path;
    c.range_start = t.range_start;
    c.range_bytes = t.range_bytes;
    const uint64_t blocks = t.range_bytes / c.block;
    std::printf("verify %s: %llu blocks of %u B from byte %llu, seed %llu, engine %s, %s\n",
                t.path.c_str(), static_cast<unsigned long long>(blocks), c.block,
                static_cast<unsigned long long>(t.range_start),
                static_cast<unsigned long long>(c.seed), c.engine.c_str(),
                c.direct ? "O_DIRECT" : "buffered");
    std::fflush(stdout);
    auto rate = [](const driver::VerifyPhase& p, uint32_t block) {
      return p.seconds > 0 ? static_cast<double>(p.blocks) * block / p.seconds / 1048576.0 : 0;
    };
    if (write) {
      auto w = driver::WriteVerifyBlocks(engines, c, clock, Progress);
      if (!w.ok()) return Fail(w.status());
      std::printf("  write: %llu blocks written in %.1f s (%.0f MiB/s)\n",
                  static_cast<unsigned long long>(w->blocks), w->seconds, rate(*w, c.block));
      if (w->interrupted) return kExitInterrupted;
    }
    if (read) {
      auto r = driver::ReadVerifyBlocks(engines, c, clock, Progress);
      if (!r.ok()) return Fail(r.status());
      for (const std::string& m : r->mismatches) std::printf("  mismatch: %s\n", m.c_str());
      std::printf("  read: %llu blocks checked in %.1f s (%.0f MiB/s): %zu mismatch%s\n",
                  static_cast<unsigned long long>(r->blocks), r->seconds, rate(*r, c.block),
                  r->mismatches.size(), r->mismatches.size() == 1 ? "" : "es");
      mismatches += r->mismatches.size();
      headerless += static_cast<uint64_t>(std::count_if(
          r->mismatches.begin(), r->mismatches.end(),
          [](const std::string& m) { return m.find("no verify header") != std::string::npos; }));
      if (r->interrupted) return kExitInterrupted;
    }
    std::fflush(stdout);
  }
  if (read) std::printf("verify: %s\n", mismatches == 0 ? "all blocks intact" : "FAILED");
  if (read && !write && mismatches > 0 && headerless == mismatches) {
    std::printf(
        "verify: no block carries a verify header: the range was never written by io verify; "
        "write it first with --verify_phase=write (or --verify_phase=both)\n");
  }
  return mismatches == 0 ? kExitOk : kExitFailure;
}

}  // namespace sb::cli
