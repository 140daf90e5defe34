// Iometer configuration files (.icf): the access specifications and the test setup a storage run
// takes from them, read the way Iometer 1.1.0 reads them (ICF_ifstream, AccessSpecList::
// LoadConfigNew, CPageSetup::LoadConfig, Worker::LoadConfig; docs/storage.md).
//
// An ICF is lines of text: a "Version ..." line, then sections ('TEST SETUP, 'RESULTS DISPLAY,
// 'ACCESS SPECIFICATIONS, 'MANAGER LIST) of comment lines (starting with ') that name a setting
// and tab-indented value lines below them. Comment lines that start with ' and a blank are
// column headings ("'\thours  minutes  seconds") and belong to the setting above them.
//
// What is used: every access specification (name and lines); the run time, ramp-up time and
// "Default Disk Workers to Spawn" of the test setup; and of the manager list's disk workers the
// assigned specifications, the number of workers, outstanding I/Os per target, maximum disk size
// and starting sector (in 512-byte sectors) and data pattern. Target names are recorded only
// (they name Windows drives or devices of the machine that saved the file; the command line
// names the targets). Anything storebench cannot run as written — cycling test types, more than
// one manager, network workers, workers with different settings, reply sizes — is an error
// naming the file and line, never silently dropped.
#ifndef STOREBENCH_WORKLOAD_STORAGE_ICF_H_
#define STOREBENCH_WORKLOAD_STORAGE_ICF_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storebench/status.h"
#include "workload/storage/access_spec.h"
#include "workload/storage/test_file.h"

namespace sb::storage {

// A value read from the file with the line it came from (1-based).
template <typename T>
struct IcfValue {
  T value{};
  int line = 0;
};

struct IcfImport {
  std::string file;         // as given (for messages)
  std::string version;      // "1.1.0", "2006.07.27"
  std::string description;  // 'Test Description

  // The specifications to run, in order, with the file lines of their names and of each line.
  std::vector<AccessSpec> specs;
  std::vector<int> spec_name_lines;
  std::vector<std::vector<int>> spec_line_lines;
  // How they were chosen: "assigned to the disk workers", "default assignment ALL/DISK" or
  // "every specification in the file".
  std::string selection;

  // Test setup ('TEST SETUP); absent when the file does not give them. A run time of 0 (Iometer:
  // run until stopped) counts as absent.
  std::optional<IcfValue<int64_t>> run_nanos;
  std::optional<IcfValue<int64_t>> ramp_nanos;
  // Disk workers: those of the manager list with targets and specifications, else "Default Disk
  // Workers to Spawn" (workers_number_of_cpus when it says NUMBER_OF_CPUS).
  std::optional<IcfValue<int>> workers;
  bool workers_number_of_cpus = false;
  // Per worker and target (the same for every disk worker).
  std::optional<IcfValue<int>> outstanding;
  // "use fixed seed" ENABLED: its value, which becomes the run seed (io run --seed). A worker
  // that tests the connection rate is refused: storebench keeps its targets open.
  std::optional<IcfValue<uint64_t>> fixed_seed;
  std::optional<IcfValue<uint64_t>> max_size_sectors;  // 0 in the file (whole target) = absent
  std::optional<IcfValue<uint64_t>> start_sector;
  std::optional<IcfValue<DataPattern>> pattern;
  std::vector<std::string> targets;  // the first disk worker's target names, as written
};

// Reads an ICF file whole; a file larger than limits::kMaxIcfBytes (docs/limits.md) is refused
// after reading just past the limit.
Result<std::string> ReadIcfText(const std::string& path);

// Parses the text of an ICF. `file` names it in messages: every error is one sentence that starts
// with "<file> line <n>: " (or "<file>: " for a file over limits::kMaxIcfBytes). Limits: at most
// limits::kMaxSpecs specifications of limits::kMaxSpecLines lines, limits::kMaxIoWorkers
// workers, limits::kMaxOutstanding outstanding I/Os, times up to limits::kMaxDurationNanos; a
// manager list without its "'END manager list" (a file cut short) is refused.
Result<IcfImport> ParseIcf(std::string_view text, const std::string& file);

// ValidateSpec for every imported specification, with the file line of the offending spec line
// (or of the specification's name for whole-spec problems) in the message.
Status ValidateIcfSpecs(const IcfImport& icf, bool direct);

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_ICF_H_
