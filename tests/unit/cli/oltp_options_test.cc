// The option tables of `oltp load`, `oltp run` and `oltp verify` (OltpParseOptions: the command
// line's own options, the workload's and the driver's), parsed into typed values without a
// database: representative command lines, and bad values refused with OptionSet's sentence.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/builtins.h"
#include "cli/oltp_internal.h"
#include "config/options.h"
#include "workload/registry.h"

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;
constexpr int64_t kSecond = 1000000000;

// The options of `command` for `workload_name` after parsing `args`, or the parse error.
struct Parsed {
  std::unique_ptr<workload::Workload> workload;
  config::OptionSet options;
  Status status;
};

Parsed Parse(const std::string& command, const std::string& workload_name, const Args& args) {
  const workload::WorkloadRegistry workloads = MakeWorkloads();
  Parsed p;
  auto w = workloads.Create(workload_name);
  EXPECT_TRUE(w.ok()) << workload_name;
  p.workload = std::move(w).value();
  p.status = OltpParseOptions(command, workloads, *p.workload, args, &p.options);
  return p;
}

std::string ErrorOf(const std::string& command, const Args& args,
                    const std::string& workload_name = "dvdstore") {
  const Parsed p = Parse(command, workload_name, args);
  EXPECT_FALSE(p.status.ok()) << "accepted";
  return p.status.message();
}

TEST(OltpLoadOptionsTest, RepresentativeLoadLine) {
  Parsed p =
      Parse("load", "dvdstore",
            {"--db", "sqlite:///tmp/ds.db", "--db_size=20mb", "--load_threads=3", "--index_threads",
             "2", "--force", "--csv-dir=/tmp/csv", "--rand_seed=7", "--pristine=yes"});
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  const config::OptionSet& o = p.options;
  EXPECT_EQ(o.GetString("db"), "sqlite:///tmp/ds.db");
  EXPECT_EQ(o.GetString("db_size"), "20MB");  // stored upper-case
  EXPECT_EQ(o.GetInt("load_threads"), 3);
  EXPECT_EQ(o.GetInt("index_threads"), 2);
  EXPECT_TRUE(o.GetBool("force"));
  EXPECT_FALSE(o.GetBool("dry_run"));
  EXPECT_EQ(o.GetString("csv_dir"), "/tmp/csv");  // through its dashed alias
  EXPECT_EQ(o.GetInt("seed"), 7);                 // through DVD Store's rand_seed
  EXPECT_TRUE(o.GetBool("pristine"));
  EXPECT_EQ(o.GetString("workload"), "dvdstore");
  // Run-only options are not load's.
  EXPECT_FALSE(o.Has("json"));
  EXPECT_FALSE(o.Has("n_threads"));
}

TEST(OltpLoadOptionsTest, BadValuesAreRefusedWithTheOptionAndValue) {
  EXPECT_EQ(ErrorOf("load", {"--load_threads=0"}),
            "option load_threads: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(ErrorOf("load", {"--index_threads=65"}),
            "option index_threads: '65' is above the maximum of 64 (command line)");
  EXPECT_EQ(ErrorOf("load", {"--db_size=2048MB"}),
            "option db_size: '2048MB' is out of range: MB sizes must be 1 to 1023 (use GB for "
            "larger sizes) (command line)");
  EXPECT_EQ(ErrorOf("load", {"--db_size=XL"}),
            "option db_size: 'XL' is not S, M, L or a whole number followed by MB or GB "
            "(command line)");
  EXPECT_EQ(ErrorOf("load", {"--force=perhaps"}),
            "option force: 'perhaps' is not Y or N (yes/no, true/false, on/off and 1/0 also work) "
            "(command line)");
  EXPECT_EQ(ErrorOf("load", {"--workload=bank"}),
            "option workload: 'bank' is not dvdstore, oltp, soe, tpcc or noop (command line)");
  EXPECT_EQ(ErrorOf("load", {"sqlite:///tmp/ds.db"}),
            "unexpected argument 'sqlite:///tmp/ds.db' (command line); options are written "
            "--name=value or --name value");
}

