// Iometer configuration files: the field values of every access specification line, the test
// setup and worker settings, which specifications run, and one clear error (file and line) for
// content storebench cannot run.
#include "workload/storage/icf.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace sb::storage {
namespace {

std::string ReadSome() {
  std::ifstream in(std::string(STOREBENCH_SOURCE_DIR) + "/tests/data/some.icf", std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A small ICF: the given access specification section and manager list after a test setup.
std::string Icf(const std::string& specs, const std::string& managers = "",
                const std::string& setup = "'Run Time\n'\thours  minutes  seconds\n\t0  1  30\n") {
  return "Version 2006.07.27\n'TEST SETUP =====\n" + setup + "'END test setup\n" +
         "'ACCESS SPECIFICATIONS =====\n" + specs + "'END access specifications\n" +
         (managers.empty() ? "" : "'MANAGER LIST =====\n" + managers + "'END manager list\n") +
         "Version 2006.07.27\n";
}

std::string Spec(const std::string& name, const std::string& lines,
                 const std::string& assignment = "NONE") {
  return "'Access specification name,default assignment\n\t" + name + "," + assignment +
         "\n'size,% of size,% reads,% random,delay,burst,align,reply\n" + lines;
}

std::string Worker(const std::string& name, const std::string& specs, int outstanding = 4,
                   const std::string& type = "DISK") {
  return "'Worker\n\t" + name + "\n'Worker type\n\t" + type +
         "\n'Default target settings for worker\n"
         "'Number of outstanding IOs,test connection rate,transactions per connection\n\t" +
         std::to_string(outstanding) +
         ",DISABLED,1\n'Disk maximum size,starting sector\n\t0,0\n"
         "'End default target settings for worker\n'Assigned access specs\n" +
         specs +
         "'End assigned access specs\n'Target assignments\n'Target\n\tsdb\n'Target type\n\tDISK\n"
         "'End target\n'End target assignments\n'End worker\n";
}

std::string Manager(const std::string& workers) {
  return "'Manager ID, manager name\n\t1,host\n'Manager network address\n\t\n" + workers +
         "'End manager\n";
}

// The error message of parsing `text` (empty when it parses and validates).
std::string ErrorOf(const std::string& text) {
  auto icf = ParseIcf(text, "x.icf");
  if (!icf.ok()) return icf.status().message();
  Status s = ValidateIcfSpecs(*icf, /*direct=*/true);
  return s.ok() ? "" : s.message();
}

TEST(IcfTest, ReadsTheExampleFile) {
  auto icf = ParseIcf(ReadSome(), "tests/data/some.icf");
  ASSERT_TRUE(icf.ok()) << icf.status().message();
  EXPECT_TRUE(ValidateIcfSpecs(*icf, true).ok());
  EXPECT_EQ(icf->version, "1.1.0");
  EXPECT_EQ(icf->description, "OLTP and file-server mixes on the data volume");
  // The two specifications assigned to the workers, in their order; "Default" and the backup
  // specification are defined but not assigned.
  ASSERT_EQ(icf->specs.size(), 2u);
  EXPECT_EQ(icf->selection, "assigned to the disk workers");
  EXPECT_EQ(icf->specs[0].name, "OLTP 8K 70% read random");
  ASSERT_EQ(icf->specs[0].lines.size(), 1u);
  const AccessLine& oltp = icf->specs[0].lines[0];
  EXPECT_EQ(oltp.size, 8192u);
  EXPECT_EQ(oltp.pct_of_size, 100);
  EXPECT_EQ(oltp.pct_read, 70);
  EXPECT_EQ(oltp.pct_random, 100);
  EXPECT_EQ(oltp.delay_ms, 0);
  EXPECT_EQ(oltp.burst, 1);
  EXPECT_EQ(oltp.align, 0u) << "align 0 = sector boundaries";
  EXPECT_EQ(oltp.reply, 0u);
  const AccessSpec& mix = icf->specs[1];
  EXPECT_EQ(mix.name, "File server mix");
  ASSERT_EQ(mix.lines.size(), 4u);
  EXPECT_EQ(mix.lines[0].ToIcfLine(), "512,10,80,100,0,1,0,0");
  EXPECT_EQ(mix.lines[1].ToIcfLine(), "4096,60,80,100,0,1,4096,0");
  EXPECT_EQ(mix.lines[2].ToIcfLine(), "16384,20,80,100,0,1,0,0");
  EXPECT_EQ(mix.lines[3].ToIcfLine(), "65536,10,80,100,0,1,0,0");
  int share = 0;
  for (const auto& l : mix.lines) share += l.pct_of_size;
  EXPECT_EQ(share, 100);
  EXPECT_EQ(icf->spec_name_lines[1], 50);
  EXPECT_EQ(icf->spec_line_lines[1], (std::vector<int>{52, 53, 54, 55}));
  // Test setup and worker settings, each with its line.
  ASSERT_TRUE(icf->run_nanos.has_value());
  EXPECT_EQ(icf->run_nanos->value, 5LL * 1000000000);
  EXPECT_EQ(icf->run_nanos->line, 7);
  ASSERT_TRUE(icf->ramp_nanos.has_value());
  EXPECT_EQ(icf->ramp_nanos->value, 1LL * 1000000000);
  ASSERT_TRUE(icf->workers.has_value());
  EXPECT_EQ(icf->workers->value, 2);
  EXPECT_FALSE(icf->workers_number_of_cpus) << "the manager list's workers, not the default";
  ASSERT_TRUE(icf->outstanding.has_value());
  EXPECT_EQ(icf->outstanding->value, 8);
  ASSERT_TRUE(icf->max_size_sectors.has_value());
  EXPECT_EQ(icf->max_size_sectors->value, 2000000u);
  EXPECT_FALSE(icf->start_sector.has_value()) << "starting sector 0";
  ASSERT_TRUE(icf->pattern.has_value());
  EXPECT_EQ(icf->pattern->value, DataPattern::kPseudoRandom);
  EXPECT_EQ(icf->targets, (std::vector<std::string>{"E: \"Data\""}));
}

TEST(IcfTest, LineFieldsDelayBurstAlignAndTrailingComma) {
  // A results file writes a comma after the reply; Iometer reads both forms.
  auto icf = ParseIcf(Icf(Spec("bursts", "\t65536,100,100,0,10,16,65536,0,\n")), "x.icf");
  ASSERT_TRUE(icf.ok()) << icf.status().message();
  const AccessLine& l = icf->specs[0].lines[0];
  EXPECT_EQ(l.delay_ms, 10);
  EXPECT_EQ(l.burst, 16);
  EXPECT_EQ(l.align, 65536u);
  EXPECT_EQ(icf->run_nanos->value, 90LL * 1000000000);
  EXPECT_FALSE(icf->workers.has_value());
}

TEST(IcfTest, WhichSpecificationsRun) {
  const std::string specs = Spec("a", "\t4096,100,100,100,0,1,0,0\n") +
                            Spec("b", "\t8192,100,0,0,0,1,0,0\n", "ALL") +
                            Spec("c", "\t512,100,50,50,0,1,0,0\n");
  // No workers: those with default assignment ALL or DISK.
  auto icf = ParseIcf(Icf(specs), "x.icf");
  ASSERT_TRUE(icf.ok()) << icf.status().message();
  ASSERT_EQ(icf->specs.size(), 1u);
  EXPECT_EQ(icf->specs[0].name, "b");
  // No default assignment either: every specification, in file order.
  auto all = ParseIcf(
      Icf(Spec("a", "\t4096,100,100,100,0,1,0,0\n") + Spec("c", "\t512,100,50,50,0,1,0,0\n")),
      "x.icf");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->specs.size(), 2u);
  EXPECT_EQ(all->selection, "every specification in the file");
  // Workers: their assigned specifications in their order; an idle worker (no targets or no
  // specifications) does not count.
  auto assigned = ParseIcf(Icf(specs, Manager(Worker("w1", "\tc\n\ta\n") +
                                              Worker("w2", "\tc\n\ta\n") + Worker("idle", ""))),
                           "x.icf");
  ASSERT_TRUE(assigned.ok()) << assigned.status().message();
  ASSERT_EQ(assigned->specs.size(), 2u);
  EXPECT_EQ(assigned->specs[0].name, "c");
  EXPECT_EQ(assigned->specs[1].name, "a");
  EXPECT_EQ(assigned->workers->value, 2);
  EXPECT_EQ(assigned->outstanding->value, 4);
  EXPECT_FALSE(assigned->max_size_sectors.has_value()) << "0 = the whole target";
}

TEST(IcfTest, WindowsLineEndsAndZeroRunTime) {
  std::string text =
      Icf(Spec("a", "\t4096,100,100,100,0,1,0,0\n"), "",
          "'Run Time\n'\thours  minutes  seconds\n\t0  0  0\n'Ramp Up Time (s)\n\t5\n");
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  auto icf = ParseIcf(crlf, "x.icf");
  ASSERT_TRUE(icf.ok()) << icf.status().message();
  EXPECT_FALSE(icf->run_nanos.has_value()) << "0 = until stopped: storebench's default applies";
  EXPECT_EQ(icf->ramp_nanos->value, 5LL * 1000000000);
}

TEST(IcfTest, ErrorsNameTheFileAndLine) {
  const std::string ok_line = "\t4096,100,100,100,0,1,0,0\n";
  // In Icf(...): 1 Version, 2 'TEST SETUP, 3-5 run time, 6 'END test setup, 7 'ACCESS
  // SPECIFICATIONS, 8 name key, 9 name, 10 size key, 11 first line; the manager list starts at
  // 14, its first worker at 18.
  EXPECT_EQ(ErrorOf(Icf(Spec("a", "\t4096,100,100,100,0,1,0\n"))),
            "x.icf line 11: an access specification line needs 8 comma-separated numbers (size,% "
            "of size,% reads,% random,delay,burst,align,reply), not '4096,100,100,100,0,1,0'");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", "\t4096,100,100,100,0,1,0,512\n"))),
            "x.icf line 11: access specification 'a' line 1: reply sizes apply to network targets "
            "only");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", ok_line + "\t8192,100,0,0,0,1,100,0\n"))),
            "x.icf line 12: access specification 'a' line 2: alignment 100 is not a multiple of "
            "the 512-byte sector");
  EXPECT_EQ(
      ErrorOf(Icf(Spec("a", "\t4096,60,100,100,0,1,0,0\n\t512,30,0,0,0,1,0,0\n"))),
      "x.icf line 9: access specification 'a': the lines' \"% of size\" add up to 90, not 100");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", "\t4096,100,101,100,0,1,0,0\n"))),
            "x.icf line 11: access specification 'a' line 1: percentage out of 0..100");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", "\t1000,100,100,100,0,1,0,0\n"))).substr(0, 72),
            "x.icf line 11: access specification 'a' line 1: transfer size 1000 B is ");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", "\t4k,100,100,100,0,1,0,0\n"))),
            "x.icf line 11: the size field '4k' is not a whole non-negative number");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", ok_line), "", "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n")),
            "x.icf line 4: the test type 'CYCLE_OUTSTANDING_IOS' (one of Iometer's cycling tests) "
            "is not supported yet; only NORMAL is");
  EXPECT_EQ(ErrorOf("'TEST SETUP\n"),
            "x.icf line 1: this is not an Iometer configuration file (its first line should be "
            "'Version ...', e.g. 'Version 1.1.0')");
  EXPECT_EQ(ErrorOf(Icf("")).substr(0, 55),
            "x.icf line 7: the file defines no access specifications");
  EXPECT_EQ(ErrorOf("Version 1.1.0\n").substr(0, 55),
            "x.icf line 1: the file defines no access specifications");
  const std::string specs = Spec("a", ok_line);
  EXPECT_EQ(ErrorOf(Icf(specs, Manager(Worker("w1", "\tb\n")))).substr(0, 74),
            "x.icf line 29: the access specification 'b' is assigned but not defined in");
  EXPECT_EQ(ErrorOf(Icf(specs, Manager(Worker("w1", "\ta\n", 4) + Worker("w2", "\ta\n", 8)))),
            "x.icf line 45: worker 'w2' has other outstanding I/Os than worker 'w1'; storebench "
            "runs every worker with the same settings");
  EXPECT_EQ(ErrorOf(Icf(specs, Manager(Worker("net", "\ta\n", 1, "NETWORK")))),
            "x.icf line 18: worker 'net' is a NETWORK worker; storebench runs disk workers only");
  EXPECT_EQ(ErrorOf(Icf(specs, Manager(Worker("w1", "\ta\n")) + Manager(""))),
            "x.icf line 40: a second manager: storebench runs one manager (this host); keep one "
            "manager in the file");
  EXPECT_EQ(ErrorOf(Icf(specs + specs)),
            "x.icf line 13: the access specification 'a' is defined twice");
}

