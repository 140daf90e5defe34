// rapl: against a powercap tree built in a temporary directory (energy counters that wrap, a
// tree that is absent, files that cannot be read), and against the real tree where there is one.
#include "power/rapl_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "base/clock.h"
#include "power/power_spec.h"

namespace sb::power {
namespace {

namespace fs = std::filesystem;

class PowercapTree {
 public:
  PowercapTree() {
    root_ = std::string(STOREBENCH_TEST_TMP) + "/powercap-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~PowercapTree() { fs::remove_all(root_); }
  void Zone(const std::string& dir, const std::string& name, uint64_t energy, uint64_t max) {
    fs::create_directories(root_ + "/" + dir);
    Write(dir + "/name", name);
    Write(dir + "/energy_uj", std::to_string(energy));
    Write(dir + "/max_energy_range_uj", std::to_string(max));
  }
  void Energy(const std::string& dir, uint64_t energy) {
    Write(dir + "/energy_uj", std::to_string(energy));
  }
  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(root_ + "/" + rel, std::ios::trunc) << text << "\n";
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

std::unique_ptr<PowerSource> Make(const std::string& spec_text, Clock& clock) {
  auto spec = ParsePowerSpec(spec_text);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return MakeRaplSource(*spec, clock);
}

TEST(EnergyDelta, CountsOneWrapAtTheRange) {
  EXPECT_EQ(EnergyDeltaUj(100, 350, 1000), 250u);
  // 900 → wrap at 1000 → 50: 100 + 50.
  EXPECT_EQ(EnergyDeltaUj(900, 50, 1000), 150u);
  // A 32-bit-style range.
  EXPECT_EQ(EnergyDeltaUj(4294000000ULL, 1000000ULL, 4294967295ULL), 967295ULL + 1000000ULL);
}

TEST(RaplSource, WattsAreEnergyOverTimeAcrossZonesAndWraps) {
  PowercapTree t;
  // Package 0 with its DRAM subzone, package 1, and the MMIO duplicate that must be skipped.
  t.Zone("intel-rapl:0", "package-0", 1000000, 262143328850);
  t.Zone("intel-rapl:0:1", "dram", 500000, 65712999613);
  t.Zone("intel-rapl:0:0", "core", 0, 262143328850);  // inside the package: not added again
  t.Zone("intel-rapl:1", "package-1", 262143000000, 262143328850);
  t.Zone("intel-rapl-mmio:0", "package-0", 0, 262143328850);
  FakeClock clock(1000);
  auto src = Make("rapl:?root=" + t.root(), clock);
  ASSERT_TRUE(src->Open().ok());
  EXPECT_EQ(src->capabilities().measures, Measures::kPackageAndDram);
  EXPECT_TRUE(src->capabilities().interval_average);
  // One second later: package 0 used 80 J, DRAM 5 J, package 1 wrapped: 328850 µJ to its range,
  // then 40,000,000 µJ from zero (40.32885 J).
  clock.Advance(kNanosPerSecond);
  t.Energy("intel-rapl:0", 81000000);
  t.Energy("intel-rapl:0:1", 5500000);
  t.Energy("intel-rapl:1", 40000000);
  auto r = src->Read();
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(r->has_watts);
  EXPECT_NEAR(r->watts, 80 + 5 + 40.32885, 1e-9);
  // Half a second later, 10 J more on package 0 only: 20 W.
  clock.Advance(kNanosPerSecond / 2);
  t.Energy("intel-rapl:0", 91000000);
  r = src->Read();
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->watts, 20, 1e-9);
  EXPECT_NE(src->Describe().find("package-0, dram, package-1"), std::string::npos)
      << src->Describe();
}

TEST(RaplSource, ZonesOptionSelectsPackageOnly) {
  PowercapTree t;
  t.Zone("intel-rapl:0", "package-0", 0, 1000000000);
  t.Zone("intel-rapl:0:1", "dram", 0, 1000000000);
  FakeClock clock(1000);
  auto src = Make("rapl:?zones=package&root=" + t.root(), clock);
  ASSERT_TRUE(src->Open().ok());
  EXPECT_EQ(src->capabilities().measures, Measures::kPackage);
  clock.Advance(kNanosPerSecond);
  t.Energy("intel-rapl:0", 7000000);
  t.Energy("intel-rapl:0:1", 9000000);
  EXPECT_NEAR(src->Read()->watts, 7, 1e-9);
}

TEST(RaplSource, AnAbsentTreeFailsOpenWithOneSentence) {
  FakeClock clock;
  auto src = Make("rapl:?root=/nonexistent/powercap", clock);
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("power source rapl: there is no powercap tree at "
                             "/nonexistent/powercap"),
            std::string::npos)
      << s.message();
}

TEST(RaplSource, ATreeWithoutZonesFailsOpen) {
  PowercapTree t;
  fs::create_directories(t.root() + "/intel-rapl");  // the control type only (a VM may show it)
  FakeClock clock;
  auto src = Make("rapl:?root=" + t.root(), clock);
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no package,dram zones"), std::string::npos) << s.message();
}

TEST(RaplSource, AnUnreadableCounterNamesTheFile) {
  PowercapTree t;
  t.Zone("intel-rapl:0", "package-0", 0, 1000);
  // A directory where the counter should be: reading it fails (EISDIR) even for root.
  fs::remove(t.root() + "/intel-rapl:0/energy_uj");
  fs::create_directories(t.root() + "/intel-rapl:0/energy_uj");
  FakeClock clock;
  auto src = Make("rapl:?root=" + t.root(), clock);
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot read " + t.root() + "/intel-rapl:0/energy_uj"),
            std::string::npos)
      << s.message();
}

TEST(RaplReadError, APermissionErrorSaysWhyAndHowToFixIt) {
  const std::string m = RaplReadError("/sys/class/powercap/intel-rapl:0/energy_uj", EACCES);
  EXPECT_NE(m.find("Permission denied"), std::string::npos) << m;
  EXPECT_NE(m.find("root only"), std::string::npos) << m;
  EXPECT_NE(m.find("CVE-2020-8694"), std::string::npos) << m;
  EXPECT_NE(m.find("udev rule"), std::string::npos) << m;
  // Other errors are not dressed up as permission problems.
  EXPECT_EQ(RaplReadError("/x", ENOENT).find("CVE"), std::string::npos);
}

// The only test that may skip: real RAPL hardware is read where the machine has it.
TEST(RaplSource, ReadsTheRealPowercapTreeWhereThereIsOne) {
  std::error_code ec;
  bool any = false;
  for (const auto& e : fs::directory_iterator(kPowercapRoot, ec)) {
    any = any || e.path().filename().string().rfind("intel-rapl:", 0) == 0;
  }
  if (!any) GTEST_SKIP() << "no RAPL zones under " << kPowercapRoot << " on this machine";
  SteadyClock clock;
  auto src = Make("rapl:", clock);
  Status s = src->Open();
  if (!s.ok()) {
    // Present but root-only (Linux >= 5.10): the error must say so.
    EXPECT_NE(s.message().find("energy_uj"), std::string::npos) << s.message();
    return;
  }
  clock.SleepFor(200 * kNanosPerMilli);
  auto r = src->Read();
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(r->has_watts);
  EXPECT_GE(r->watts, 0);
  EXPECT_LT(r->watts, 100000);  // a sanity bound: no wrap counted as a huge figure
}

}  // namespace
}  // namespace sb::power
