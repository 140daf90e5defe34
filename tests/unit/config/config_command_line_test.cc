// ParseCommandLine: argument forms, bare flags, config files in order, errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/options.h"
#include "unit/config/dvdstore_options.h"

namespace sb::config {
namespace {

using testing::DeclareDvdStoreOptions;
using testing::kMinute;
using testing::kSecond;
using testing::WriteScratchFile;

class CommandLineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DeclareDvdStoreOptions(&options_);
    options_.set_help_command("storebench oltp run --help");
  }

  Status Parse(const std::vector<std::string>& args) { return ParseCommandLine(args, &options_); }

  std::string ParseError(const std::vector<std::string>& args) {
    Status s = Parse(args);
    EXPECT_FALSE(s.ok()) << "accepted: " << ::testing::PrintToString(args);
    return s.message();
  }

  OptionSet options_;
};

TEST_F(CommandLineTest, EmptyIsOk) {
  ASSERT_TRUE(Parse({}).ok());
  EXPECT_EQ(options_.GetInt("n_threads"), 1);
}

TEST_F(CommandLineTest, EqualsAndSeparateValueForms) {
  Status s = Parse({"--n_threads=8", "--db_size", "20gb", "--run_time=90s", "--warmup_time", "2m",
                    "--target=db1", "--think_time", "0.5", "--page_type=JSP"});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 8);
  EXPECT_EQ(options_.GetString("db_size"), "20GB");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 90 * kSecond);
  EXPECT_EQ(options_.GetDurationNanos("warmup_time"), 2 * kMinute);
  EXPECT_EQ(options_.GetString("target"), "db1");
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 0.5);
  EXPECT_EQ(options_.GetString("page_type"), "jsp");
  EXPECT_TRUE(options_.IsSet("n_threads"));
  EXPECT_FALSE(options_.IsSet("ramp_rate"));
}

TEST_F(CommandLineTest, DashesUnderscoresAndAliases) {
  Status s = Parse({"--n-threads=3", "--search-batch-size", "7", "--n_line-items=2", "--duration=1",
                    "--warmup", "0"});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 3);
  EXPECT_EQ(options_.GetInt("search_batch_size"), 7);
  EXPECT_EQ(options_.GetInt("n_line_items"), 2);
  EXPECT_EQ(options_.GetDurationNanos("run_time"), kMinute);  // bare number: minutes
  EXPECT_EQ(options_.GetDurationNanos("warmup_time"), 0);
  ASSERT_TRUE(Parse({"--threads", "5"}).ok());
  EXPECT_EQ(options_.GetInt("n_threads"), 5);
}

TEST_F(CommandLineTest, LaterWinsOnTheCommandLine) {
  ASSERT_TRUE(Parse({"--n_threads=2", "--threads=3", "--n-threads", "4"}).ok());
  EXPECT_EQ(options_.GetInt("n_threads"), 4);
}

TEST_F(CommandLineTest, ValueMayContainEquals) {
  ASSERT_TRUE(Parse({"--virt_dir=a=b", "--target", "x=y"}).ok());
  EXPECT_EQ(options_.GetString("virt_dir"), "a=b");
  EXPECT_EQ(options_.GetString("target"), "x=y");
  ASSERT_TRUE(Parse({"--windows_perf_host="}).ok());  // empty string value
  EXPECT_EQ(options_.GetString("windows_perf_host"), "");
  EXPECT_TRUE(options_.IsSet("windows_perf_host"));
}

TEST_F(CommandLineTest, BareBooleanFlag) {
  ASSERT_TRUE(Parse({"--detailed_view"}).ok());
  EXPECT_TRUE(options_.GetBool("detailed_view"));
  EXPECT_TRUE(options_.IsSet("detailed_view"));
}

TEST_F(CommandLineTest, BareBooleanFlagFollowedByOption) {
  Status s = Parse({"--detailed-view", "--n_threads=2"});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(options_.GetBool("detailed_view"));
  EXPECT_EQ(options_.GetInt("n_threads"), 2);
}

TEST_F(CommandLineTest, BooleanWithValue) {
  ASSERT_TRUE(Parse({"--detailed_view"}).ok());
  ASSERT_TRUE(Parse({"--detailed_view=N"}).ok());
  EXPECT_FALSE(options_.GetBool("detailed_view"));
  ASSERT_TRUE(Parse({"--detailed_view=yes"}).ok());
  EXPECT_TRUE(options_.GetBool("detailed_view"));
  EXPECT_EQ(
      ParseError({"--detailed_view=maybe"}),
      "option detailed_view: 'maybe' is not Y or N (yes/no, true/false, on/off and 1/0 also work) "
      "(command line)");
}

TEST_F(CommandLineTest, BareFlagDoesNotConsumeABoolValue) {
  // "--detailed_view N" does not set N: the flag means Y and "N" is a stray argument.
  EXPECT_EQ(ParseError({"--detailed_view", "N"}),
            "unexpected argument 'N' (command line); a bare --detailed_view means Y, write "
            "--detailed_view=N to give it a value");
}

