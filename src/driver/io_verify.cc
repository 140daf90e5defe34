#include "driver/io_verify.h"

#include <algorithm>
#include <map>
#include <memory>

#include "backend/io/aligned_buffer.h"
#include "workload/storage/verify_block.h"

namespace sb::driver {
namespace {

Result<VerifyPhase> Stream(const io::EngineRegistry& engines, const VerifyConfig& c, bool write,
                           Clock& clock, const std::function<void(const std::string&)>& progress) {
  if (c.block < 512 || c.block % 512 != 0) {
    return Status::InvalidArgument("the verify block size must be a multiple of 512 bytes");
  }
  const int depth = std::max(1, c.depth);
  auto e = engines.Create(c.engine, {.queue_depth = depth});
  if (!e.ok()) return e.status();
  std::unique_ptr<io::IoEngine> engine = std::move(e).value();
  auto f = engine->Open(c.path, {.direct = c.direct, .write = write});
  if (!f.ok()) return f.status();
  const uint64_t blocks = c.range_bytes / c.block;
  std::vector<io::AlignedBuffer> buffers;
  std::vector<uint64_t> slot_offset(depth);
  std::vector<int> free;
  for (int i = 0; i < depth; ++i) {
    buffers.emplace_back(c.block);
    free.push_back(i);
  }
  io::AlignedBuffer scratch(c.block);
  std::vector<io::IoRequest> batch(depth);
  std::vector<io::IoCompletion> comps(depth);
  // Read completions arrive in any order; mismatches are sorted by offset at the end.
  std::map<uint64_t, std::string> mismatches;
  VerifyPhase out;
  const int64_t t0 = clock.NowNanos();
  uint64_t next = 0, in_flight = 0;
  uint64_t report_at = (1ULL << 30) / c.block;
  Status failure;
  auto reap = [&](int min) -> Status {
    auto got = engine->Reap(comps.data(), min, depth);
    if (!got.ok()) return got.status();
    for (int i = 0; i < *got; ++i) {
      const int slot = static_cast<int>(comps[i].tag);
      const uint64_t offset = slot_offset[slot];
      const bool full = comps[i].result == static_cast<int64_t>(c.block);
      const std::string why = comps[i].result < 0
                                  ? io::ErrnoMessage(static_cast<int>(-comps[i].result))
                                  : std::to_string(comps[i].result) + " of " +
                                        std::to_string(c.block) + " bytes transferred";
      if (write && !full && failure.ok()) {
        failure = Status::IoError("verify: writing the block at byte " + std::to_string(offset) +
                                  " of '" + c.path + "' failed: " + why);
      }
      if (!write) {
        if (!full) {
          mismatches[offset] =
              "block at byte " + std::to_string(offset) + ": cannot be read: " + why;
        } else {
          const storage::BlockCheck check = storage::CheckVerifyBlock(
              buffers[slot].data(), c.block, offset, c.seed, scratch.data());
          if (!check.ok) mismatches[offset] = check.detail;
        }
      }
      ++out.blocks;
      free.push_back(slot);
    }
    in_flight -= static_cast<uint64_t>(*got);
    return Status::Ok();
  };
  while (failure.ok() && (next < blocks || in_flight > 0)) {
    if (c.stop != nullptr && c.stop->load(std::memory_order_relaxed)) {
      out.interrupted = true;
      break;
    }
    int n = 0;
    while (!free.empty() && next < blocks) {
      const int slot = free.back();
      free.pop_back();
      const uint64_t offset = c.range_start + next * c.block;
      slot_offset[slot] = offset;
      if (write) storage::FillVerifyBlock(buffers[slot].data(), c.block, offset, c.seed);
      io::IoRequest& r = batch[n++];
      r.op = write ? io::IoOp::kWrite : io::IoOp::kRead;
      r.file = *f;
      r.offset = offset;
      r.length = c.block;
      r.buffer = buffers[slot].data();
      r.tag = static_cast<uint64_t>(slot);
      ++next;
    }
    int done = 0;
    while (done < n && failure.ok()) {
      auto got = engine->Submit(&batch[done], n - done);
      if (!got.ok()) {
        failure = got.status();
        break;
      }
      done += *got;
      in_flight += static_cast<uint64_t>(*got);
      if (done < n) {
        if (Status s = reap(1); !s.ok()) {
          failure = s;
          break;
        }
      }
    }
    if (!failure.ok()) break;
    if (in_flight > 0) {
      if (Status s = reap(1); !s.ok()) {
        failure = s;
        break;
      }
    }
    if (out.blocks >= report_at && progress) {
      progress(std::string(write ? "written " : "read ") +
               std::to_string(out.blocks * c.block >> 20) + " MiB of " +
               std::to_string(blocks * c.block >> 20) + " MiB");
      report_at += (1ULL << 30) / c.block;
    }
  }
  // Drain before the buffers go away (unless the engine itself failed).
  while (in_flight > 0) {
    if (Status s = reap(1); !s.ok()) {
      if (failure.ok()) failure = s;
      break;
    }
  }
  engine->Close();
  if (!failure.ok()) return failure;
  out.seconds = static_cast<double>(clock.NowNanos() - t0) / 1e9;
  for (auto& [offset, line] : mismatches) out.mismatches.push_back(std::move(line));
  return out;
}

}  // namespace

Result<VerifyPhase> WriteVerifyBlocks(const io::EngineRegistry& engines, const VerifyConfig& c,
                                      Clock& clock,
                                      const std::function<void(const std::string&)>& progress) {
  return Stream(engines, c, /*write=*/true, clock, progress);
}

Result<VerifyPhase> ReadVerifyBlocks(const io::EngineRegistry& engines, const VerifyConfig& c,
                                     Clock& clock,
                                     const std::function<void(const std::string&)>& progress) {
  return Stream(engines, c, /*write=*/false, clock, progress);
}

}  // namespace sb::driver
