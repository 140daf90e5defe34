// Making a file fragmented on purpose, keeping every byte of it. Three methods:
//
// move_ext (ext4 only): each chosen block is moved with EXT4_IOC_MOVE_EXT into a block
//   preallocated at the same offset in a donor file (the kernel copies the data; the donor's
//   blocks are never the file's neighbours). On a busy ext4 volume punched blocks were reused in
//   place at once (the root file system of the VM measured here; a quiet loop-device ext4 did
//   not), which defeats punch and refill there.
// punch: punch and refill (xfstests' src/punch-alternating.c, used to build fragmented swap
//   files): single blocks inside the file are freed and written again; while the freed blocks are
//   still owned by the running journal transaction the allocator must place the new ones
//   elsewhere, so every refilled block becomes an extent of its own and splits its neighbour
//   (about two extents per block).
// copy: the file is copied into a new file beside it with one spare block at every place the
//   copy is to be split, and each spare block is then cut out with FALLOC_FL_COLLAPSE_RANGE:
//   the data after it moves down one block in the file while its blocks stay where they are on
//   disk, so the two pieces no longer meet. Every cut adds one extent whatever the allocator
//   does; the copy is renamed over the file once it is complete and synced.
//
// On ext4 (and xfs) delayed allocation and per-file preallocation defeat the obvious recipes:
// writers interleaved in chunks, or blocks written in random order, still end up in one or a
// few extents. How many extents move_ext and punch give depends on the allocator and on timing
// (blocks freed sparsely were observed to go back in place), so they loop: act on a spread of
// blocks, measure with FIEMAP, and aim the next round at what is still missing.
//
// --method auto tries move_ext (ext4), then punch, then copy: a method the kernel, container or
// mount refuses (any errno; move_ext.h), or that stops short of the target, hands over to the
// next, and the result records for each method what happened and why.
//
// Contents never change: move_ext and the kernel copy the data, punch reads each block before
// its hole is punched and writes the same bytes back a batch at a time, and copy never touches
// the original. A stop request is honoured between batches, so an interrupted run leaves a
// complete file; only a crash (or SIGKILL) inside a punch batch could leave up to one batch of
// blocks zeroed, and `io verify --verify_phase read` would find them.
#ifndef STOREBENCH_BACKEND_FS_FRAGMENT_H_
#define STOREBENCH_BACKEND_FS_FRAGMENT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/fs/extent_map.h"
#include "backend/fs/move_ext.h"
#include "base/file_lock.h"
#include "storebench/status.h"

namespace sb::fs {

enum class FragmentMethod {
  kAuto,     // move_ext (ext4), then punch, then copy
  kMoveExt,  // only EXT4_IOC_MOVE_EXT into a donor
  kPunch,    // only punch and refill
  kCopy,     // only copy with spare blocks collapsed out
};
// "auto", "move_ext", "punch", "copy"; Parse returns nothing for any other word.
const char* FragmentMethodName(FragmentMethod m);
std::optional<FragmentMethod> ParseFragmentMethod(std::string_view name);

struct FragmentOptions {
  std::string path;
  int64_t target_extents = 0;
  // The byte range whose blocks may be rewritten (a test file's data area, leaving its header
  // alone); both multiples of the file system's block size.
  uint64_t region_start = 0;
  uint64_t region_bytes = 0;
  double tolerance = 0.05;                  // done when |extents - target| <= tolerance * target
  int max_rounds = 100;                     // also ends after 5 rounds in a row that added nothing
  const std::atomic<bool>* stop = nullptr;  // checked between batches
  FragmentMethod method = FragmentMethod::kAuto;
  MoveExtCall move_ext_call;  // empty: the real ioctl (tests inject a refusal)
};

// One method of the chain: what became of it.
struct FragmentAttempt {
  std::string method;  // "move_ext", "punch", "copy"
  // "reached" (the target, within the tolerance), "short" (ran, stopped short of it),
  // "refused" (the system refused it; every byte kept), "not_applicable" (not a method of this
  // file system), "not_needed" (an earlier method reached the target).
  std::string status;
  std::string why;  // one sentence
  int64_t before = 0, after = 0;
  int rounds = 0;
  uint64_t blocks = 0;  // blocks moved or refilled; for copy, the cuts made
};

struct FragmentResult {
  int64_t before = 0;  // extents (filefrag's count) before and after
  int64_t after = 0;
  int rounds = 0;
  uint64_t blocks_refilled = 0;
  bool reached = false;  // within the tolerance of the target
  std::string method;    // the method that left the file as it is ("" when none changed it)
  std::string how;       // that method in words, for the result's choices
  std::vector<FragmentAttempt> attempts;  // every method of the chain, in order
  // After copy the path names a new file: the caller's flock on the old one no longer guards it,
  // so the new file is locked exclusively here before the rename.
  std::unique_ptr<FileLock> new_lock;
};

// The most extents the region can be given (every block its own extent).
int64_t MaxFragmentExtents(uint64_t region_bytes, uint64_t block_size);

// Fragments `options.path` towards the target. InvalidArgument when the target is more than the
// region allows; FailedPrecondition on a read-only mount, a file system without FIEMAP, and a
// method this file system does not have (move_ext off ext4; a file system that cannot punch
// holes or collapse ranges); IoError when the chosen method (or every method of auto) is
// refused; Cancelled (after completing the batch) when `stop` is set. A file already more
// fragmented than the target is left as it is (reached = false, rounds = 0). Notes (a method
// refused and the next one taking over, each round) go to `progress`.
Result<FragmentResult> FragmentFile(const FragmentOptions& options, const FileSystemInfo& fs,
                                    const std::function<void(const std::string&)>& progress);

// The attempts in one line: "move_ext refused (...); punch reached (...); copy not needed".
std::string DescribeAttempts(const std::vector<FragmentAttempt>& attempts);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_FRAGMENT_H_
