#include "workload/storage/access_spec.h"

#include <gtest/gtest.h>

namespace sb::storage {
namespace {

TEST(AccessSpecTest, ParsesTheCommandLineForm) {
  auto s = ParseSpecText("8KiB,65%read,60%random");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->lines.size(), 1u);
  EXPECT_EQ(s->lines[0].ToIcfLine(), "8192,100,65,60,0,1,0,0");
  EXPECT_TRUE(ValidateSpec(*s, true).ok());
}

TEST(AccessSpecTest, MultiLineSharesDefaultToEqualParts) {
  auto s = ParseSpecText("4KiB;8KiB,30%write;16KiB,align=size,burst=2,delay=3ms");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->lines.size(), 3u);
  EXPECT_EQ(s->lines[0].pct_of_size + s->lines[1].pct_of_size + s->lines[2].pct_of_size, 100);
  EXPECT_EQ(s->lines[1].pct_read, 70);
  EXPECT_EQ(s->lines[2].align, 16384u);
  EXPECT_EQ(s->lines[2].burst, 2);
  EXPECT_EQ(s->lines[2].delay_ms, 3);
  EXPECT_TRUE(s->HasWrites());
}

TEST(AccessSpecTest, RejectsBadInput) {
  EXPECT_FALSE(ParseSpecText("65%read").ok());
  EXPECT_FALSE(ParseSpecText("8KiB,165%read").ok());
  EXPECT_FALSE(ParseSpecText("8KiB,65%blue").ok());
  auto odd = ParseSpecText("1000,100%read");
  ASSERT_TRUE(odd.ok());
  EXPECT_FALSE(ValidateSpec(*odd, /*direct=*/true).ok());
  EXPECT_TRUE(ValidateSpec(*odd, /*direct=*/false).ok());
  auto shares = ParseSpecText("4KiB,50%of;8KiB,40%of");
  ASSERT_TRUE(shares.ok());
  EXPECT_FALSE(ValidateSpec(*shares, true).ok());
}

// The command-line form has the ICF reader's limits (base/limits.h): nothing wraps into an int.
TEST(AccessSpecTest, FieldsHaveTheIcfLimits) {
  auto burst = ParseSpecText("4KiB,burst=99999999999");
  ASSERT_FALSE(burst.ok());
  EXPECT_NE(burst.status().message().find("burst=99999999999"), std::string::npos);
  EXPECT_TRUE(ParseSpecText("4KiB,burst=1073741824").ok());
  EXPECT_FALSE(ParseSpecText("4KiB,delay=9999999999s").ok());
  EXPECT_FALSE(ParseSpecText("4KiB,align=8GiB").ok());
  EXPECT_FALSE(ParseSpecText("99999999999999999T").ok());  // the byte count would wrap
  std::string lines = "4KiB";
  for (int i = 0; i < 100; ++i) lines += ";4KiB";
  EXPECT_FALSE(ParseSpecText(lines).ok());
}

TEST(AccessSpecTest, VmtnPresetHasTheConfirmedFields) {
  auto p = FindPreset("vmtn", AlignMode::kSector);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->specs.size(), 4u);
  EXPECT_EQ(p->specs[0].name, "Max Throughput-100%Read");
  EXPECT_EQ(p->specs[0].lines[0].ToIcfLine(), "32768,100,100,0,0,1,0,0");
  EXPECT_EQ(p->specs[1].lines[0].ToIcfLine(), "8192,100,65,60,0,1,0,0");
  EXPECT_EQ(p->specs[2].lines[0].ToIcfLine(), "32768,100,50,0,0,1,0,0");
  EXPECT_EQ(p->specs[3].lines[0].ToIcfLine(), "8192,100,70,100,0,1,0,0");
  EXPECT_EQ(p->outstanding, 64);
  EXPECT_EQ(p->max_size_sectors, 16000000u);
  auto sized = FindPreset("VMTN", AlignMode::kSize);
  ASSERT_TRUE(sized.ok());
  EXPECT_EQ(sized->specs[1].lines[0].align, 8192u);
}

TEST(AccessSpecTest, ClassicPresetsAreValid) {
  for (const auto& name : PresetNames()) {
    auto p = FindPreset(name, AlignMode::kSector);
    ASSERT_TRUE(p.ok()) << name;
    for (const auto& s : p->specs) EXPECT_TRUE(ValidateSpec(s, true).ok()) << s.name;
  }
  EXPECT_FALSE(FindPreset("nope", AlignMode::kSector).ok());
}

}  // namespace
}  // namespace sb::storage
