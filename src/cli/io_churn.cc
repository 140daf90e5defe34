// storebench io churn: writers that grow, extend and delete files at once, as database files and
// logs do when several databases load into one volume, with the volume's fragments sampled. The
// writers' choices are workload/fs/churn_writer.h's; the driver runs them (driver/churn_run.h);
// the result document is session/churn_result.h's; this file checks the options, prints and
// writes it.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "backend/fs/extent_map.h"
#include "base/clock.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_fs_internal.h"
#include "driver/churn_run.h"
#include "session/churn_result.h"

namespace sb::cli {
namespace {

using fsload::ChurnSample;

void PrintSample(const ChurnSample& s) {
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
  driver::ChurnRunOptions run;
  run.dir = dir;
  run.writers = writers;
  run.max_bytes = *max_bytes;
  run.seed = static_cast<uint64_t>(o.GetInt("seed"));
  run.duration_nanos = duration;
  run.sample_nanos = interval;
  run.stop = stop_signal;
  run.fs = *fsinfo;
  SteadyClock clock;
  auto churn = driver::RunChurn(clock, run, PrintSample);
  if (!churn.ok()) return Fail(churn.status());
  const std::vector<ChurnSample>& samples = churn->samples;
  const ChurnSample& last = samples.back();
  const bool interrupted = churn->interrupted;
  std::printf(
      "churn: %llu operations, %s written, %llu files deleted; extents %lld -> %lld, "
      "volume used %s -> %s\n",
      static_cast<unsigned long long>(churn->operations),
      FormatBytesShort(churn->bytes_written).c_str(),
      static_cast<unsigned long long>(churn->files_deleted),
      static_cast<long long>(samples.front().extents), static_cast<long long>(last.extents),
      FormatBytesShort(samples.front().volume_used_bytes).c_str(),
      FormatBytesShort(last.volume_used_bytes).c_str());
  if (churn->write_errors > 0) {
    Progress("warning: " + std::to_string(churn->write_errors) +
             " write error(s), the first: " + churn->first_error);
  }
  if (!o.GetBool("keep")) {
    for (int i = 0; i < writers; ++i) {
      std::filesystem::remove_all(dir + "/w" + std::to_string(i), ec);
    }
  }
  const std::string& json_path = o.GetString("json");
  if (!json_path.empty()) {
    const std::string doc =
        session::ChurnResultJson(*churn, dir, *fsinfo, o.ToJson(), WallClockIsoUtc());
    if (Status s = WriteJsonDocument(json_path, doc); !s.ok()) return Fail(s);
    Progress("written " + json_path);
  }
  if (interrupted) return kExitInterrupted;
  return churn->write_errors > 0 ? kExitFailure : kExitOk;
}

}  // namespace sb::cli
