// Iometer access specifications: a named list of lines, each line giving transfer size, share of
// I/Os ("% of size"), % reads, % random, delay, burst, alignment and reply (Iometer 1.1.0,
// AccessSpecList.cpp; docs/storage.md). Several specifications run one after
// another as separate tests.
#ifndef STOREBENCH_WORKLOAD_STORAGE_ACCESS_SPEC_H_
#define STOREBENCH_WORKLOAD_STORAGE_ACCESS_SPEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storebench/status.h"

namespace sb::storage {

inline constexpr uint32_t kSectorBytes = 512;

struct AccessLine {
  uint32_t size = 2048;   // transfer size in bytes
  int pct_of_size = 100;  // share of bursts this line governs; a spec's lines sum to 100
  int pct_read = 67;
  int pct_random = 100;
  int delay_ms = 0;    // wait before each burst
  int burst = 1;       // transfers per burst
  uint32_t align = 0;  // I/O start is a multiple of this; 0 = sector (512 B) boundaries
  uint32_t reply = 0;  // network transactions only; must be 0 for disk targets

  // Iometer's ICF line: "size,% of size,% reads,% random,delay,burst,align,reply".
  std::string ToIcfLine() const;
};

struct AccessSpec {
  std::string name;
  std::vector<AccessLine> lines;
  uint32_t MaxTransfer() const;
  bool HasWrites() const;
};

// Checks the lines: sizes ≥ 1 and multiples of the sector with O_DIRECT, shares summing to 100,
// percentages in 0..100, burst ≥ 1, alignment a multiple of the sector, reply 0. On failure,
// *bad_line (when given) is the index of the offending line, or -1 for the spec as a whole.
Status ValidateSpec(const AccessSpec& spec, bool direct, int* bad_line = nullptr);

// Parses the command-line form. Lines are separated by ';'; each line is comma-separated terms:
// a size ("8KiB", first), "65%read", "60%random", "40%of" (share; default 100/number of lines
// when none is given), "delay=10ms" (or a bare number of ms), "burst=4", "align=4KiB|sector|size".
// Example: "8KiB,65%read,60%random". The name defaults to the text itself.
Result<AccessSpec> ParseSpecText(std::string_view text);

// Alignment of a preset: sector (Iometer ≤ 1.0 default) or transfer size (1.1.0 default).
enum class AlignMode { kSector, kSize };

// A named set of specifications with the run settings it documents (docs/storage.md:
// the unconfirmed VMTN fields are defaults here, printed with every result).
struct Preset {
  std::string name;
  std::string description;
  std::vector<AccessSpec> specs;
  int outstanding = 1;
  int workers = 1;
  uint64_t max_size_sectors = 0;  // 0 = the whole test file
  int64_t ramp_nanos = 0;
  int64_t run_nanos = 0;
};

// "vmtn", "database", "fileserver", "webserver", "workstation". Unknown names are
// InvalidArgument listing the known ones.
Result<Preset> FindPreset(std::string_view name, AlignMode align);
std::vector<std::string> PresetNames();

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_ACCESS_SPEC_H_