TEST(OltpRunOptionsTest, RepresentativeRunLine) {
  Parsed p = Parse("run", "dvdstore",
                   {"--db=sqlite:///tmp/ds.db", "--n_threads", "8", "--run_time=2", "--warmup=30",
                    "--think_time=0.5", "--json", "r.json", "--label=ft-on", "--progress=JSON",
                    "--log_timestamp=utc", "--pct_newcustomers=35", "--ds2_mode=Y", "--seed=42"});
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  const config::OptionSet& o = p.options;
  EXPECT_EQ(o.GetInt("n_threads"), 8);
  EXPECT_EQ(o.GetDurationNanos("run_time"), 120 * kSecond);    // DVD Store: bare minutes
  EXPECT_EQ(o.GetDurationNanos("warmup_time"), 30 * kSecond);  // --warmup: bare seconds
  EXPECT_DOUBLE_EQ(o.GetDouble("think_time"), 0.5);
  EXPECT_EQ(o.GetString("json"), "r.json");
  EXPECT_EQ(o.GetString("label"), "ft-on");
  EXPECT_EQ(o.GetString("progress"), "json");  // stored as the choice's spelling
  EXPECT_EQ(o.GetString("log_timestamp"), "UTC");
  EXPECT_EQ(o.GetInt("pct_newcustomers"), 35);
  EXPECT_TRUE(o.GetBool("ds2_mode"));
  EXPECT_EQ(o.GetInt("seed"), 42);
  EXPECT_TRUE(o.IsSet("seed"));
  EXPECT_EQ(o.GetString("target"), "localhost");  // DVD Store 3's default
  EXPECT_FALSE(o.Has("load_threads"));
}

TEST(OltpRunOptionsTest, BadValuesAreRefusedWithTheOptionAndValue) {
  EXPECT_EQ(ErrorOf("run", {"--n_threads=0"}),
            "option n_threads: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--threads=4097"}),
            "option n_threads: '4097' is above the maximum of 4096 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--progress=loud"}),
            "option progress: 'loud' is not human, json or none (command line)");
  EXPECT_EQ(ErrorOf("run", {"--n_stores=2"}),
            "option n_stores: '2' is above the maximum of 1 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--ds2_mode=yes"}),
            "option ds2_mode: 'yes' is not Y or N: the peer tool reads exactly Y as yes and "
            "anything else as no (command line)");
  EXPECT_EQ(ErrorOf("run", {"--pct_newcustomers=101"}),
            "option pct_newcustomers: '101' is above the maximum of 100 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--run_time=soon"}),
            "option run_time: 'soon' is not a duration like 90s, 2m or 1h30m, or a bare number "
            "of minutes (command line)");
  EXPECT_EQ(ErrorOf("run", {"--think_time=-1"}),
            "option think_time: '-1' is below the minimum of 0 (command line)");
}

TEST(OltpRunOptionsTest, SysbenchStyleWorkloadReadsItsOwnOptionsAndUnits) {
  Parsed p = Parse("run", "oltp",
                   {"--db=sqlite:///tmp/sb.db", "--tables=4", "--table_size=1000",
                    "--warmup_time=5", "--time=60"});
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.options.GetInt("tables"), 4);
  EXPECT_EQ(p.options.GetInt("table_size"), 1000);
  // sysbench counts the warm-up in seconds even under its DVD Store name; --time is seconds.
  EXPECT_EQ(p.options.GetDurationNanos("warmup_time"), 5 * kSecond);
  EXPECT_EQ(p.options.GetDurationNanos("run_time"), 60 * kSecond);
  EXPECT_EQ(ErrorOf("run", {"--tables=0"}, "oltp"),
            "option tables: '0' is below the minimum of 1 (command line)");
}

TEST(OltpVerifyOptionsTest, OnlyTheDatabaseTheWorkloadAndItsOptions) {
  Parsed p = Parse("verify", "dvdstore", {"--db", "sqlite:///tmp/ds.db", "--db_size", "m"});
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.options.GetString("db"), "sqlite:///tmp/ds.db");
  EXPECT_EQ(p.options.GetString("db_size"), "M");
  EXPECT_FALSE(p.options.Has("json"));
  EXPECT_FALSE(p.options.Has("force"));
  const std::string unknown = ErrorOf("verify", {"--n_threads=2"});
  EXPECT_EQ(unknown.rfind("unknown option 'n_threads' (command line)", 0), 0u) << unknown;
  // pristine and restore read the same table as verify.
  for (const char* verb : {"pristine", "restore"}) {
    Parsed q = Parse(verb, "oltp", {"--db=sqlite:///tmp/sb.db", "--tables=2"});
    ASSERT_TRUE(q.status.ok()) << verb << ": " << q.status.message();
    EXPECT_EQ(q.options.GetInt("tables"), 2) << verb;
    EXPECT_FALSE(q.options.Has("force")) << verb;
  }
}

}  // namespace
}  // namespace sb::cli
