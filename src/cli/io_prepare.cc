// storebench io prepare (docs/storage.md, "Test files and safety"): test files created, or
// checked and kept, under an exclusive lock each, optionally fragmented.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/file_lock.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_fs_commands.h"
#include "cli/io_internal.h"
#include "config/options.h"
#include "session/io_targets.h"
#include "workload/fs/target_extents.h"
#include "workload/storage/test_file.h"

namespace sb::cli {

int IoPrepare(const config::OptionSet& o) {
  auto targets = session::TargetPaths(o);
  if (!targets.ok()) return Fail(targets.status());
  storage::PrepareOptions p;
  auto size = ParseBytes(o.GetString("size"));
  if (!size.ok()) return Fail(size.status());
  p.data_bytes = *size;
  p.pattern = storage::ParseDataPattern(o.GetString("pattern")).value();
  p.seed = static_cast<uint64_t>(o.GetInt("seed"));
  p.direct = o.GetBool("direct");
  p.force_destroy = o.GetBool("force_destroy");
  p.stop = InstallStopHandlers();
  // Every target is locked before any is written; a target is created (empty) to be locked.
  std::vector<std::unique_ptr<FileLock>> locks;
  std::vector<bool> new_file;
  for (const std::string& path : *targets) {
    std::error_code ec;
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    bool made = false;
    auto lock = session::LockTarget(path, /*write=*/true, /*create=*/true, &made);
    if (!lock.ok()) return Fail(lock.status());
    locks.push_back(std::move(lock).value());
    new_file.push_back(made);
  }
  for (size_t i = 0; i < targets->size(); ++i) {
    const std::string& path = (*targets)[i];
    p.path = path;
    p.new_file = new_file[i];
    bool created = false;
    const int64_t t0 = SteadyClock().NowNanos();
    if (Status s = storage::PrepareTestFile(p, Progress, &created); !s.ok()) {
      // A file created only to be locked, refused before anything was written, is not left
      // behind (an empty file would look like someone else's to the next prepare).
      std::error_code ec;
      if (p.new_file && std::filesystem::file_size(path, ec) == 0 && !ec) {
        std::filesystem::remove(path, ec);
      }
      return Fail(s);
    }
    if (o.GetInt("fragment") > 0) {
      StopAtOnceFlag(kBatchStillPutBack);
      auto r = FragmentTestFile(path, o.GetInt("fragment"), fs::FragmentMethod::kAuto, p.stop);
      if (!r.ok()) return Fail(r.status());
      if (r->new_lock) locks[i] = std::move(r->new_lock);
      if (Status s = fsload::FragmentShortfall(path, o.GetInt("fragment"), *r); !s.ok()) {
        return Fail(s);
      }
    }
    if (created) {
      const double sec = static_cast<double>(SteadyClock().NowNanos() - t0) / 1e9;
      std::printf("prepared %s: %llu bytes of %s data after a 1 MiB header (%.1f s, %.0f MiB/s)\n",
                  p.path.c_str(), static_cast<unsigned long long>(p.data_bytes),
                  storage::DataPatternName(p.pattern), sec,
                  sec > 0 ? static_cast<double>(p.data_bytes) / sec / 1048576.0 : 0);
    }
  }
  return kExitOk;
}

}  // namespace sb::cli
