// storebench io churn: writers that grow, extend and delete files at once, as database files and
// logs do when several databases load into one volume, with the volume's fragments sampled.
//
// Each writer keeps files of its own under DIR/w<i>/ and repeats, chosen at random:
//   append  4 KiB - 1 MiB to one of its data files, fdatasync every 8th time (a table growing);
//   extend  a data file by 1 - 8 MiB preallocated with fallocate, then written (autoextend);
//   log     4 - 64 KiB appended to its log with fdatasync each time; at 16 MiB the log is
//           closed and a new one started, keeping the last four (log rotation);
//   delete  one of its data files (a dropped table or temp file), also whenever its files pass
//           its share of --max_bytes.
// Interleaved allocations of several writers are what splits files into extents; how many
// depends on the file system's allocator (ext4's delayed allocation and per-file preallocation
// absorb much of it), so the result is what FIEMAP counts, before, during and after.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "backend/fs/extent_map.h"
#include "base/clock.h"
#include "base/random.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_fs_internal.h"
#include "report/json_report.h"

namespace sb::cli {
namespace {

using Json = nlohmann::ordered_json;

struct Sample {
  double t_sec = 0;
  int64_t files = 0;
  int64_t extents = 0;
  uint64_t file_bytes = 0;
  uint64_t volume_used_bytes = 0;
  int64_t free_extents = -1;  // -1: not exposed
};

// Files, extents and bytes under `dir`, and the volume's used space and free extents.
Sample Measure(const std::string& dir, const fs::FileSystemInfo& fs) {
  Sample s;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    auto st = fs::MeasureFile(it->path().string(), fs);
    if (!st.ok()) continue;  // deleted meanwhile
    ++s.files;
    s.extents += st->extents;
    s.file_bytes += st->size_bytes;
  }
  auto now = fs::DescribeFileSystem(dir);
  if (now.ok()) s.volume_used_bytes = now->used_bytes;
  const fs::FreeSpace free = fs::MeasureFreeSpace(dir);
  if (free.available) s.free_extents = free.free_extents;
  return s;
}

struct WriterStats {
  std::atomic<uint64_t> bytes{0}, ops{0}, deletes{0}, errors{0};
  std::string first_error;
  std::mutex mu;
};

class Writer {
 public:
  Writer(std::string dir, uint64_t budget, uint64_t seed, WriterStats* stats)
      : dir_(std::move(dir)), budget_(budget), rng_(seed), stats_(stats) {}

  void Run(const std::atomic<bool>& stop) {
    std::filesystem::create_directories(dir_);
    std::vector<uint8_t> buf(8u << 20);
    Random fill(rng_.Next64());
    for (size_t i = 0; i + 8 <= buf.size(); i += 8) {
      const uint64_t v = fill.Next64();
      std::memcpy(&buf[i], &v, 8);
    }
    while (!stop.load(std::memory_order_relaxed)) {
      const uint64_t pick = Pick(100);
      if (data_.size() < 2 || pick < 5) {
        NewDataFile();
      } else if (pick < 45) {
        Append(data_[Pick(data_.size())], 4096 * (1 + Pick(256)), buf, ++appends_ % 8 == 0);
      } else if (pick < 60) {
        Extend(data_[Pick(data_.size())], (1 + Pick(8)) << 20, buf);
      } else if (pick < 95) {
        Log(4096 * (1 + Pick(16)), buf);
      } else {
        Delete(Pick(data_.size()));
      }
      while (Used() > budget_ && data_.size() > 1) Delete(0);
      stats_->ops.fetch_add(1, std::memory_order_relaxed);
    }
  }

 private:
  struct File {
    std::string path;
    uint64_t size = 0;
  };

  uint64_t Pick(uint64_t n) { return static_cast<uint64_t>(rng_.Next(static_cast<int64_t>(n))); }

  uint64_t Used() const {
    uint64_t n = 0;
    for (const File& f : data_) n += f.size;
    for (const File& f : logs_) n += f.size;
    return n;
  }

  void Error(const std::string& what) {
    stats_->errors.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> l(stats_->mu);
    if (stats_->first_error.empty()) stats_->first_error = what;
  }

