// The option tables of the storage commands (io prepare, run, verify: DeclareIoOptions; io
// extents, fragment, defrag, copy, read, churn, fragtest: DeclareIoFsOptions), parsed as
// RunIoCommand and RunIoFsCommand parse them, without a file or a device: representative
// command lines into typed values, and bad values refused with OptionSet's sentence.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/builtins.h"
#include "cli/io_fs_commands.h"
#include "cli/io_fs_internal.h"
#include "cli/io_internal.h"
#include "config/options.h"

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;
constexpr int64_t kSecond = 1000000000;

// `command`'s table as the io command declares it, `args` parsed into it.
Status ParseIo(const std::string& command, const Args& args, config::OptionSet* o) {
  o->set_help_command("storebench io " + command + " --help");
  const io::EngineRegistry engines = MakeEngines();
  if (IsIoFsCommand(command)) {
    DeclareIoFsOptions(o, command, engines);
  } else {
    DeclareIoOptions(o, command, engines);
  }
  return config::ParseCommandLine(args, o);
}

std::string ErrorOf(const std::string& command, const Args& args) {
  config::OptionSet o;
  const Status s = ParseIo(command, args, &o);
  EXPECT_FALSE(s.ok()) << "accepted";
  return s.message();
}

TEST(IoRunOptionsTest, RepresentativeRunLine) {
  config::OptionSet o;
  const Status s = ParseIo("run",
                           {"--target",
                            "/data/a.tst",
                            "--target=/data/b.tst",
                            "--spec",
                            "8KiB,65%read,60%random",
                            "--engine=PSYNC",
                            "--workers=4",
                            "--outstanding",
                            "64",
                            "--submit_batch=0",
                            "--rate=5000",
                            "--arrival=poisson",
                            "--run_time=90s",
                            "--ramp_time=1m",
                            "--direct=N",
                            "--max_size=8GiB",
                            "--start_sector=2048",
                            "--window=10s-20s",
                            "--baseline_rule=every_interval",
                            "--progress=none",
                            "--power=rapl://",
                            "--power=csv:///tmp/p.csv"},
                           &o);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(o.GetString("target"), "/data/a.tst,/data/b.tst");  // repeatable: appended
  EXPECT_EQ(o.GetString("spec"), "8KiB,65%read,60%random");
  EXPECT_EQ(o.GetString("engine"), "psync");
  EXPECT_EQ(o.GetInt("workers"), 4);
  EXPECT_EQ(o.GetInt("outstanding"), 64);
  EXPECT_EQ(o.GetInt("submit_batch"), 0);
  EXPECT_DOUBLE_EQ(o.GetDouble("rate"), 5000);
  EXPECT_EQ(o.GetString("arrival"), "poisson");
  EXPECT_EQ(o.GetDurationNanos("run_time"), 90 * kSecond);
  EXPECT_EQ(o.GetDurationNanos("ramp_time"), 60 * kSecond);
  EXPECT_FALSE(o.GetBool("direct"));
  EXPECT_EQ(o.GetString("max_size"), "8GiB");
  EXPECT_EQ(o.GetInt("start_sector"), 2048);
  EXPECT_EQ(o.GetString("baseline_rule"), "every_interval");
  EXPECT_EQ(o.GetString("progress"), "none");
  EXPECT_EQ(o.GetString("power"), "rapl://,csv:///tmp/p.csv");
  // Defaults of what was not given.
  EXPECT_EQ(o.GetString("pattern"), "full_random");
  EXPECT_EQ(o.GetString("align"), "sector");
  EXPECT_EQ(o.GetDurationNanos("max_lag"), 10 * kSecond);
  EXPECT_EQ(o.GetString("description"), "storebench io run");
}

