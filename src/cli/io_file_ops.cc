// storebench io copy|read: timed file operations, as a fragmentation guide times them (copy a
// large file, read one). The passes are workload/fs/file_pass.h's, through the psync engine, and
// the driver times them (driver/file_pass_runner.h), the result is session/file_op_result.h's;
// this file checks the options, prints and writes the result.
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_fs_commands.h"
#include "cli/io_fs_internal.h"
#include "cli/result_document.h"
#include "driver/file_pass_runner.h"
#include "report/files/json_report.h"
#include "session/file_op_result.h"
#include "workload/fs/file_pass.h"
#include "workload/fs/page_cache.h"
#include "workload/fs/target_extents.h"

namespace sb::cli {
namespace {

// The sequential passes run one request at a time through the synchronous engine.
Result<std::unique_ptr<io::IoEngine>> PassEngine(const io::EngineRegistry& engines) {
  return engines.Create("psync", io::EngineOptions{});
}

Result<uint64_t> BlockSize(const config::OptionSet& o) {
  auto b = ParseBytes(o.GetString("block_size"));
  if (!b.ok()) return b.status();
  if (*b < 4096 || *b % 4096 != 0 || *b > (256u << 20)) {
    return Status::InvalidArgument("block_size must be a multiple of 4 KiB up to 256 MiB");
  }
  return *b;
}

int64_t Extents(const std::string& path, std::string* fs_type) {
  const fsload::TargetExtents t = fsload::MeasureTargetExtents(path);
  *fs_type = t.filesystem;
  return t.extents;
}

int WriteResult(const config::OptionSet& o, metrics::RunResult* r, const std::string& ext) {
  r->config_json = o.ToJson();
  if (auto written = WriteResultDocument(o.GetString("json"), ext, *r); !written.ok()) {
    return Fail(written.status());
  }
  return kExitOk;
}

}  // namespace

int ReadFile(const config::OptionSet& o, const std::vector<std::string>& operands,
             const io::EngineRegistry& engines) {
  if (operands.size() != 1) return Fail(Status::InvalidArgument("io read needs one PATH"));
  const std::string& path = operands[0];
  auto block = BlockSize(o);
  if (!block.ok()) return Fail(block.status());
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Fail(Status::InvalidArgument("'" + path + "' is not a readable regular file"));
  }
  std::string fs_type;
  const int64_t extents = Extents(path, &fs_type);
  const std::string cache = fsload::DropCaches(o.GetString("drop_caches"), {path});
  auto engine = PassEngine(engines);
  if (!engine.ok()) return Fail(engine.status());
  fsload::ReadPassOptions ro;
  ro.path = path;
  ro.block = *block;
  ro.direct = o.GetBool("direct");
  auto pass = fsload::OpenReadPass(std::move(engine).value(), ro);
  if (!pass.ok()) return Fail(pass.status());
  const auto* stop = InstallStopHandlers();
  SteadyClock clock;
  auto timed = driver::RunFilePass(clock, **pass, stop);
  if (!timed.ok()) {
    if (timed.status().code() == StatusCode::kCancelled) {
      return Fail(Status::Cancelled("io read stopped by a signal"));
    }
    return Fail(timed.status());
  }
  session::ReadFacts facts;
  facts.pass = {timed->seconds, timed->bytes, *block, cache};
  facts.path = path;
  facts.how = (*pass)->how();
  facts.extents = extents;
  metrics::RunResult r = session::ReadResult(facts);
  std::printf("read %s: %llu bytes in %.3f s, %.1f MiB/s (%.1f MB/s), %s, %s extents (%s)\n  %s\n",
              EscapeForTerminal(path).c_str(), static_cast<unsigned long long>(facts.pass.bytes),
              facts.pass.seconds, r.headline_value, session::FileOpMbPerSec(r), facts.how.c_str(),
              extents < 0 ? "unknown" : std::to_string(extents).c_str(), fs_type.c_str(),
              EscapeForTerminal(cache).c_str());
  std::fflush(stdout);
  return WriteResult(o, &r, "-read.json");
}

int CopyFile(const config::OptionSet& o, const std::vector<std::string>& operands,
             const io::EngineRegistry& engines) {
  if (operands.size() != 2) return Fail(Status::InvalidArgument("io copy needs SRC and DST"));
  const std::string &src = operands[0], &dst = operands[1];
  auto block = BlockSize(o);
  if (!block.ok()) return Fail(block.status());
  struct stat st {};
  if (::stat(src.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Fail(Status::InvalidArgument("'" + src + "' is not a readable regular file"));
  }
  if (::lstat(dst.c_str(), &st) == 0) {
    return Fail(Status::AlreadyExists("'" + dst +
                                      "' exists; io copy writes only a new file (remove it or "
                                      "choose another name)"));
  }
  std::string fs_type;
  const int64_t src_extents = Extents(src, &fs_type);
  const std::string cache = fsload::DropCaches(o.GetString("drop_caches"), {src});
  auto engine = PassEngine(engines);
  if (!engine.ok()) return Fail(engine.status());
  fsload::CopyPassOptions co;
  co.src = src;
  co.dst = dst;
  co.block = *block;
  co.direct = o.GetBool("direct");
  // A failed or stopped copy leaves no partial DST behind: the pass removes it when destroyed.
  auto pass = fsload::OpenCopyPass(std::move(engine).value(), co);
  if (!pass.ok()) return Fail(pass.status());
  const auto* stop = InstallStopHandlers();
  SteadyClock clock;
  auto timed = driver::RunFilePass(clock, **pass, stop);
  if (!timed.ok()) {
    pass->reset();  // DST removed before the message says so
    if (timed.status().code() == StatusCode::kCancelled) {
      return Fail(Status::Cancelled("io copy stopped by a signal; the partial copy was removed"));
    }
    return Fail(timed.status());
  }
  session::CopyFacts facts;
  facts.pass = {timed->seconds, timed->bytes, *block, cache};
  facts.src = src;
  facts.dst = dst;
  facts.how_in = (*pass)->source_how();
  facts.how_out = (*pass)->how();
  pass->reset();
  facts.src_extents = src_extents;
  std::string dst_fs;
  facts.dst_extents = Extents(dst, &dst_fs);
  metrics::RunResult r = session::CopyResult(facts);
  std::printf(
      "copy %s -> %s: %llu bytes in %.3f s, %.1f MiB/s (%.1f MB/s), extents %lld -> %lld\n"
      "  %s\n",
      EscapeForTerminal(src).c_str(), EscapeForTerminal(dst).c_str(),
      static_cast<unsigned long long>(facts.pass.bytes), facts.pass.seconds, r.headline_value,
      session::FileOpMbPerSec(r), static_cast<long long>(facts.src_extents),
      static_cast<long long>(facts.dst_extents), EscapeForTerminal(cache).c_str());
  std::fflush(stdout);
  return WriteResult(o, &r, "-copy.json");
}

}  // namespace sb::cli
