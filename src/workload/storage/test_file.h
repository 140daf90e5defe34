// The test file (Iometer's iobw.tst) and the safety rules around it.
//
// A file storebench prepares starts with a 1 MiB header region whose first block carries a text
// marker ("STOREBENCH-TESTFILE v1", data size, pattern, state); I/O happens only in the data area
// after it, so alignments up to 1 MiB relative to the data area are also absolute. A run writes
// only to a prepared file, or anywhere with --force_destroy; reading any file is allowed.
// Block devices are never written while mounted, partitioned, held by another device, or
// carrying a known signature, unless forced.
#ifndef STOREBENCH_WORKLOAD_STORAGE_TEST_FILE_H_
#define STOREBENCH_WORKLOAD_STORAGE_TEST_FILE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/random.h"
#include "storebench/status.h"

namespace sb::storage {

inline constexpr uint64_t kHeaderBytes = 1 << 20;
inline constexpr char kMarker[] = "STOREBENCH-TESTFILE v1\n";

// What write buffers and prepared files contain (Iometer's DATA_PATTERN_*): one repeated byte
// (compresses and dedupes perfectly), a pseudo-random buffer filled once per worker (compresses
// badly, dedupes across I/Os), or full random (a fresh random window for each write).
enum class DataPattern { kRepeating, kPseudoRandom, kFullRandom };
Result<DataPattern> ParseDataPattern(std::string_view text);
const char* DataPatternName(DataPattern p);
// Fills `n` bytes. kRepeating writes `byte`; the random patterns use `rng`.
void FillPattern(DataPattern p, Random& rng, uint8_t byte, uint8_t* buf, size_t n);

struct TargetInfo {
  std::string path;
  bool block_device = false;
  bool storebench_file = false;  // carries a complete marker written by `io prepare`
  // Carries the marker of an `io prepare` that never finished (state=preparing): storebench
  // created it, but its data area is not filled; `io prepare` fills it again.
  bool prepare_interrupted = false;
  uint64_t data_start = 0;  // first byte I/O may touch
  uint64_t data_bytes = 0;  // size of the data area
  std::string pattern;      // the fill pattern named in the marker
};

// Looks at an existing target without writing. NotFound when missing; InvalidArgument for
// anything but a regular file or a block device (a FIFO is refused, never opened: opening one
// waits for a writer, forever when none comes).
Result<TargetInfo> InspectTarget(const std::string& path);

// Fails (FailedPrecondition, naming the reason and --force_destroy) unless the target may be
// written: a storebench file, or anything when `force_destroy`. A block device additionally is
// checked for mounts, partitions, holders and signatures.
Status CheckWritable(const TargetInfo& target, bool force_destroy);

// The name of a known partition-table or file-system signature in the first 68 KiB of a device,
// or "" when none is recognised (MBR, GPT, ext2/3/4, XFS, btrfs, LVM2, swap, LUKS, ZFS-free).
std::string DetectSignature(const uint8_t* data, size_t n);

struct PrepareOptions {
  std::string path;
  uint64_t data_bytes = 0;  // size of the data area (the file is kHeaderBytes larger)
  DataPattern pattern = DataPattern::kFullRandom;
  uint64_t seed = 1;
  bool direct = true;          // fill with O_DIRECT (falls back to buffered with a message)
  bool force_destroy = false;  // overwrite a file storebench did not create
  // When set, checked between 1 MiB chunks: a stop leaves the file marked state=preparing and
  // returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // The caller created `path` empty just now (to lock it before anything else could): it is
  // prepared as a new file, not refused as one storebench did not make.
  bool new_file = false;
};

// Creates (or re-creates) the test file: marker with state=preparing, the data area filled with
// the pattern, fsync, then the marker with state=ready. An existing storebench file of the same
// size and pattern is left as it is (returns false in *created); one whose preparation was
// interrupted is prepared again from the start. A foreign file is refused unless force_destroy;
// block devices are refused (run the tests on them with --force_destroy).
Status PrepareTestFile(const PrepareOptions& options,
                       const std::function<void(const std::string&)>& progress, bool* created);

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_TEST_FILE_H_