  bool Write(const std::string& path, uint64_t off, uint64_t len, const std::vector<uint8_t>& buf,
             bool sync) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      Error("cannot open " + path + ": " + std::strerror(errno));
      return false;
    }
    bool ok = true;
    for (uint64_t done = 0; done < len && ok;) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(len - done, buf.size()));
      const ssize_t w = ::pwrite(fd, buf.data(), n, static_cast<off_t>(off + done));
      if (w <= 0) {
        Error("cannot write " + path + ": " + std::strerror(errno));
        ok = false;
        break;
      }
      done += static_cast<uint64_t>(w);
    }
    if (ok && sync) ::fdatasync(fd);
    ::close(fd);
    if (ok) stats_->bytes.fetch_add(len, std::memory_order_relaxed);
    return ok;
  }

  void NewDataFile() {
    data_.push_back({dir_ + "/data" + std::to_string(next_++) + ".db", 0});
    Append(data_.back(), 1 << 20, {}, true);
  }
  void Append(File& f, uint64_t len, const std::vector<uint8_t>& buf, bool sync) {
    static const std::vector<uint8_t> zeros(1 << 20);
    if (Write(f.path, f.size, len, buf.empty() ? zeros : buf, sync)) f.size += len;
  }
  void Extend(File& f, uint64_t len, const std::vector<uint8_t>& buf) {
    const int fd = ::open(f.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
      (void)::fallocate(fd, 0, static_cast<off_t>(f.size), static_cast<off_t>(len));
      ::close(fd);
    }
    Append(f, len, buf, true);
  }
  void Log(uint64_t len, const std::vector<uint8_t>& buf) {
    if (logs_.empty() || logs_.back().size >= (16u << 20)) {
      logs_.push_back({dir_ + "/log" + std::to_string(next_++) + ".log", 0});
      while (logs_.size() > 4) {
        ::unlink(logs_.front().path.c_str());
        logs_.erase(logs_.begin());
        stats_->deletes.fetch_add(1, std::memory_order_relaxed);
      }
    }
    Append(logs_.back(), len, buf, true);
  }
  void Delete(uint64_t i) {
    if (i >= data_.size()) return;
    ::unlink(data_[i].path.c_str());
    data_.erase(data_.begin() + static_cast<std::ptrdiff_t>(i));
    stats_->deletes.fetch_add(1, std::memory_order_relaxed);
  }

  std::string dir_;
  uint64_t budget_;
  Random rng_;
  WriterStats* stats_;
  std::vector<File> data_, logs_;
  uint64_t next_ = 0, appends_ = 0;
};

Json SampleJson(const Sample& s) {
  Json j = Json::object();
  j["t_sec"] = s.t_sec;
  j["files"] = s.files;
  j["extents"] = s.extents;
  j["file_bytes"] = s.file_bytes;
  j["volume_used_bytes"] = s.volume_used_bytes;
  if (s.free_extents >= 0) {
    j["free_extents"] = s.free_extents;
  } else {
    j["free_extents"] = nullptr;
  }
  return j;
}

void PrintSample(const Sample& s) {
  std::printf("%8.1f %7lld %9lld %12s %12s %12s\n", s.t_sec, static_cast<long long>(s.files),
              static_cast<long long>(s.extents), FormatBytesShort(s.file_bytes).c_str(),
              FormatBytesShort(s.volume_used_bytes).c_str(),
              s.free_extents < 0 ? "-" : std::to_string(s.free_extents).c_str());
  std::fflush(stdout);
}

}  // namespace