TEST_F(CommandLineTest, PositionalArgumentsAreErrors) {
  EXPECT_EQ(ParseError({"localhost"}),
            "unexpected argument 'localhost' (command line); options are written --name=value or "
            "--name value");
  EXPECT_NE(ParseError({"-n", "4"}).find("unexpected argument '-n'"), std::string::npos);
  EXPECT_NE(ParseError({"--n_threads=2", "extra"}).find("unexpected argument 'extra'"),
            std::string::npos);
  EXPECT_NE(ParseError({""}).find("unexpected argument ''"), std::string::npos);
}

TEST_F(CommandLineTest, EmptyOptionName) {
  EXPECT_EQ(ParseError({"--"}), "argument '--' has no option name (command line)");
  EXPECT_EQ(ParseError({"--=5"}), "argument '--=5' has no option name (command line)");
}

TEST_F(CommandLineTest, MissingValue) {
  EXPECT_EQ(ParseError({"--n_threads"}),
            "option n_threads needs a value: --n_threads=VALUE or --n_threads VALUE "
            "(command line)");
  EXPECT_EQ(ParseError({"--target", "--n_threads=2"}),
            "option target needs a value: --target=VALUE or --target VALUE (command line)");
}

TEST_F(CommandLineTest, UnknownOption) {
  EXPECT_EQ(ParseError({"--n_thread=4"}),
            "unknown option 'n_thread' (command line); did you mean 'n_threads'? see storebench "
            "oltp run --help");
  EXPECT_EQ(ParseError({"--n-thread", "4"}),
            "unknown option 'n-thread' (command line); did you mean 'n_threads'? see storebench "
            "oltp run --help");
  EXPECT_EQ(ParseError({"--help"}),
            "unknown option 'help' (command line); see storebench oltp run --help");
  // Case matters on the command line, but the suggestion finds the option.
  EXPECT_NE(ParseError({"--N_THREADS=4"}).find("did you mean 'n_threads'?"), std::string::npos);
}

TEST_F(CommandLineTest, BadValueStopsParsing) {
  Status s = Parse({"--n_threads=2", "--db_size=1.5GB", "--ramp_rate=5"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "option db_size: '1.5GB' is not S, M, L or a whole number followed by MB or GB "
            "(command line)");
  EXPECT_EQ(options_.GetInt("ramp_rate"), 10);
}

TEST_F(CommandLineTest, ConfigFileAppliesAtItsPosition) {
  const std::string path =
      WriteScratchFile("DriverConfig.txt", "n_threads=8\ndb_size=20GB\nrun_time=3\n");

  // Command line before the file: the file wins.
  Status s = Parse({"--n_threads=2", "--config_file=" + path});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 8);
  EXPECT_EQ(options_.GetString("db_size"), "20GB");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 3 * kMinute);

  // Command line after the file: the command line wins.
  s = Parse({"--config-file", path, "--n_threads=2", "--run_time=90s"});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 2);
  EXPECT_EQ(options_.GetString("db_size"), "20GB");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 90 * kSecond);
}

TEST_F(CommandLineTest, SeveralConfigFilesLaterWins) {
  const std::string a = WriteScratchFile("a.txt", "n_threads=4\ntarget=first\n");
  const std::string b = WriteScratchFile("b.txt", "n_threads=6\n");
  Status s = Parse({"--config_file", a, "--config_file=" + b});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 6);
  EXPECT_EQ(options_.GetString("target"), "first");
  s = Parse({"--config_file=" + b, "--config_file=" + a});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 4);
}

TEST_F(CommandLineTest, ConfigFileErrors) {
  const std::string missing = testing::ScratchPath("does-not-exist.txt");
  Status s = Parse({"--config_file=" + missing});
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "config file '" + missing + "' cannot be read: No such file or directory");
  EXPECT_EQ(ParseError({"--config_file"}),
            "option config_file needs a value: --config_file=VALUE or --config_file VALUE "
            "(command line)");
  EXPECT_EQ(ParseError({"--config_file="}),
            "option config_file: '' is not a file path (command line)");
  const std::string bad = WriteScratchFile("bad.txt", "# settings\nn_threads=zero\n");
  EXPECT_EQ(ParseError({"--config_file", bad}),
            "option n_threads: 'zero' is not a whole non-negative number (" + bad + ":2)");
}

TEST_F(CommandLineTest, DeclaredConfigFileOptionRecordsThePath) {
  OptionSpec spec;
  spec.name = "config_file";
  spec.aliases = {"config-file"};
  spec.type = OptionType::kString;
  spec.help = "DriverConfig file";
  options_.Add(spec);
  const std::string path = WriteScratchFile("DriverConfig.txt", "n_threads=8\n");
  Status s = Parse({"--config-file", path});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 8);
  EXPECT_EQ(options_.GetString("config_file"), path);
  EXPECT_TRUE(options_.IsSet("config_file"));
}

}  // namespace
}  // namespace sb::config
