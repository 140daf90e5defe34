// The tab-separated text both COPY (text) and LOAD DATA read (backend/db/bulk_text.h).
#include "backend/db/bulk_text.h"

#include <gtest/gtest.h>

#include <string>

#include "storebench/db.h"

namespace sb::db {
namespace {

std::string Escaped(std::string_view v) {
  std::string out = "<";
  AppendTabSeparatedField(&out, v);
  return out;
}

TEST(BulkTextTest, PlainTextIsCopiedWhole) {
  EXPECT_EQ(Escaped("AARDVARK ADAPTATION, 12.99"), "<AARDVARK ADAPTATION, 12.99");
  EXPECT_EQ(Escaped(""), "<");
  EXPECT_EQ(Escaped("\xc3\xa9t\xc3\xa9"), "<\xc3\xa9t\xc3\xa9");  // UTF-8 bytes above 0x7f
}

TEST(BulkTextTest, ReservedCharactersAreEscapedWherever) {
  EXPECT_EQ(Escaped("a\\b\tc\nd\re"), "<a\\\\b\\tc\\nd\\re");
  EXPECT_EQ(Escaped(std::string_view("x\0y", 3)), "<x\\0y");
  EXPECT_EQ(Escaped("\t"), "<\\t");
  EXPECT_EQ(Escaped("end\\"), "<end\\\\");
  EXPECT_EQ(Escaped("\x01\x1f"), "<\x01\x1f");  // other control characters pass unchanged
}

TEST(BulkTextTest, TheNullMarkerBecomesBackslashN) { EXPECT_EQ(Escaped(kBulkNull), "<\\N"); }

}  // namespace
}  // namespace sb::db