int Churn(const config::OptionSet& o) {
  const std::string& dir = o.GetString("dir");
  if (dir.empty()) return Fail(Status::InvalidArgument("io churn needs --dir DIR"));
  auto max_bytes = ParseBytes(o.GetString("max_bytes"));
  if (!max_bytes.ok()) return Fail(max_bytes.status());
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Fail(Status::InvalidArgument("cannot create --dir '" + dir + "': " + ec.message()));
  }
  auto fsinfo = fs::DescribeFileSystem(dir);
  if (!fsinfo.ok()) return Fail(fsinfo.status());
  if (fsinfo->read_only) {
    return Fail(Status::FailedPrecondition("--dir '" + dir + "' is on a read-only mount (" +
                                           fsinfo->mount_point + ")"));
  }
  // A file system without FIEMAP cannot show what the churn did: refused before writing.
  {
    const std::string probe = dir + "/.storebench-churn-probe";
    const int fd = ::open(probe.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
      auto st = fs::MeasureOpenFile(fd, probe, *fsinfo);
      ::close(fd);
      ::unlink(probe.c_str());
      if (!st.ok()) return Fail(st.status());
    }
  }
  const int writers = static_cast<int>(o.GetInt("writers"));
  const int64_t duration = o.GetDurationNanos("duration");
  const int64_t interval = o.GetDurationNanos("sample_interval");
  const auto* stop_signal = InstallStopHandlers();
  StopAtOnceFlag(kResultStillWritten);
  std::printf("storebench io churn in %s (%s on %s): %d writer(s), %s, up to %s\n",
              EscapeForTerminal(dir).c_str(), fsinfo->type.c_str(),
              EscapeForTerminal(fsinfo->source).c_str(), writers, FormatDuration(duration).c_str(),
              FormatBytesShort(*max_bytes).c_str());
  std::printf("%8s %7s %9s %12s %12s %12s\n", "t s", "files", "extents", "file bytes",
              "volume used", "free extents");
  std::vector<Sample> samples;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  samples.push_back(Measure(dir, *fsinfo));
  PrintSample(samples.back());
  const std::string started = WallClockIsoUtc();
  WriterStats stats;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<Writer>> ws;
  for (int i = 0; i < writers; ++i) {
    ws.push_back(std::make_unique<Writer>(
        dir + "/w" + std::to_string(i), *max_bytes / static_cast<uint64_t>(writers),
        DeriveSeed(static_cast<uint64_t>(o.GetInt("seed")), {static_cast<uint64_t>(i)}), &stats));
    threads.emplace_back([&, i] { ws[static_cast<size_t>(i)]->Run(stop); });
  }
  const double end_sec = static_cast<double>(duration) / 1e9;
  double next = static_cast<double>(interval) / 1e9;
  while (elapsed() < end_sec && !stop_signal->load(std::memory_order_relaxed)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (elapsed() >= next && elapsed() < end_sec) {
      Sample s = Measure(dir, *fsinfo);
      s.t_sec = elapsed();
      samples.push_back(s);
      PrintSample(s);
      next += static_cast<double>(interval) / 1e9;
    }
  }
  stop = true;
  for (auto& t : threads) t.join();
  Sample last = Measure(dir, *fsinfo);
  last.t_sec = elapsed();
  samples.push_back(last);
  PrintSample(last);
  const bool interrupted = stop_signal->load(std::memory_order_relaxed);
  std::printf(
      "churn: %llu operations, %s written, %llu files deleted; extents %lld -> %lld, "
      "volume used %s -> %s\n",
      static_cast<unsigned long long>(stats.ops.load()),
      FormatBytesShort(stats.bytes.load()).c_str(),
      static_cast<unsigned long long>(stats.deletes.load()),
      static_cast<long long>(samples.front().extents), static_cast<long long>(last.extents),
      FormatBytesShort(samples.front().volume_used_bytes).c_str(),
      FormatBytesShort(last.volume_used_bytes).c_str());
  if (stats.errors.load() > 0) {
    Progress("warning: " + std::to_string(stats.errors.load()) +
             " write error(s), the first: " + stats.first_error);
  }
  if (!o.GetBool("keep")) {
    for (int i = 0; i < writers; ++i) {
      std::filesystem::remove_all(dir + "/w" + std::to_string(i), ec);
    }
  }
  const std::string& json_path = o.GetString("json");
  if (!json_path.empty()) {
    Json doc = Json::object();
    doc["kind"] = "storebench.churn";
    doc["format_version"] = 1;
    doc["tool"] = {{"name", "storebench"}, {"version", report::ToolVersion()}};
    doc["started_at"] = started;
    doc["ended_at"] = WallClockIsoUtc();
    doc["interrupted"] = interrupted;
    doc["dir"] = dir;
    doc["filesystem"] = {{"type", fsinfo->type},
                         {"source", fsinfo->source},
                         {"mount_point", fsinfo->mount_point},
                         {"block_size", fsinfo->block_size}};
    doc["config"] = Json::parse(o.ToJson());
    doc["operations"] = stats.ops.load();
    doc["bytes_written"] = stats.bytes.load();
    doc["files_deleted"] = stats.deletes.load();
    doc["write_errors"] = stats.errors.load();
    doc["before"] = SampleJson(samples.front());
    doc["after"] = SampleJson(last);
    Json js = Json::array();
    for (const Sample& s : samples) js.push_back(SampleJson(s));
    doc["samples"] = std::move(js);
    if (Status s = WriteJsonDocument(json_path, doc.dump(2)); !s.ok()) return Fail(s);
    Progress("written " + json_path);
  }
  if (interrupted) return kExitInterrupted;
  return stats.errors.load() > 0 ? kExitFailure : kExitOk;
}

}  // namespace sb::cli
