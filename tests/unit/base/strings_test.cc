#include "base/strings.h"

#include <gtest/gtest.h>

namespace sb {
namespace {

TEST(StringsTest, TrimSplitLowerCompare) {
  EXPECT_EQ(Trim(" \t a b \r\n"), "a b");
  EXPECT_EQ(SplitTrimmed(" a, b ,", ','), (std::vector<std::string>{"a", "b", ""}));
  EXPECT_EQ(SplitTrimmed("", ','), (std::vector<std::string>{""}));
  EXPECT_EQ(Lower("VMTN-4K"), "vmtn-4k");
  EXPECT_TRUE(EqualsNoCase("'END test setup", "'End Test Setup"));
  EXPECT_FALSE(EqualsNoCase("abc", "abcd"));
  EXPECT_TRUE(StartsWithNoCase("'Ramp Up Time (s)", "'ramp up time"));
  EXPECT_FALSE(StartsWithNoCase("'Ramp", "'Ramp Up"));
}

TEST(StringsTest, QuotablePrefixIsShortAndPrintable) {
  EXPECT_EQ(QuotablePrefix("short", 10), "short");
  EXPECT_EQ(QuotablePrefix(std::string(50, 'a'), 3), "aaa... (50 bytes)");
  EXPECT_EQ(QuotablePrefix(std::string("a\0\tb", 4), 10), "a\\x00\\x09b");
}

}  // namespace
}  // namespace sb
