// Options and usage of io extents/fragment/defrag/copy/read/churn/fragtest.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "base/limits.h"
#include "cli/io_fs_internal.h"
#include "cli/storage_options.h"

namespace sb::cli {

const char* IoFsUsage(const std::string& c) {
  if (c == "extents") return "storebench io extents PATH... [--recursive] [--top 10] [--json FILE]";
  if (c == "fragment") {
    return "storebench io fragment --target FILE --extents N [--method auto|move_ext|punch|copy] "
           "[--json FILE]";
  }
  if (c == "defrag") {
    return "storebench io defrag PATH... [--method auto|online|copy] [--json FILE]";
  }
  if (c == "copy") {
    return "storebench io copy SRC DST [--direct Y] [--drop_caches file] [--json FILE]";
  }
  if (c == "read") return "storebench io read PATH [--direct Y] [--drop_caches file] [--json FILE]";
  if (c == "churn") {
    return "storebench io churn --dir DIR [--writers 3] [--duration 10m] [--json FILE]";
  }
  return "storebench io fragtest --target FILE --extents N (--preset vmtn | --spec S) "
         "[--rounds 3] [--fragment_method auto|move_ext|punch|copy] [--json FILE]";
}

void DeclareIoFsOptions(config::OptionSet* o, const std::string& command,
                        const io::EngineRegistry& engines) {
  using config::OptionSpec;
  using config::OptionType;
  const StorageOptionAdder add(o);
  auto add_json = [&](const char* what) { add("json", OptionType::kString, "", what); };
  auto add_drop = [&] {
    add("drop_caches", OptionType::kEnum, "file",
        "before timing: file (posix_fadvise DONTNEED on the files: only their clean cached "
        "pages, any user), system (/proc/sys/vm/drop_caches: every cache of the machine, root "
        "only), none",
        {"file", "system", "none"});
    add("direct", OptionType::kBool, "Y", "O_DIRECT (N: through the page cache)");
    add("block_size", OptionType::kString, "1MiB", "transfer size of each read and write");
  };
  auto add_fragment_method = [&](const char* name) {
    add(name, OptionType::kEnum, "auto",
        "how to fragment: auto (move_ext on ext4, then punch, then copy: a method refused or "
        "short of the target hands over to the next), move_ext (EXT4_IOC_MOVE_EXT into a donor "
        "file), punch (punch out blocks and write them back), copy (a copy with spare blocks "
        "collapsed out, renamed over the file); a chosen method that fails is an error",
        {"auto", "move_ext", "punch", "copy"});
  };
  if (command == "extents") {
    add("recursive", OptionType::kBool, "N",
        "measure every regular file under a directory, staying on its file system (find -xdev)");
    add.Ranged("top", OptionType::kInt, "10", 0, INT32_MAX,
               "most fragmented files listed per volume");
    add_json("write the extent report as JSON to this file");
    return;
  }
  if (command == "fragment") {
    add("target", OptionType::kString, "", "a test file made by storebench io prepare");
    add.Ranged("extents", OptionType::kInt, "1", 1, INT64_MAX, "extents to reach (within 5 %)");
    add_fragment_method("method");
    add_json("write the counts, the method used and every method tried as JSON to this file");
    return;
  }
  if (command == "defrag") {
    add("method", OptionType::kEnum, "auto",
        "auto (the file system's online method, then copy and rename when the count did not "
        "drop), online (only that), copy (only copy and rename)",
        {"auto", "online", "copy"});
    add_json("write the before/after counts and every attempt as JSON to this file");
    return;
  }
  if (command == "copy" || command == "read") {
    add_drop();
    add_json("result document path (a run result: time, MB/s, extent counts)");
    return;
  }
  if (command == "churn") {
    add("dir", OptionType::kString, "", "directory the writers work in (created when missing)");
    add.Ranged("writers", OptionType::kInt, "3", 1, 64, "concurrent writers, one thread each");
    add.Ranged("duration", OptionType::kDuration, "10m", 1000000, limits::kMaxDurationNanos,
               "how long the writers run");
    add.Ranged("sample_interval", OptionType::kDuration, "10s", 100000000,
               limits::kMaxDurationNanos, "how often the volume is measured while they run");
    add("max_bytes", OptionType::kString, "1GiB",
        "space the writers may use together (each keeps to its share)");
    add("seed", OptionType::kInt, "1", "seed of the writers' choices");
    add("keep", OptionType::kBool, "Y", "leave the files behind (N: remove them at the end)");
    add_json("result document path (a run result with the samples)");
    return;
  }
  // fragtest
  add("target", OptionType::kString, "", "a test file made by storebench io prepare");
  add.Ranged("extents", OptionType::kInt, "1", 1, INT64_MAX, "extents to fragment it to");
  add("preset", OptionType::kString, "", "vmtn, database, fileserver, webserver, workstation");
  add("spec", OptionType::kString, "", "one access specification, e.g. \"8KiB,65%read,60%random\"");
  add.Ranged("rounds", OptionType::kInt, "3", 1, 100,
             "trials of every specification before and after (medians are reported)");
  add("engine", OptionType::kEnum, "io_uring", "I/O engine", engines.Names());
  add.Ranged("workers", OptionType::kInt, "0", 0, limits::kMaxIoWorkers,
             "worker threads (0: the preset's)");
  add.Ranged("outstanding", OptionType::kInt, "0", 0, limits::kMaxOutstanding,
             "outstanding I/Os per worker (0: the preset's)");
  add.Ranged("run_time", OptionType::kDuration, "10s", 1000000, limits::kMaxDurationNanos,
             "measured time of each trial");
  add.Ranged("ramp_time", OptionType::kDuration, "0s", 0, limits::kMaxDurationNanos,
             "time before measuring, each trial");
  add("seq_read", OptionType::kBool, "Y",
      "also time a 1 MiB sequential O_DIRECT read of the whole data area each trial");
  add("method", OptionType::kEnum, "auto", "defrag method (as io defrag --method)",
      {"auto", "online", "copy"});
  add_fragment_method("fragment_method");
  add("direct", OptionType::kBool, "Y", "O_DIRECT with aligned buffers");
  add("seed", OptionType::kInt, "1", "run seed");
  add_json("result document path (default results/<timestamp>-fragtest.json)");
}

Status WriteJsonDocument(const std::string& path, const std::string& text) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IoError("cannot write '" + path + "'");
  const std::string body = text + "\n";
  size_t done = 0;
  while (done < body.size()) {
    const ssize_t w = ::write(fd, body.data() + done, body.size() - done);
    if (w <= 0) {
      ::close(fd);
      ::unlink(tmp.c_str());
      return Status::IoError("cannot write '" + path + "'");
    }
    done += static_cast<size_t>(w);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return Status::IoError("cannot write '" + path + "'");
  }
  return Status::Ok();
}

}  // namespace sb::cli
