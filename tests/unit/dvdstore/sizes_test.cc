#include "workload/dvdstore/sizes.h"

#include <gtest/gtest.h>

#include <string>

namespace sb::dvdstore {
namespace {

DsSize Parse(std::string_view text) {
  Result<DsSize> size = ParseDsSize(text);
  EXPECT_TRUE(size.ok()) << text << ": " << (size.ok() ? "" : size.status().message());
  return size.ok() ? size.value() : DsSize{};
}

void ExpectRows(const DsSize& size, int64_t customers, int64_t orders_per_month, int64_t products) {
  EXPECT_EQ(size.customers, customers) << size.label;
  EXPECT_EQ(size.orders_per_month, orders_per_month) << size.label;
  EXPECT_EQ(size.products, products) << size.label;
}

TEST(ParseDsSizeTest, StandardSizes) {
  DsSize s = Parse("S");
  EXPECT_EQ(s.label, "S");
  ExpectRows(s, 20'000, 1'000, 10'000);
  DsSize m = Parse("M");
  EXPECT_EQ(m.label, "M");
  ExpectRows(m, 2'000'000, 100'000, 100'000);
  DsSize l = Parse("L");
  EXPECT_EQ(l.label, "L");
  ExpectRows(l, 200'000'000, 10'000'000, 1'000'000);
}

TEST(ParseDsSizeTest, LettersAreCaseInsensitive) {
  EXPECT_EQ(Parse("s").label, "S");
  EXPECT_EQ(Parse("m").label, "M");
  EXPECT_EQ(Parse("l").label, "L");
  ExpectRows(Parse("l"), 200'000'000, 10'000'000, 1'000'000);
}

TEST(ParseDsSizeTest, MegabyteSizesScaleFromSmall) {
  DsSize ten = Parse("10MB");
  EXPECT_EQ(ten.label, "10MB");
  ExpectRows(ten, 20'000, 1'000, 10'000);  // the same rows as S
  DsSize twenty = Parse("20MB");
  EXPECT_EQ(twenty.label, "20MB");
  ExpectRows(twenty, 40'000, 2'000, 20'000);
  ExpectRows(Parse("1MB"), 2'000, 100, 1'000);
  ExpectRows(Parse("1023MB"), 2'046'000, 102'300, 1'023'000);
}

TEST(ParseDsSizeTest, UnitsAreCaseInsensitiveAndLabelIsUpperCase) {
  DsSize size = Parse("20mb");
  EXPECT_EQ(size.label, "20MB");
  ExpectRows(size, 40'000, 2'000, 20'000);
  EXPECT_EQ(Parse("14gB").label, "14GB");
}

TEST(ParseDsSizeTest, OneGigabyteIsMedium) {
  DsSize size = Parse("1GB");
  EXPECT_EQ(size.label, "1GB");
  ExpectRows(size, 2'000'000, 100'000, 100'000);
}

TEST(ParseDsSizeTest, GigabyteSizesScaleFromLarge) {
  ExpectRows(Parse("2GB"), 4'000'000, 200'000, 20'000);  // fewer products than 1GB (spec §3)
  DsSize fourteen = Parse("14GB");
  EXPECT_EQ(fourteen.label, "14GB");
  ExpectRows(fourteen, 28'000'000, 1'400'000, 140'000);
  ExpectRows(Parse("100GB"), 200'000'000, 10'000'000, 1'000'000);
  ExpectRows(Parse("4095GB"), 8'190'000'000, 409'500'000, 40'950'000);
}

TEST(ParseDsSizeTest, DerivedCounts) {
  DsSize s = Parse("S");
  EXPECT_EQ(s.orders(), 12'000);
  EXPECT_EQ(s.members(), 2'000);
  EXPECT_EQ(s.reviews(), 200'000);
  EXPECT_EQ(s.prod_array_size(), 10'009);
  DsSize odd = Parse("1MB");
  EXPECT_EQ(odd.members(), 200);
  EXPECT_EQ(odd.prod_array_size(), 1'000);
}

TEST(ParseDsSizeTest, RejectsMalformedAndOutOfRangeSizes) {
  for (std::string_view text :
       {"1.5GB", "0MB",   "1024MB", "4096GB", "10TB",
        "",      "0GB",   "MB",     "GB",     "-1MB",
        "+5MB",  " 10MB", "10MB ",  "10 MB",  "10",
        "SM",    "XL",    "1e3MB",  "0x10MB", "99999999999999999999999GB"}) {
    Result<DsSize> size = ParseDsSize(text);
    ASSERT_FALSE(size.ok()) << "accepted '" << text << "'";
    EXPECT_EQ(size.status().code(), StatusCode::kInvalidArgument) << text;
    const std::string& message = size.status().message();
    EXPECT_NE(message.find("'" + std::string(text) + "'"), std::string::npos) << message;
    // One sentence: no sentence break inside, no line break.
    EXPECT_EQ(message.find(". "), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace sb::dvdstore
