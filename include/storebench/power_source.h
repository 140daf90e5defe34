// Power sources: anything that yields watt readings beside a run (a power analyzer through
// SPEC's PTDaemon, the CPU's RAPL energy counters, a BMC over IPMI DCMI or Redfish, a command, an
// analyzer's log imported afterwards). Each source is named by a URL-like spec (power/registry.h)
// and describes what it measures in its capabilities, so reports can tell a wall-power analyzer
// from a package-energy counter without knowing which kind of source produced a figure.
//
// Threading: the sampler (power/sampler.h) calls Read() of one source from one thread only, once
// a second; Mark() comes from the same thread. Open() runs before the run starts, on the caller's
// thread: its errors stop the command before any work (exit 2). A source is not shared between
// threads otherwise.
//
// A new source: a factory registered under its scheme in cli/'s power list (power/registry.h),
// a test in tests/unit/power/ (docs/contributing.md).
#ifndef STOREBENCH_INCLUDE_STOREBENCH_POWER_SOURCE_H_
#define STOREBENCH_INCLUDE_STOREBENCH_POWER_SOURCE_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "storebench/status.h"

namespace sb::power {

// Seconds since the Unix epoch (wall clock): readings carry it so that a meter's own timestamps
// and the run's line up.
inline double UnixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// What a source's watts are the power of.
enum class Measures {
  kWall,     // AC input of a machine or a rack (a power analyzer, a PDU, a BMC's PSU reading)
  kPackage,  // CPU packages (RAPL package zones)
  kDram,     // memory (RAPL DRAM zones)
  kPackageAndDram,
  kUnknown,  // a command's output: the user knows
};
const char* MeasuresName(Measures m);  // "wall", "package", "dram", "package+dram", "unknown"

struct PowerCapabilities {
  Measures measures = Measures::kUnknown;
  // The smallest step of a reading in watts (0: unknown).
  double resolution_w = 0;
  // The reading's uncertainty as a fraction of the reading (0.01 = ±1 %); < 0: unknown.
  double uncertainty = -1;
  // Readings are averages over the interval since the previous reading (energy counters), not
  // instantaneous values; the first Read() then has no watts.
  bool interval_average = false;
  // The source reads live during the run; false: it imports a log after the run (csv:).
  bool live = true;
  // The source can be told phase marks (PTDaemon).
  bool marks = false;
  // "BMC-reported" and similar qualifiers that a reader must see beside the figures.
  std::string note;
};

struct PowerReading {
  bool has_watts = false;  // false: a valid read that yields no figure yet (first energy read)
  double watts = 0;
  // The source's own clock minus the local wall clock in seconds, when the reply carries a time
  // (DCMI time stamp, Redfish's HTTP Date); NaN-free: valid only when has_clock_offset.
  bool has_clock_offset = false;
  double clock_offset_sec = 0;
};

// One reading of an imported log: wall-clock time (Unix seconds, already shifted by the
// source's offset option) and watts.
struct LoggedReading {
  double unix_sec = 0;
  double watts = 0;
};

class PowerSource {
 public:
  virtual ~PowerSource() = default;

  // Connects, checks, and reads once where that is cheap, so an unusable source is reported
  // before the run: FailedPrecondition/InvalidArgument with one sentence naming the source and
  // why.
  virtual Status Open() = 0;
  // One reading now. An error is a missing second (recorded; sampling goes on).
  virtual Result<PowerReading> Read() = 0;
  // A phase change ("warmup", "measure", "window 23m-28m start", "stop"); sources without marks
  // ignore it. Errors are recorded like failed reads.
  virtual Status Mark(const std::string& /*mark*/) { return Status::Ok(); }
  // After sampling: ends any session (PTDaemon's Stop). Idempotent.
  virtual void Close() {}
  // Sources that are not live (capabilities().live false): every reading of the log.
  virtual Result<std::vector<LoggedReading>> ReadLog() { return std::vector<LoggedReading>{}; }

  // What the watts are the power of. Final after a successful Open() (RAPL learns there which
  // zones it has); readers of results take it from then on.
  virtual const PowerCapabilities& capabilities() const = 0;
  // The spec as the user wrote it with any secret removed ("ptd://meter1:8888").
  virtual const std::string& spec() const = 0;
  // One line: what and where, e.g. "PTDaemon at meter1:8888 (YOKOGAWA,WT310,...)".
  virtual std::string Describe() const = 0;
};

}  // namespace sb::power

#endif  // STOREBENCH_INCLUDE_STOREBENCH_POWER_SOURCE_H_