// A file cut short inside its manager list may have lost the workers' assigned specifications;
// running "every specification" instead would run what the file does not assign.
TEST(IcfTest, ManagerListCutShortIsRefused) {
  const std::string specs =
      Spec("a", "\t4096,100,100,100,0,1,0,0\n") + Spec("b", "\t8192,100,0,0,0,1,0,0\n");
  const std::string whole = Icf(specs, Manager(Worker("w1", "\tb\n")));
  ASSERT_EQ(ErrorOf(whole), "");
  for (const char* cut_after : {"'Assigned access specs\n", "'Target\n", "'End manager\n"}) {
    const std::string text = whole.substr(0, whole.find(cut_after) + std::strlen(cut_after));
    const std::string error = ErrorOf(text);
    EXPECT_NE(error.find("has no 'END manager list: the file is cut short"), std::string::npos)
        << cut_after << ": " << error;
    EXPECT_EQ(error.rfind("x.icf line ", 0), 0u) << error;
  }
}

TEST(IcfTest, NumbersHaveLimitsAndNeverOverflow) {
  const std::string ok_line = "\t4096,100,100,100,0,1,0,0\n";
  const std::string specs = Spec("a", ok_line);
  // 1e13 hours would overflow int64 nanoseconds (UBSan: signed overflow).
  EXPECT_EQ(ErrorOf(Icf(specs, "", "'Run Time\n'\thours  minutes  seconds\n\t9999999999999 0 0\n")),
            "x.icf line 5: the run time '9999999999999 0 0' is longer than 8760h");
  EXPECT_EQ(ErrorOf(Icf(specs, "", "'Ramp Up Time (s)\n\t99999999999999\n")),
            "x.icf line 4: the ramp-up time 99999999999999 s is longer than 8760h");
  EXPECT_EQ(ErrorOf(Icf(specs, "", "'Default Disk Workers to Spawn\n\t100000\n")),
            "x.icf line 4: more than 1024 disk workers (100000)");
  EXPECT_EQ(ErrorOf(Icf(specs, Manager(Worker("w1", "\ta\n", 2000000)))),
            "x.icf line 24: the number of outstanding I/Os must be 1 to 65536, not 2000000");
  EXPECT_EQ(ErrorOf(Icf(Spec("a", "\t4096,100,100,100,0,99999999999,0,0\n"))),
            "x.icf line 11: the burst field 99999999999 is larger than Iometer allows");
  std::string many;
  for (int i = 0; i < 101; ++i) many += "\t4096,1,100,100,0,1,0,0\n";
  EXPECT_EQ(ErrorOf(Icf(Spec("a", many))),
            "x.icf line 111: the access specification 'a' has more than 100 lines (Iometer's "
            "limit)");
}

TEST(IcfTest, LargeFilesAndLongLinesAreRefusedShort) {
  std::string big = Icf(Spec("a", "\t4096,100,100,100,0,1,0,0\n"));
  big += std::string(5 << 20, '#');
  EXPECT_EQ(ErrorOf(big),
            "x.icf: the file is larger than 4 MiB, which no Iometer configuration file is");
  const std::string error =
      ErrorOf(Icf(Spec("a", "\t4096,100,100,100,0,1,0," + std::string(100000, '7') + "\n")));
  EXPECT_LT(error.size(), 300u) << error.substr(0, 300);
}

}  // namespace
}  // namespace sb::storage
