// DCMI Get Power Reading responses as BMCs send them (recorded byte for byte), fed to the
// parser: the reading, the BMC's refusals and broken responses.
#include <gtest/gtest.h>

#include <vector>

#include "power/ipmi_source.h"

namespace sb::power {
namespace {

// cmd 0x02, completion 0x00, group extension 0xDC, current 0x00F0 (240 W), minimum 0x0096
// (150 W), maximum 0x0136 (310 W), average 0x00D2 (210 W), time stamp 0x692D4A00, period
// 0x000003E8 (1000 ms), state 0x40 (measurement active).
const std::vector<uint8_t> kReading = {0x02, 0x00, 0xDC, 0xF0, 0x00, 0x96, 0x00, 0x36, 0x01, 0xD2,
                                       0x00, 0x00, 0x4A, 0x2D, 0x69, 0xE8, 0x03, 0x00, 0x00, 0x40};

TEST(DcmiPowerReading, ParsesTheFields) {
  auto r = ParseDcmiPowerReading(kReading.data(), kReading.size());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->current_w, 240);
  EXPECT_EQ(r->minimum_w, 150);
  EXPECT_EQ(r->maximum_w, 310);
  EXPECT_EQ(r->average_w, 210);
  EXPECT_EQ(r->time_stamp, 0x692D4A00u);
  EXPECT_EQ(r->period_ms, 1000u);
  EXPECT_TRUE(r->measurement_active);
}

TEST(DcmiPowerReading, ABmcWithoutDcmiPowerSaysSo) {
  // Completion code 0xC1: invalid command (the BMC has no DCMI power reading).
  const std::vector<uint8_t> refused = {0x02, 0xC1};
  auto r = ParseDcmiPowerReading(refused.data(), refused.size());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("0xC1"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("no DCMI power reading"), std::string::npos);
}

TEST(DcmiPowerReading, OtherCompletionCodesAreNamed) {
  const std::vector<uint8_t> busy = {0x02, 0xC0};
  auto r = ParseDcmiPowerReading(busy.data(), busy.size());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("0xC0"), std::string::npos) << r.status().message();
}

TEST(DcmiPowerReading, AnInactiveMeasurementIsNoReading) {
  std::vector<uint8_t> inactive = kReading;
  inactive.back() = 0x00;
  auto r = ParseDcmiPowerReading(inactive.data(), inactive.size());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not active"), std::string::npos);
}

TEST(DcmiPowerReading, AShortOrForeignResponseIsRejected) {
  const std::vector<uint8_t> shortr(kReading.begin(), kReading.begin() + 9);
  EXPECT_FALSE(ParseDcmiPowerReading(shortr.data(), shortr.size()).ok());
  std::vector<uint8_t> foreign = kReading;
  foreign[2] = 0x00;  // not the DCMI group
  auto r = ParseDcmiPowerReading(foreign.data(), foreign.size());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("0xDC"), std::string::npos);
  EXPECT_FALSE(ParseDcmiPowerReading(kReading.data(), 0).ok());
}

}  // namespace
}  // namespace sb::power