TEST(IoRunOptionsTest, BadValuesAreRefusedWithTheOptionAndValue) {
  EXPECT_EQ(ErrorOf("run", {"--engine=spdk"}),
            "option engine: 'spdk' is not io_uring, libaio, null or psync (command line)");
  EXPECT_EQ(ErrorOf("run", {"--workers=0"}),
            "option workers: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--workers=1025"}),
            "option workers: '1025' is above the maximum of 1024 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--outstanding=65537"}),
            "option outstanding: '65537' is above the maximum of 65536 (command line)");
  EXPECT_EQ(ErrorOf("run", {"--rate=fast"}), "option rate: 'fast' is not a number (command line)");
  EXPECT_EQ(ErrorOf("run", {"--pattern=zeros"}),
            "option pattern: 'zeros' is not repeating, pseudo_random or full_random (command "
            "line)");
  EXPECT_EQ(ErrorOf("run", {"--run_time=-5s"}),
            "option run_time: '-5s' is not a duration like 90s, 2m or 1h30m, or a bare number of "
            "seconds (command line)");
  EXPECT_EQ(ErrorOf("run", {"--wokers=2"}),
            "unknown option 'wokers' (command line); did you mean 'workers'? see storebench io "
            "run --help");
  EXPECT_EQ(ErrorOf("run", {"--target"}),
            "option target needs a value: --target=VALUE or --target VALUE (command line)");
}

TEST(IoPrepareAndVerifyOptionsTest, EachVerbHasItsOwnTable) {
  config::OptionSet prepare;
  Status s =
      ParseIo("prepare",
              {"--target=/data/a.tst", "--size", "2GiB", "--pattern=repeating", "--fragment=500"},
              &prepare);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(prepare.GetString("size"), "2GiB");
  EXPECT_EQ(prepare.GetString("pattern"), "repeating");
  EXPECT_EQ(prepare.GetInt("fragment"), 500);
  EXPECT_FALSE(prepare.Has("engine"));

  config::OptionSet verify;
  s = ParseIo("verify",
              {"--target=/data/a.tst", "--engine=libaio", "--verify_phase=both",
               "--block_size=64KiB", "--outstanding=8"},
              &verify);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(verify.GetString("engine"), "libaio");
  EXPECT_EQ(verify.GetString("verify_phase"), "both");
  EXPECT_EQ(verify.GetString("block_size"), "64KiB");
  EXPECT_EQ(verify.GetInt("outstanding"), 8);
  EXPECT_FALSE(verify.GetBool("readonly"));
  // The null engine transfers no data, so verify does not offer it; reading is the default.
  EXPECT_EQ(ErrorOf("verify", {"--engine=null"}),
            "option engine: 'null' is not io_uring, libaio or psync (command line)");
  EXPECT_EQ(ErrorOf("verify", {"--verify_phase=scrub"}),
            "option verify_phase: 'scrub' is not read, write or both (command line)");
  EXPECT_EQ(ErrorOf("prepare", {"--workers=2"}).rfind("unknown option 'workers'", 0), 0u);
}

TEST(IoFsOptionsTest, ExtentsFragmentAndDefrag) {
  config::OptionSet extents;
  Args args = {"/data", "--recursive", "--top", "3", "/srv", "--json", "e.json"};
  EXPECT_EQ(TakeOperands(&args,
                         [] {
                           config::OptionSet o;
                           DeclareIoFsOptions(&o, "extents", MakeEngines());
                           return o;
                         }()),
            (Args{"/data", "/srv"}));
  EXPECT_EQ(args, (Args{"--recursive", "--top", "3", "--json", "e.json"}));
  Status s = ParseIo("extents", args, &extents);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(extents.GetBool("recursive"));
  EXPECT_EQ(extents.GetInt("top"), 3);
  EXPECT_EQ(extents.GetString("json"), "e.json");

  config::OptionSet fragment;
  s = ParseIo("fragment", {"--target=/data/a.tst", "--extents", "400", "--method=punch"},
              &fragment);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fragment.GetInt("extents"), 400);
  EXPECT_EQ(fragment.GetString("method"), "punch");
  EXPECT_EQ(ErrorOf("fragment", {"--extents=0"}),
            "option extents: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(ErrorOf("fragment", {"--method=online"}),
            "option method: 'online' is not auto, move_ext, punch or copy (command line)");

  config::OptionSet defrag;
  s = ParseIo("defrag", {"--method=copy"}, &defrag);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(defrag.GetString("method"), "copy");
  EXPECT_EQ(ErrorOf("defrag", {"--method=punch"}),
            "option method: 'punch' is not auto, online or copy (command line)");
}

