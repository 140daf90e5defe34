// Blocks for `storebench io verify`: each block carries a header with its own offset and a
// checksum, then a payload that follows from (seed, offset), so a read-back can tell a corrupted
// block (bytes changed), a misplaced one (the block written for another offset) and a stale one
// (written with another seed) apart, and say which bytes differ.
//
// Layout (little-endian): bytes 0-7 "SBVERIFY", 8-15 the block's absolute offset in the target,
// 16-23 the seed, 24-27 the block size, 28-31 CRC-32C of the whole block computed with these four
// bytes zero, 32.. payload (random bytes from DeriveSeed(seed, {offset})).
#ifndef STOREBENCH_WORKLOAD_STORAGE_VERIFY_BLOCK_H_
#define STOREBENCH_WORKLOAD_STORAGE_VERIFY_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace sb::storage {

inline constexpr uint32_t kVerifyHeaderBytes = 32;

// CRC-32C (Castagnoli), as in iSCSI and ext4.
uint32_t Crc32c(const uint8_t* data, size_t n, uint32_t crc = 0);

// Fills `size` bytes (REQUIRES: size ≥ kVerifyHeaderBytes) with the block for `offset`.
void FillVerifyBlock(uint8_t* block, uint32_t size, uint64_t offset, uint64_t seed);

struct BlockCheck {
  bool ok = true;
  // When not ok: what differs, with absolute byte offsets and expected vs found values.
  std::string detail;
};

// Compares a block read back from `offset` with the block the write phase wrote there.
// `scratch` holds `size` bytes (the expected block is built in it).
BlockCheck CheckVerifyBlock(const uint8_t* found, uint32_t size, uint64_t offset, uint64_t seed,
                            uint8_t* scratch);

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_VERIFY_BLOCK_H_
