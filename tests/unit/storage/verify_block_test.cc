// Verify blocks: an intact block passes; changed bytes, a misplaced block and a block written
// with another seed are each reported with absolute offsets and expected vs found values.
#include "workload/storage/verify_block.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace sb::storage {
namespace {

constexpr uint32_t kBlock = 4096;
constexpr uint64_t kOffset = 1 << 20;

TEST(VerifyBlockTest, Crc32cKnownValue) {
  const std::string s = "123456789";
  EXPECT_EQ(Crc32c(reinterpret_cast<const uint8_t*>(s.data()), s.size()), 0xE3069283u);
}

TEST(VerifyBlockTest, BlockCarriesItsOffsetAndIsDeterministic) {
  std::vector<uint8_t> a(kBlock), b(kBlock), other(kBlock), scratch(kBlock);
  FillVerifyBlock(a.data(), kBlock, kOffset, 7);
  FillVerifyBlock(b.data(), kBlock, kOffset, 7);
  FillVerifyBlock(other.data(), kBlock, kOffset + kBlock, 7);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, other);
  EXPECT_EQ(std::memcmp(a.data(), "SBVERIFY", 8), 0);
  uint64_t stored = 0;
  std::memcpy(&stored, a.data() + 8, 8);
  EXPECT_EQ(stored, kOffset);
  EXPECT_TRUE(CheckVerifyBlock(a.data(), kBlock, kOffset, 7, scratch.data()).ok);
}

TEST(VerifyBlockTest, ChangedBytesAreReportedWithTheirOffsets) {
  std::vector<uint8_t> block(kBlock), scratch(kBlock);
  FillVerifyBlock(block.data(), kBlock, kOffset, 7);
  const uint8_t expected = block[2000];
  block[2000] ^= 0xff;
  block[2003] ^= 0x01;
  const BlockCheck c = CheckVerifyBlock(block.data(), kBlock, kOffset, 7, scratch.data());
  ASSERT_FALSE(c.ok);
  char first[64];
  std::snprintf(first, sizeof first, "(first: expected 0x%02x, found 0x%02x)", expected,
                static_cast<uint8_t>(expected ^ 0xff));
  EXPECT_NE(c.detail.find("block at byte 1048576: 2 bytes differ at byte 1050576-1050579 " +
                          std::string(first)),
            std::string::npos)
      << c.detail;
  EXPECT_NE(c.detail.find("(corrupted)"), std::string::npos) << c.detail;
}

TEST(VerifyBlockTest, MisplacedAndStaleBlocks) {
  std::vector<uint8_t> block(kBlock), scratch(kBlock);
  FillVerifyBlock(block.data(), kBlock, kOffset + kBlock, 7);  // written for the next block
  BlockCheck c = CheckVerifyBlock(block.data(), kBlock, kOffset, 7, scratch.data());
  ASSERT_FALSE(c.ok);
  EXPECT_NE(c.detail.find("holds the block written for byte 1052672 (misplaced)"),
            std::string::npos)
      << c.detail;
  EXPECT_NE(c.detail.find("consistent"), std::string::npos) << c.detail;
  FillVerifyBlock(block.data(), kBlock, kOffset, 8);
  c = CheckVerifyBlock(block.data(), kBlock, kOffset, 7, scratch.data());
  ASSERT_FALSE(c.ok);
  EXPECT_NE(c.detail.find("written with seed 8, expected 7"), std::string::npos) << c.detail;
  std::memset(block.data(), 0, kBlock);
  c = CheckVerifyBlock(block.data(), kBlock, kOffset, 7, scratch.data());
  ASSERT_FALSE(c.ok);
  EXPECT_NE(c.detail.find("no verify header"), std::string::npos) << c.detail;
}

}  // namespace
}  // namespace sb::storage
