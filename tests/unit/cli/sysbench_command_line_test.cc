// sysbench's command line with `storebench oltp` in front of it: the test name as a word or a
// script path, --test=oltp_<test>, and the options storebench takes from sysbench 1.0.20
// (src/sysbench.c, its general_args and --forced-shutdown parsing).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/sysbench_options.h"
#include "config/options.h"

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;

Args Take(Args a) {
  TakeSysbenchTestName(&a);
  return a;
}

TEST(SysbenchCommandLineTest, TheTestNameWordNamesTheOltpTest) {
  EXPECT_EQ(Take({"oltp_read_write", "--tables=4", "run"}),
            (Args{"--test=read_write", "--workload=oltp", "--tables=4", "run"}));
  EXPECT_EQ(Take({"--threads=2", "/usr/share/sysbench/oltp_point_select.lua", "prepare"}),
            (Args{"--threads=2", "--test=point_select", "--workload=oltp", "prepare"}));
  // A workload already named is kept; sysbench's --test= spelling is read the same way.
  EXPECT_EQ(Take({"--workload=oltp", "--test=oltp_update_index", "run"}),
            (Args{"--workload=oltp", "--test=update_index", "run"}));
  EXPECT_EQ(Take({"--test", "oltp_insert.lua", "run"}), (Args{"--test", "insert", "run"}));
  // An option's value is not a test name; other words are left for the command line's checks.
  EXPECT_EQ(Take({"--db", "sqlite:///tmp/oltp_x.db", "run"}),
            (Args{"--db", "sqlite:///tmp/oltp_x.db", "run"}));
  EXPECT_EQ(Take({"fileio", "run"}), (Args{"fileio", "run"}));
}

TEST(SysbenchCommandLineTest, ForcedShutdownAsSysbenchReadsIt) {
  EXPECT_EQ(*ForcedShutdownSeconds("off", 60), -1);
  EXPECT_EQ(*ForcedShutdownSeconds("5", 60), 5);
  EXPECT_EQ(*ForcedShutdownSeconds("10%", 60), 6);
  EXPECT_FALSE(ForcedShutdownSeconds("soon", 60).ok());
  EXPECT_FALSE(ForcedShutdownSeconds("5s", 60).ok());
  EXPECT_FALSE(ForcedShutdownSeconds("", 60).ok());
}

TEST(SysbenchCommandLineTest, SysbenchsOptionsAreTakenWithANoteWhereTheyDiffer) {
  config::OptionSet o;
  DeclareSysbenchOptions(&o);
  ASSERT_TRUE(
      config::ParseCommandLine({"--db-ps-mode=auto", "--verbosity=5", "--auto_inc=on",
                                "--forced-shutdown=off", "--mysql-ignore-errors=1213,1020,1205"},
                               &o)
          .ok());
  EXPECT_TRUE(SysbenchNotes(o).empty());
  config::OptionSet d;
  DeclareSysbenchOptions(&d);
  ASSERT_TRUE(config::ParseCommandLine(
                  {"--db-ps-mode=disable", "--mysql-ignore-errors=all", "--auto_inc=off"}, &d)
                  .ok());
  EXPECT_EQ(SysbenchNotes(d).size(), 3u);
  config::OptionSet bad;
  DeclareSysbenchOptions(&bad);
  EXPECT_FALSE(config::ParseCommandLine({"--db-ps-mode=never"}, &bad).ok());
  EXPECT_FALSE(config::ParseCommandLine({"--verbosity=6"}, &bad).ok());
}

}  // namespace
}  // namespace sb::cli