TEST(IoFsOptionsTest, CopyReadChurnAndFragtest) {
  config::OptionSet read;
  Status s = ParseIo("read", {"--drop_caches=system", "--direct=N", "--block_size=4MiB"}, &read);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(read.GetString("drop_caches"), "system");
  EXPECT_FALSE(read.GetBool("direct"));
  EXPECT_EQ(read.GetString("block_size"), "4MiB");
  EXPECT_EQ(ErrorOf("copy", {"--drop_caches=all"}),
            "option drop_caches: 'all' is not file, system or none (command line)");

  config::OptionSet churn;
  s = ParseIo("churn",
              {"--dir=/data/churn", "--writers=8", "--duration=90s", "--sample_interval=500ms",
               "--max_bytes=2GiB", "--keep=N"},
              &churn);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(churn.GetString("dir"), "/data/churn");
  EXPECT_EQ(churn.GetInt("writers"), 8);
  EXPECT_EQ(churn.GetDurationNanos("duration"), 90 * kSecond);
  EXPECT_EQ(churn.GetDurationNanos("sample_interval"), kSecond / 2);
  EXPECT_FALSE(churn.GetBool("keep"));
  EXPECT_EQ(ErrorOf("churn", {"--writers=65"}),
            "option writers: '65' is above the maximum of 64 (command line)");
  EXPECT_EQ(ErrorOf("churn", {"--sample_interval=10ms"}),
            "option sample_interval: '10ms' is below the minimum of 100ms (command line)");

  config::OptionSet fragtest;
  s = ParseIo("fragtest",
              {"--target=/data/a.tst", "--extents=1000", "--preset=vmtn", "--rounds=5",
               "--engine=psync", "--fragment_method=copy", "--method=online", "--seq_read=N"},
              &fragtest);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fragtest.GetInt("extents"), 1000);
  EXPECT_EQ(fragtest.GetString("preset"), "vmtn");
  EXPECT_EQ(fragtest.GetInt("rounds"), 5);
  EXPECT_EQ(fragtest.GetString("engine"), "psync");
  EXPECT_EQ(fragtest.GetString("fragment_method"), "copy");
  EXPECT_EQ(fragtest.GetString("method"), "online");
  EXPECT_FALSE(fragtest.GetBool("seq_read"));
  EXPECT_EQ(fragtest.GetInt("workers"), 0);  // 0: the preset's
  EXPECT_EQ(ErrorOf("fragtest", {"--rounds=101"}),
            "option rounds: '101' is above the maximum of 100 (command line)");
}

TEST(IoFsOptionsTest, OperandsAreTheWordsThatAreNoOptionsValue) {
  config::OptionSet o;
  DeclareIoFsOptions(&o, "copy", MakeEngines());
  // A boolean takes no value word, so the word after --direct is an operand; --json takes one.
  Args args = {"--direct", "src.tst", "--json", "c.json", "dst.tst", "--config_file", "x.txt"};
  EXPECT_EQ(TakeOperands(&args, o), (Args{"src.tst", "dst.tst"}));
  EXPECT_EQ(args, (Args{"--direct", "--json", "c.json", "--config_file", "x.txt"}));
  EXPECT_EQ(std::string(IoFsUsage("read")),
            "storebench io read PATH [--direct Y] [--drop_caches file] [--json FILE]");
}

}  // namespace
}  // namespace sb::cli
