// Over many I/Os the generator's read share, random share, sizes and alignment match the
// specification; sequential I/Os follow one cursor shared by reads and writes; a seed repeats
// the exact sequence. Tolerances: with n = 200,000 draws, a share's standard deviation is at most
// 0.5/sqrt(n) ≈ 0.0011, so ±0.01 is beyond 8 sigma.
#include "workload/storage/access_generator.h"

#include <map>
#include <vector>

#include <gtest/gtest.h>

namespace sb::storage {
namespace {

constexpr uint64_t kStart = 1 << 20;
constexpr uint64_t kRange = 64ULL << 20;
constexpr int kN = 200000;

AccessSpec Parse(const char* text) {
  auto s = ParseSpecText(text);
  EXPECT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(ValidateSpec(*s, true).ok());
  return *s;
}

TEST(IometerRandomTest, IsIometersLcg) {
  IometerRandom r(0);
  // X1 = A·0 + B = 28500701229; Rand(100) = X1 mod 100.
  EXPECT_EQ(r.Rand(100), 29u);
  const uint64_t x2 = IometerRandom::kA * 28500701229ULL + IometerRandom::kB;
  EXPECT_EQ(r.Rand(1000003), x2 % 1000003);
}

TEST(AccessGeneratorTest, SharesSizesAndAlignmentMatchTheSpec) {
  const AccessSpec spec = Parse("8KiB,65%read,60%random");
  AccessGenerator g(spec, kStart, kRange, 1, 2);
  int reads = 0, randoms = 0;
  for (int i = 0; i < kN; ++i) {
    const IoDecision d = g.Next();
    reads += d.read;
    randoms += d.random;
    ASSERT_EQ(d.size, 8192u);
    ASSERT_EQ(d.offset % kSectorBytes, 0u) << "sector alignment";
    ASSERT_GE(d.offset, kStart);
    ASSERT_LE(d.offset + d.size, kStart + kRange) << "inside the test range";
  }
  EXPECT_NEAR(reads / double(kN), 0.65, 0.01);
  EXPECT_NEAR(randoms / double(kN), 0.60, 0.01);
}

TEST(AccessGeneratorTest, AlignToSizeAlignsEveryOffset) {
  const AccessSpec spec = Parse("8KiB,70%read,100%random,align=size");
  AccessGenerator g(spec, kStart, kRange, 3, 4);
  for (int i = 0; i < kN; ++i) {
    const IoDecision d = g.Next();
    ASSERT_EQ(d.offset % 8192, 0u);
    ASSERT_LE(d.offset + d.size, kStart + kRange);
  }
}

TEST(AccessGeneratorTest, SectorAlignmentProducesUnalignedToSizeOffsets) {
  // With align = sector (Iometer ≤ 1.0), random 8 KiB offsets land on any 512 B boundary:
  // most are not 4 KiB aligned. This is what makes the two VMTN variants differ.
  const AccessSpec spec = Parse("8KiB,100%read,100%random");
  AccessGenerator g(spec, kStart, kRange, 5, 6);
  int aligned4k = 0;
  for (int i = 0; i < 10000; ++i) aligned4k += g.Next().offset % 4096 == 0;
  EXPECT_LT(aligned4k, 2000);  // expected 1/8 = 1250
}

TEST(AccessGeneratorTest, ReadsAndWritesShareOneSequentialCursor) {
  const AccessSpec spec = Parse("32KiB,50%read,0%random");
  AccessGenerator g(spec, kStart, kRange, 7, 8);
  IoDecision prev = g.Next();
  EXPECT_EQ(prev.offset, kStart);
  int reads = 0, wraps = 0;
  for (int i = 1; i < kN; ++i) {
    const IoDecision d = g.Next();
    reads += d.read;
    if (d.offset == kStart) {
      ++wraps;
      EXPECT_GT(prev.offset + prev.size + d.size, kStart + kRange);
    } else {
      // The next I/O starts where the previous one ended, whatever either's direction.
      ASSERT_EQ(d.offset, prev.offset + prev.size) << "I/O " << i;
    }
    prev = d;
  }
  EXPECT_NEAR(reads / double(kN), 0.5, 0.01);
  EXPECT_EQ(wraps, (kN - 1) / int(kRange / 32768));
}

TEST(AccessGeneratorTest, MultiLineSharesAndBursts) {
  const AccessSpec spec = Parse("4KiB,60%of,100%read,burst=4;64KiB,40%of,0%read,100%random");
  AccessGenerator g(spec, kStart, kRange, 9, 10);
  std::map<uint32_t, int> by_size;
  int run = 0;
  uint32_t last = 0;
  for (int i = 0; i < kN; ++i) {
    const IoDecision d = g.Next();
    ++by_size[d.size];
    EXPECT_EQ(d.read, d.size == 4096);
    // A 4 KiB burst lasts 4 I/Os: runs of the 4 KiB line are multiples of 4.
    if (d.size != last && last == 4096) {
      EXPECT_EQ(run % 4, 0);
    }
    run = d.size == last ? run + 1 : 1;
    last = d.size;
  }
  // Line choice is per burst: 60% of bursts × 4 I/Os vs 40% × 1 → 6/7 of I/Os are 4 KiB.
  EXPECT_NEAR(by_size[4096] / double(kN), 2.4 / 2.8, 0.01);
}

TEST(AccessGeneratorTest, SameSeedsSameSequenceOtherSeedsDiffer) {
  const AccessSpec spec = Parse("8KiB,65%read,60%random");
  AccessGenerator a(spec, kStart, kRange, 11, 12), b(spec, kStart, kRange, 11, 12),
      c(spec, kStart, kRange, 11, 13);
  int differ = 0;
  for (int i = 0; i < 1000; ++i) {
    const IoDecision x = a.Next(), y = b.Next(), z = c.Next();
    ASSERT_EQ(x.offset, y.offset);
    ASSERT_EQ(x.read, y.read);
    differ += x.offset != z.offset;
  }
  EXPECT_GT(differ, 500);
}

TEST(AccessGeneratorTest, OneCursorPerTargetAndBurstsAcrossTargets) {
  // Two targets (different files: both ranges start at kStart). Sequential I/Os continue where
  // the previous I/O *on the same target* ended; the burst and its line are the worker's.
  const AccessSpec spec = Parse("32KiB,100%of,50%read,0%random,burst=3");
  AccessGenerator g(spec, 21, {{kStart, kRange, 22}, {kStart, kRange / 2, 23}});
  uint64_t next[2] = {kStart, kStart};
  int delays = 0;
  for (int i = 0; i < 3000; ++i) {
    const int t = (i * 7 / 3) % 2;  // an irregular interleaving of the targets
    const IoDecision d = g.Next(t);
    ASSERT_EQ(d.offset, next[t]) << "I/O " << i << " on target " << t;
    next[t] = d.offset + d.size;
    if (next[t] + d.size > kStart + (t == 0 ? kRange : kRange / 2)) next[t] = kStart;
    delays += d.delay_ms;
  }
  EXPECT_EQ(delays, 0);
  // Per target, the read/write draws come from the target's own generator: the same target
  // seed gives the same directions whatever the other target does.
  AccessGenerator one(spec, 21, {{kStart, kRange, 23}});
  AccessGenerator two(spec, 21, {{kStart, kRange, 22}, {kStart, kRange, 23}});
  for (int i = 0; i < 100; ++i) {
    two.Next(0);
    ASSERT_EQ(one.Next(0).read, two.Next(1).read) << i;
  }
}

TEST(AccessGeneratorTest, DelayIsReportedOncePerBurst) {
  const AccessSpec spec = Parse("4KiB,100%read,delay=5,burst=3");
  AccessGenerator g(spec, kStart, kRange, 1, 1);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(g.Next().delay_ms, i % 3 == 0 ? 5 : 0) << i;
}

}  // namespace
}  // namespace sb::storage
