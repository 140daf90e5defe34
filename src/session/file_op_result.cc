#include "session/file_op_result.h"

#include "base/clock.h"
#include "base/format_bytes.h"
#include "session/environment.h"

namespace sb::session {

metrics::RunResult FileOpResult(const std::string& workload, double seconds, uint64_t bytes) {
  metrics::RunResult r;
  r.workload = workload;
  r.measured_sec = seconds;
  const double mib = seconds > 0 ? static_cast<double>(bytes) / seconds / 1048576.0 : 0;
  r.headline_name = "mib_per_sec";
  r.headline_value = mib;
  r.headlines = {{"mib_per_sec", mib}};
  r.loop_model = "one sequential pass, one thread, one I/O at a time";
  r.figures = {{"seconds", seconds},
               {"bytes", static_cast<double>(bytes)},
               {"mib_per_sec", mib},
               {"mb_per_sec", seconds > 0 ? static_cast<double>(bytes) / seconds / 1e6 : 0}};
  return r;
}

double FileOpMbPerSec(const metrics::RunResult& r) {
  for (const auto& [name, value] : r.figures) {
    if (name == "mb_per_sec") return value;
  }
  return 0;
}

metrics::RunResult ReadResult(const ReadFacts& f) {
  metrics::RunResult r = FileOpResult("file_read", f.pass.seconds, f.pass.bytes);
  r.started_at = r.ended_at = WallClockIsoUtc();
  r.figures.emplace_back("extents", static_cast<double>(f.extents));
  r.choices["file_op.file"] = f.path;
  r.choices["file_op.method"] =
      f.how + ", " + FormatBytesShort(f.pass.block) + " reads, sequential";
  r.choices["file_op.cache"] = f.pass.cache;
  r.environment = CollectEnvironment(f.path);
  return r;
}

metrics::RunResult CopyResult(const CopyFacts& f) {
  metrics::RunResult r = FileOpResult("file_copy", f.pass.seconds, f.pass.bytes);
  r.started_at = r.ended_at = WallClockIsoUtc();
  r.figures.emplace_back("src_extents", static_cast<double>(f.src_extents));
  r.figures.emplace_back("dst_extents", static_cast<double>(f.dst_extents));
  r.choices["file_op.file"] = f.src + " -> " + f.dst;
  r.choices["file_op.method"] = "read " + f.how_in + ", write " + f.how_out + ", " +
                                FormatBytesShort(f.pass.block) +
                                " transfers, sequential; the time includes the fsync of DST";
  r.choices["file_op.cache"] = f.pass.cache;
  r.environment = CollectEnvironment(f.dst);
  return r;
}

}  // namespace sb::session
