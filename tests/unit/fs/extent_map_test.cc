// Summarize: the counting rules shared with filefrag and the figures derived from a map.
#include "backend/fs/extent_map.h"

#include <gtest/gtest.h>
#include <linux/fiemap.h>

namespace sb::fs {
namespace {

constexpr uint64_t kB = 4096;

TEST(SummarizeTest, RecordsLaidEndToEndAreOneExtent) {
  // ext4 stores a contiguous 256 MiB file as two 128 MiB records.
  const std::vector<Extent> map = {{0, 1000 * kB, 32768 * kB, 0},
                                   {32768 * kB, (1000 + 32768) * kB, 32768 * kB, 0}};
  const ExtentStats s = Summarize(map, 65536 * kB, 32768 * kB);
  EXPECT_EQ(s.extents, 1);
  EXPECT_EQ(s.fs_extents, 2);
  // The fewest records (two of 128 MiB), a count of records: the file's extents are already
  // at their best, 1.
  EXPECT_EQ(s.min_records, 2);
  EXPECT_EQ(s.discontinuities, 0);
  EXPECT_EQ(s.seek_bytes, 0u);
  EXPECT_EQ(s.mean_extent_bytes, 65536 * kB);
}

TEST(SummarizeTest, AHoleThatKeepsTheOffsetOrAPhysicalContinuationDoesNotSplit) {
  const std::vector<Extent> map = {
      {0, 10 * kB, 1 * kB, 0},           // a header block
      {256 * kB, 266 * kB, 16 * kB, 0},  // after a hole, same logical-to-physical offset
      {400 * kB, 282 * kB, 1 * kB, 0},   // after a hole, starts where the previous one ended
  };
  const ExtentStats s = Summarize(map, 401 * kB, 0);
  EXPECT_EQ(s.extents, 1);
  EXPECT_EQ(s.min_records, 1);  // unknown longest extent: one
}

TEST(SummarizeTest, JumpsAreExtentsWithTheirSeekDistance) {
  const std::vector<Extent> map = {
      {0, 100 * kB, 10 * kB, 0},
      {10 * kB, 500 * kB, 2 * kB, FIEMAP_EXTENT_UNWRITTEN},
      {12 * kB, 50 * kB, 4 * kB, FIEMAP_EXTENT_SHARED | FIEMAP_EXTENT_LAST}};
  const ExtentStats s = Summarize(map, 16 * kB, 32768 * kB);
  EXPECT_EQ(s.extents, 3);
  EXPECT_EQ(s.discontinuities, 2);
  // From 110 to 500, then from 502 back to 50.
  EXPECT_EQ(s.seek_bytes, (390 + 452) * kB);
  EXPECT_EQ(s.min_extent_bytes, 2 * kB);
  EXPECT_EQ(s.max_extent_bytes, 10 * kB);
  EXPECT_EQ(s.unwritten_extents, 1);
  EXPECT_EQ(s.unwritten_bytes, 2 * kB);
  EXPECT_EQ(s.shared_extents, 1);
  EXPECT_EQ(s.mapped_bytes, 16 * kB);
}

TEST(SummarizeTest, AnEmptyFileHasNoExtents) {
  const ExtentStats s = Summarize({}, 0, 32768 * kB);
  EXPECT_EQ(s.extents, 0);
  EXPECT_EQ(s.min_records, 0);
  EXPECT_EQ(s.min_extent_bytes, 0u);
}

}  // namespace
}  // namespace sb::fs
