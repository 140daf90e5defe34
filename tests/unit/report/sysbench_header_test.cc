// sysbench's header against what sysbench 1.0.20 printed for the same options (Debian's
// sysbench, `sysbench oltp_read_write ... run` on PostgreSQL), blank lines included; only the
// version line's "(using ...)" differs.
#include <gtest/gtest.h>

#include "report/console/sysbench_report.h"

namespace sb::report {
namespace {

TEST(SysbenchHeaderTest, AsSysbench1020PrintsIt) {
  SysbenchHeader h;
  h.using_what = "storebench 1.0";
  h.threads = 2;
  h.report_interval = 1;
  // sysbench --threads=2 --time=3 --report-interval=1 run
  EXPECT_EQ(FormatSysbenchHeader(h),
            "sysbench 1.0.20 (using storebench 1.0)\n"
            "\n"
            "Running the test with following options:\n"
            "Number of threads: 2\n"
            "Report intermediate results every 1 second(s)\n"
            "Initializing random number generator from current time\n"
            "\n"
            "\n"
            "Initializing worker threads...\n"
            "\n");
  // sysbench --threads=1 --rand-seed=7 run
  h.threads = 1;
  h.report_interval = 0;
  h.seed = 7;
  EXPECT_EQ(FormatSysbenchHeader(h),
            "sysbench 1.0.20 (using storebench 1.0)\n"
            "\n"
            "Running the test with following options:\n"
            "Number of threads: 1\n"
            "Initializing random number generator from seed (7).\n"
            "\n"
            "\n"
            "Initializing worker threads...\n"
            "\n");
  // sysbench --threads=1 --time=2 --forced-shutdown=1 run
  h.seed = 0;
  h.forced_shutdown = 3;
  EXPECT_EQ(FormatSysbenchHeader(h),
            "sysbench 1.0.20 (using storebench 1.0)\n"
            "\n"
            "Running the test with following options:\n"
            "Number of threads: 1\n"
            "Initializing random number generator from current time\n"
            "\n"
            "Forcing shutdown in 3 seconds\n"
            "\n"
            "Initializing worker threads...\n"
            "\n");
}

}  // namespace
}  // namespace sb::report
