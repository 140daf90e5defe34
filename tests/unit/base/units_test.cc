#include "base/units.h"

#include <gtest/gtest.h>

namespace sb {
namespace {

constexpr int64_t kMinute = 60LL * 1000 * 1000 * 1000;

TEST(UnitsTest, Durations) {
  EXPECT_EQ(*ParseDurationNanos("90s", kMinute), 90LL * 1000 * 1000 * 1000);
  EXPECT_EQ(*ParseDurationNanos("1", kMinute), kMinute);
  EXPECT_EQ(*ParseDurationNanos("2m", kMinute), 2 * kMinute);
  EXPECT_EQ(*ParseDurationNanos("1h30m", kMinute), 90 * kMinute);
  EXPECT_EQ(*ParseDurationNanos("500ms", kMinute), 500LL * 1000 * 1000);
  for (const char* bad : {"", "abc", "5x", "-1", "1m2", "s"}) {
    EXPECT_FALSE(ParseDurationNanos(bad, kMinute).ok()) << bad;
  }
}

TEST(UnitsTest, Bytes) {
  EXPECT_EQ(*ParseBytes("4KiB"), 4096u);
  EXPECT_EQ(*ParseBytes("10MB"), 10u << 20);
  EXPECT_EQ(*ParseBytes("512"), 512u);
  EXPECT_FALSE(ParseBytes("1.5GB").ok());
  EXPECT_FALSE(ParseBytes("10XB").ok());
}

TEST(UnitsTest, IntsAndBools) {
  EXPECT_EQ(*ParseInt("42", "n"), 42);
  EXPECT_FALSE(ParseInt("4.2", "n").ok());
  EXPECT_FALSE(ParseInt("-4", "n").ok());
  EXPECT_NE(ParseInt("x", "n_threads").status().message().find("n_threads"), std::string::npos);
  EXPECT_TRUE(*ParseBool("Y", "b"));
  EXPECT_FALSE(*ParseBool("n", "b"));
  EXPECT_FALSE(ParseBool("maybe", "b").ok());
  // sysbench writes booleans on/off.
  EXPECT_TRUE(*ParseBool("on", "b"));
  EXPECT_FALSE(*ParseBool("OFF", "b"));
}

TEST(UnitsTest, NumbersAreExactlyTheirText) {
  for (const char* bad : {" 4", "4 ", "+4", "0x10", "inf", "nan", "1e", "-", ".", "4,5"}) {
    EXPECT_FALSE(ParseDouble(bad, "x").ok()) << bad;
    EXPECT_FALSE(ParseInt(bad, "x").ok()) << bad;
  }
  EXPECT_DOUBLE_EQ(*ParseDouble("-1.5e3", "x"), -1500);
  EXPECT_DOUBLE_EQ(*ParseDouble(".5", "x"), 0.5);
  EXPECT_FALSE(ParseBytes("99999999999999999T").ok());  // would wrap uint64
}

TEST(UnitsTest, FormatDuration) {
  EXPECT_EQ(FormatDuration(90LL * 1000 * 1000 * 1000), "1m30s");
  EXPECT_EQ(FormatDuration(0), "0s");
}

}  // namespace
}  // namespace sb
