// Making a file fragmented on purpose, keeping every byte of it: punch and refill.
//
// On ext4 (and xfs) delayed allocation and per-file preallocation defeat the obvious recipes:
// writers interleaved in chunks, or blocks written in random order, still end up in one or a
// few extents. What works (xfstests' src/punch-alternating.c, used to build fragmented swap
// files) is to free single blocks inside the file and write them again: while the freed blocks
// are still owned by the running journal transaction the allocator must place the new ones
// elsewhere, so every refilled block becomes an extent of its own and splits its neighbour
// (about two extents per block). How many survive depends on the allocator and on timing
// (blocks freed sparsely were observed to go back in place), so the generator loops: refill a
// spread of blocks, measure with FIEMAP, and aim the next round at what is still missing.
//
// On ext4 even that fails on a busy volume: punched blocks were reused in place at once (the
// root file system of the VM measured here; a quiet loop-device ext4 did not), so there each
// chosen block is instead moved into a block preallocated in a donor file with EXT4_IOC_MOVE_EXT
// (the kernel copies the data; the donor's blocks are never the file's neighbours); punch and
// refill is the method elsewhere, and on ext4 when the ioctl is refused.
//
// Contents never change: each block is read before its hole is punched and the same bytes are
// written back, a batch at a time (or the kernel moves it). A stop request is honoured between batches, so an
// interrupted run leaves a complete file; only a crash (or SIGKILL) inside a batch could leave
// up to one batch of blocks zeroed, and `io verify --verify_phase read` would find them.
#ifndef STOREBENCH_BACKEND_FS_FRAGMENT_H_
#define STOREBENCH_BACKEND_FS_FRAGMENT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "backend/fs/extent_map.h"
#include "base/status.h"

namespace sb::fs {

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
};

struct FragmentResult {
  int64_t before = 0;  // extents (filefrag's count) before and after
  int64_t after = 0;
  int rounds = 0;
  uint64_t blocks_refilled = 0;
  bool reached = false;  // within the tolerance of the target
  std::string method;    // how it was done, for the result's choices
};

// The most extents punch-and-refill can give the region (every other block refilled).
int64_t MaxFragmentExtents(uint64_t region_bytes, uint64_t block_size);

// Fragments `options.path` towards the target. InvalidArgument when the target is more than the
// region allows; FailedPrecondition on a read-only mount or a file system without FIEMAP or
// hole punching; Cancelled (after completing the batch) when `stop` is set. A file already more
// fragmented than the target is left as it is (reached = false, rounds = 0).
Result<FragmentResult> FragmentFile(const FragmentOptions& options, const FileSystemInfo& fs,
                                    const std::function<void(const std::string&)>& progress);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_FRAGMENT_H_
