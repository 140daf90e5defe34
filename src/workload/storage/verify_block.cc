#include "workload/storage/verify_block.h"

#include <array>
#include <cstdio>
#include <cstring>

#include "base/random.h"

namespace sb::storage {
namespace {

constexpr char kMagic[8] = {'S', 'B', 'V', 'E', 'R', 'I', 'F', 'Y'};
constexpr size_t kCrcAt = 28;

const std::array<uint32_t, 256>& CrcTable() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// The block's checksum: CRC-32C over the block with the checksum field taken as zero.
uint32_t BlockCrc(const uint8_t* block, uint32_t size) {
  static constexpr uint8_t kZero[4] = {0, 0, 0, 0};
  uint32_t crc = Crc32c(block, kCrcAt);
  crc = Crc32c(kZero, 4, crc);
  return Crc32c(block + kCrcAt + 4, size - kCrcAt - 4, crc);
}

std::string Hex(uint64_t v, int digits) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return b;
}

std::string Printable(const uint8_t* p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += (p[i] >= 0x20 && p[i] < 0x7f) ? static_cast<char>(p[i]) : '.';
  return s;
}

}  // namespace

uint32_t Crc32c(const uint8_t* data, size_t n, uint32_t crc) {
  const auto& t = CrcTable();
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = t[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

void FillVerifyBlock(uint8_t* block, uint32_t size, uint64_t offset, uint64_t seed) {
  std::memcpy(block, kMagic, sizeof kMagic);
  Store<uint64_t>(block + 8, offset);
  Store<uint64_t>(block + 16, seed);
  Store<uint32_t>(block + 24, size);
  Random rng(DeriveSeed(seed, {0x7665726966790000ULL, offset}));
  uint32_t i = kVerifyHeaderBytes;
  for (; i + 8 <= size; i += 8) Store<uint64_t>(block + i, rng.Next64());
  if (i < size) {
    const uint64_t v = rng.Next64();
    std::memcpy(block + i, &v, size - i);
  }
  Store<uint32_t>(block + kCrcAt, BlockCrc(block, size));
}

BlockCheck CheckVerifyBlock(const uint8_t* found, uint32_t size, uint64_t offset, uint64_t seed,
                            uint8_t* scratch) {
  FillVerifyBlock(scratch, size, offset, seed);
  if (std::memcmp(found, scratch, size) == 0) return {};
  BlockCheck c;
  c.ok = false;
  std::string& d = c.detail;
  d = "block at byte " + std::to_string(offset) + ": ";
  // What the header says about where the data came from.
  if (std::memcmp(found, kMagic, sizeof kMagic) != 0) {
    d += "no verify header (expected \"SBVERIFY\", found \"" + Printable(found, 8) + "\"); ";
  } else {
    const uint64_t stored_offset = Load<uint64_t>(found + 8);
    const uint64_t stored_seed = Load<uint64_t>(found + 16);
    if (stored_offset != offset) {
      d += "holds the block written for byte " + std::to_string(stored_offset) + " (misplaced); ";
    }
    if (stored_seed != seed) {
      d += "written with seed " + std::to_string(stored_seed) + ", expected " +
           std::to_string(seed) + "; ";
    }
  }
  // Which bytes differ from what the write phase wrote.
  uint32_t first = size, last = 0, count = 0;
  for (uint32_t i = 0; i < size; ++i) {
    if (found[i] == scratch[i]) continue;
    if (first == size) first = i;
    last = i;
    ++count;
  }
  d += std::to_string(count) + (count == 1 ? " byte differs" : " bytes differ") + " at byte " +
       std::to_string(offset + first);
  if (last > first) d += "-" + std::to_string(offset + last);
  d += " (first: expected " + Hex(scratch[first], 2) + ", found " + Hex(found[first], 2) + ")";
  const uint32_t stored_crc = Load<uint32_t>(found + kCrcAt);
  const uint32_t crc = BlockCrc(found, size);
  d += "; checksum stored " + Hex(stored_crc, 8) + ", computed " + Hex(crc, 8) +
       (stored_crc == crc ? " (consistent: a whole block, not torn bytes)" : " (corrupted)");
  return c;
}

}  // namespace sb::storage
