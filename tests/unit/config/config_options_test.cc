// OptionSet: declaration, typed values, error messages, JSON/echo/help output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "config/options.h"
#include "unit/config/dvdstore_options.h"

namespace sb::config {
namespace {

using testing::DeclareDvdStoreOptions;
using testing::kMinute;
using testing::kSecond;
using testing::Spec;

class OptionSetTest : public ::testing::Test {
 protected:
  void SetUp() override { DeclareDvdStoreOptions(&options_); }

  // Sets and returns the error message ("" when it succeeded).
  std::string SetError(const std::string& name, const std::string& value,
                       const std::string& origin = "command line") {
    Status s = options_.Set(name, value, origin);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
    }
    return s.message();
  }

  OptionSet options_;
};

TEST_F(OptionSetTest, DefaultsAreParsedAndNotSet) {
  EXPECT_EQ(options_.GetString("target"), "localhost");
  EXPECT_EQ(options_.GetInt("n_threads"), 1);
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 0);
  EXPECT_EQ(options_.GetDurationNanos("warmup_time"), kMinute);
  EXPECT_EQ(options_.GetString("db_size"), "10MB");
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 0.0);
  EXPECT_EQ(options_.GetString("page_type"), "php");
  EXPECT_EQ(options_.GetString("windows_perf_host"), "");
  EXPECT_FALSE(options_.GetBool("detailed_view"));
  EXPECT_FALSE(options_.IsSet("n_threads"));
  EXPECT_FALSE(options_.IsSet("db_size"));
}

TEST_F(OptionSetTest, SetMarksOptionSet) {
  ASSERT_TRUE(options_.Set("n_threads", "1", "command line").ok());
  EXPECT_TRUE(options_.IsSet("n_threads"));  // even when equal to the default
  EXPECT_FALSE(options_.IsSet("ramp_rate"));
}

TEST_F(OptionSetTest, HasAcceptsAliasesAndDashes) {
  EXPECT_TRUE(options_.Has("n_threads"));
  EXPECT_TRUE(options_.Has("n-threads"));
  EXPECT_TRUE(options_.Has("threads"));
  EXPECT_TRUE(options_.Has("search-batch-size"));
  EXPECT_FALSE(options_.Has("N_THREADS"));  // case-sensitive outside DriverConfig files
  EXPECT_FALSE(options_.Has("nthreads"));
  EXPECT_FALSE(options_.Has(""));
}

TEST_F(OptionSetTest, FindSpecResolvesAliasesAndOptionallyCase) {
  const OptionSpec* spec = options_.FindSpec("threads");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->name, "n_threads");
  EXPECT_EQ(options_.FindSpec("N-Threads"), nullptr);
  spec = options_.FindSpec("N-Threads", /*ignore_case=*/true);
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->name, "n_threads");
  spec = options_.FindSpec("PASSWORD", /*ignore_case=*/true);
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->name, "db_password");
}

TEST_F(OptionSetTest, AliasesAndDashesSetTheCanonicalOption) {
  ASSERT_TRUE(options_.Set("threads", "4", "command line").ok());
  EXPECT_EQ(options_.GetInt("n_threads"), 4);
  ASSERT_TRUE(options_.Set("n-threads", "5", "command line").ok());
  EXPECT_EQ(options_.GetInt("n_threads"), 5);
  ASSERT_TRUE(options_.Set("search-batch-size", "9", "command line").ok());
  EXPECT_EQ(options_.GetInt("search_batch_size"), 9);
  ASSERT_TRUE(options_.Set("warmup", "30s", "command line").ok());
  EXPECT_EQ(options_.GetDurationNanos("warmup_time"), 30 * kSecond);
}

TEST_F(OptionSetTest, SetFromTakesWhatTheOtherSetHasSet) {
  // A smaller set (a load's) takes what the run's set was given, but what it names as its own.
  OptionSet load;
  load.Add(Spec("db_size", OptionType::kDbSize, "S"));
  load.Add(Spec("n_threads", OptionType::kInt, "1", "driver"));
  OptionSpec run_time = Spec("run_time", OptionType::kDuration, "0", "driver");
  run_time.bare_unit_nanos = kMinute;
  load.Add(run_time);
  load.Add(Spec("target", OptionType::kInt, "3"));  // another type than the run's: left alone
  ASSERT_TRUE(options_.Set("db_size", "1mb", "command line").ok());
  ASSERT_TRUE(options_.Set("target", "db1", "command line").ok());
  ASSERT_TRUE(options_.Set("duration", "90", "command line").ok());  // bare: minutes
  ASSERT_TRUE(options_.Set("n_threads", "7", "command line").ok());
  ASSERT_TRUE(load.SetFrom(options_, {"n_threads"}, "the run's options").ok());
  EXPECT_EQ(load.GetString("db_size"), "1MB");
  EXPECT_TRUE(load.IsSet("db_size"));
  EXPECT_EQ(load.GetDurationNanos("run_time"), 90 * kMinute);
  EXPECT_EQ(load.GetInt("n_threads"), 1);  // excepted
  EXPECT_FALSE(load.IsSet("n_threads"));
  EXPECT_EQ(load.GetInt("target"), 3);
}

TEST_F(OptionSetTest, IntGoodValues) {
  EXPECT_EQ(SetError("n_threads", "1000"), "");
  EXPECT_EQ(options_.GetInt("n_threads"), 1000);
  EXPECT_EQ(SetError("pct_newcustomers", "0"), "");
  EXPECT_EQ(options_.GetInt("pct_newcustomers"), 0);
  EXPECT_EQ(SetError("n_line_items", "007"), "");
  EXPECT_EQ(options_.GetInt("n_line_items"), 7);
}

TEST_F(OptionSetTest, IntBadValues) {
  EXPECT_EQ(SetError("n_threads", "abc"),
            "option n_threads: 'abc' is not a whole non-negative number (command line)");
  EXPECT_EQ(SetError("n_threads", "-3", "DriverConfig.txt:7"),
            "option n_threads: '-3' is not a whole non-negative number (DriverConfig.txt:7)");
  EXPECT_EQ(SetError("n_threads", "2.5"),
            "option n_threads: '2.5' is not a whole non-negative number (command line)");
  EXPECT_EQ(SetError("n_threads", ""),
            "option n_threads: '' is not a whole non-negative number (command line)");
  EXPECT_EQ(SetError("n_threads", "0"),
            "option n_threads: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(SetError("n_threads", "1001"),
            "option n_threads: '1001' is above the maximum of 1000 (command line)");
  EXPECT_EQ(SetError("pct_newcustomers", "101"),
            "option pct_newcustomers: '101' is above the maximum of 100 (command line)");
  EXPECT_EQ(SetError("ramp_rate", "99999999999999999999999"),
            "option ramp_rate: '99999999999999999999999' is too large (command line)");
  // A failed Set leaves the option as it was.
  EXPECT_EQ(options_.GetInt("n_threads"), 1);
  EXPECT_FALSE(options_.IsSet("n_threads"));
}

// One rule for every number: exactly the digits, no blank, no sign (DriverConfig files trim
// their lines before values reach the option).
TEST_F(OptionSetTest, NumbersHaveNoSurroundingBlanksOrSigns) {
  for (const char* bad : {" 4", "4 ", "\t4", "+4", "4\n"}) {
    EXPECT_NE(SetError("n_searches", bad), "") << "'" << bad << "'";
    EXPECT_NE(SetError("think_time", bad), "") << "'" << bad << "'";
    EXPECT_NE(SetError("run_time", bad), "") << "'" << bad << "'";
  }
  for (const char* bad : {"0x10", "1e", ".", "-", "nan", "1,5", " 0.5"}) {
    EXPECT_NE(SetError("think_time", bad), "") << "'" << bad << "'";
  }
  EXPECT_EQ(SetError("think_time", "1e-3"), "");
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 0.001);
  EXPECT_EQ(SetError("think_time", ".5"), "");
  EXPECT_EQ(
      SetError("detailed_view", " Y"),
      "option detailed_view: ' Y' is not Y or N (yes/no, true/false, on/off and 1/0 also work) "
      "(command line)");
  EXPECT_EQ(options_.GetInt("n_searches"), 3);
}

TEST(OptionLimitsTest, DoublesAndDurationsHaveLimits) {
  OptionSet o;
  OptionSpec think = testing::Spec("think_time", OptionType::kDouble, "0");
  think.max_double = 3600;
  o.Add(think);
  OptionSpec slope = testing::Spec("steady_slope", OptionType::kDouble, "10");
  o.Add(slope);  // the default minimum of a double is 0
  OptionSpec rate = testing::Spec("rate", OptionType::kDouble, "0");
  rate.min_double = 0.001;
  rate.max_double = 1e8;
  rate.zero_is_off = true;
  o.Add(rate);
  OptionSpec run = testing::Spec("run_time", OptionType::kDuration, "0");
  run.max = 24 * 3600 * kSecond;
  o.Add(run);
  OptionSpec lat = testing::Spec("latency_limit", OptionType::kDuration, "0");
  lat.min = 1000;  // 1 us
  lat.zero_is_off = true;
  o.Add(lat);
  auto error = [&o](const char* name, const char* value) {
    return o.Set(name, value, "command line").message();
  };
  EXPECT_EQ(error("think_time", "1e308"),
            "option think_time: '1e308' is above the maximum of 3600 (command line)");
  EXPECT_EQ(error("steady_slope", "-1"),
            "option steady_slope: '-1' is below the minimum of 0 (command line)");
  EXPECT_EQ(error("rate", "1e-300"),
            "option rate: '1e-300' is below the minimum of 0.001 (0 = off) (command line)");
  EXPECT_EQ(error("rate", "0"), "");
  EXPECT_EQ(error("rate", "500"), "");
  EXPECT_EQ(error("rate", "1e9"),
            "option rate: '1e9' is above the maximum of 1e+08 (command line)");
  EXPECT_EQ(error("run_time", "25h"),
            "option run_time: '25h' is above the maximum of 24h (command line)");
  EXPECT_EQ(error("run_time", "24h"), "");
  EXPECT_EQ(error("latency_limit", "0"), "");
  EXPECT_EQ(error("latency_limit", "10ns"),
            "option latency_limit: '10ns' is below the minimum of 1us (0 = off) (command line)");
  EXPECT_DOUBLE_EQ(o.GetDouble("rate"), 500);
  EXPECT_EQ(o.GetDurationNanos("run_time"), 24 * 3600 * kSecond);
}

TEST(OptionLimitsTest, IntsNeverWrap) {
  OptionSet o;
  OptionSpec workers = testing::Spec("workers", OptionType::kInt, "1");
  workers.min = 1;
  workers.max = 1024;
  o.Add(workers);
  // 2^32 + 1 would be 1 as a 32-bit int.
  EXPECT_EQ(o.Set("workers", "4294967297", "command line").message(),
            "option workers: '4294967297' is above the maximum of 1024 (command line)");
  EXPECT_EQ(o.GetInt("workers"), 1);
}

TEST_F(OptionSetTest, LongValuesAreQuotedShortInErrors) {
  const std::string huge(100000, '7');
  const std::string message = SetError("n_threads", huge);
  EXPECT_LT(message.size(), 200u) << message;
  EXPECT_NE(message.find("... (100000 bytes)"), std::string::npos) << message;
  const std::string unknown = options_.Set(std::string(5000, 'x'), "1", "command line").message();
  EXPECT_LT(unknown.size(), 300u) << unknown;
}

TEST_F(OptionSetTest, DoubleValues) {
  EXPECT_EQ(SetError("think_time", "0.5"), "");
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 0.5);
  EXPECT_EQ(SetError("think_time", "2"), "");
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 2.0);
  EXPECT_EQ(SetError("think_time", "fast"),
            "option think_time: 'fast' is not a number (command line)");
  EXPECT_EQ(SetError("think_time", "1.5s"),
            "option think_time: '1.5s' is not a number (command line)");
  EXPECT_EQ(SetError("think_time", ""), "option think_time: '' is not a number (command line)");
  EXPECT_EQ(SetError("think_time", "inf"),
            "option think_time: 'inf' is not a number (command line)");
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 2.0);
}

TEST_F(OptionSetTest, BoolValues) {
  for (const char* yes : {"Y", "y", "yes", "YES", "true", "True", "1"}) {
    ASSERT_TRUE(options_.Set("detailed_view", "N", "x").ok());
    EXPECT_EQ(SetError("detailed_view", yes), "") << yes;
    EXPECT_TRUE(options_.GetBool("detailed_view")) << yes;
  }
  for (const char* no : {"N", "n", "no", "No", "false", "FALSE", "0"}) {
    ASSERT_TRUE(options_.Set("detailed_view", "Y", "x").ok());
    EXPECT_EQ(SetError("detailed_view", no), "") << no;
    EXPECT_FALSE(options_.GetBool("detailed_view")) << no;
  }
  EXPECT_EQ(
      SetError("detailed_view", "maybe", "DriverConfig.txt:16"),
      "option detailed_view: 'maybe' is not Y or N (yes/no, true/false, on/off and 1/0 also work) "
      "(DriverConfig.txt:16)");
  EXPECT_NE(SetError("detailed_view", ""), "");
  EXPECT_NE(SetError("detailed_view", "2"), "");
}

TEST_F(OptionSetTest, StringValuesAreKeptVerbatim) {
  EXPECT_EQ(SetError("target", "db1.example.com"), "");
  EXPECT_EQ(options_.GetString("target"), "db1.example.com");
  EXPECT_EQ(SetError("virt_dir", " with spaces "), "");
  EXPECT_EQ(options_.GetString("virt_dir"), " with spaces ");
  EXPECT_EQ(SetError("target", ""), "");
  EXPECT_EQ(options_.GetString("target"), "");
  EXPECT_EQ(SetError("windows_perf_host", "a=b"), "");
  EXPECT_EQ(options_.GetString("windows_perf_host"), "a=b");
}

TEST(OptionSetRepeatableTest, LaterSettingsAppend) {
  OptionSet o;
  OptionSpec s;
  s.name = "target";
  s.repeatable = true;
  o.Add(s);
  ASSERT_TRUE(o.Set("target", "/a", "command line").ok());
  ASSERT_TRUE(o.Set("target", "/b,/c", "command line").ok());
  EXPECT_EQ(o.GetString("target"), "/a,/b,/c");
}

TEST_F(OptionSetTest, DurationValues) {
  EXPECT_EQ(SetError("run_time", "90s"), "");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 90 * kSecond);
  EXPECT_EQ(SetError("run_time", "1"), "");  // bare number: minutes for run_time
  EXPECT_EQ(options_.GetDurationNanos("run_time"), kMinute);
  EXPECT_EQ(SetError("run_time", "2m"), "");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 2 * kMinute);
  EXPECT_EQ(SetError("run_time", "1h30m"), "");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 90 * kMinute);
  EXPECT_EQ(SetError("run_time", "500ms"), "");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 500LL * 1000 * 1000);
  EXPECT_EQ(SetError("run_time", "0"), "");
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 0);

  EXPECT_EQ(SetError("run_time", "soon"),
            "option run_time: 'soon' is not a duration like 90s, 2m or 1h30m, or a bare number "
            "of minutes (command line)");
  EXPECT_NE(SetError("run_time", "-1"), "");
  EXPECT_NE(SetError("run_time", "5x"), "");
  EXPECT_NE(SetError("run_time", "1h30"), "");
  EXPECT_NE(SetError("run_time", ""), "");
  EXPECT_NE(SetError("run_time", "s"), "");
  EXPECT_NE(SetError("run_time", "99999999999h"), "");  // overflows int64 nanoseconds
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 0);
}

TEST_F(OptionSetTest, DurationBareUnitIsPerOption) {
  OptionSet options;
  OptionSpec timeout = Spec("timeout", OptionType::kDuration, "30");  // default unit: seconds
  options.Add(timeout);
  EXPECT_EQ(options.GetDurationNanos("timeout"), 30 * kSecond);
  ASSERT_TRUE(options.Set("timeout", "2", "x").ok());
  EXPECT_EQ(options.GetDurationNanos("timeout"), 2 * kSecond);
  Status s = options.Set("timeout", "x", "x");
  EXPECT_NE(s.message().find("bare number of seconds"), std::string::npos) << s.message();
}

TEST_F(OptionSetTest, EnumValuesMatchCaseInsensitively) {
  EXPECT_EQ(SetError("page_type", "JSP"), "");
  EXPECT_EQ(options_.GetString("page_type"), "jsp");
  EXPECT_EQ(SetError("page_type", "Aspx"), "");
  EXPECT_EQ(options_.GetString("page_type"), "aspx");
  EXPECT_EQ(SetError("page_type", "asp"),
            "option page_type: 'asp' is not php, jsp or aspx (command line)");
  EXPECT_NE(SetError("page_type", ""), "");
  EXPECT_EQ(options_.GetString("page_type"), "aspx");
}

TEST_F(OptionSetTest, DbSizeGoodValues) {
  const std::pair<const char*, const char*> cases[] = {
      {"S", "S"},        {"s", "S"},           {"m", "M"},       {"L", "L"},
      {"20GB", "20GB"},  {"20gb", "20GB"},     {"10mb", "10MB"}, {"10Mb", "10MB"},
      {"1MB", "1MB"},    {"1023MB", "1023MB"}, {"1GB", "1GB"},   {"4095GB", "4095GB"},
      {"010GB", "10GB"},
  };
  for (const auto& [in, want] : cases) {
    EXPECT_EQ(SetError("db_size", in), "") << in;
    EXPECT_EQ(options_.GetString("db_size"), want) << in;
  }
}

TEST_F(OptionSetTest, DbSizeBadValues) {
  EXPECT_EQ(SetError("db_size", "1.5GB"),
            "option db_size: '1.5GB' is not S, M, L or a whole number followed by MB or GB "
            "(command line)");
  EXPECT_EQ(SetError("db_size", "10TB"),
            "option db_size: '10TB' is not S, M, L or a whole number followed by MB or GB "
            "(command line)");
  EXPECT_EQ(SetError("db_size", ""),
            "option db_size: '' is not S, M, L or a whole number followed by MB or GB "
            "(command line)");
  EXPECT_EQ(SetError("db_size", "0MB", "DriverConfig.txt:5"),
            "option db_size: '0MB' is out of range: MB sizes must be 1 to 1023 (use GB for "
            "larger sizes) (DriverConfig.txt:5)");
  EXPECT_EQ(SetError("db_size", "1024MB"),
            "option db_size: '1024MB' is out of range: MB sizes must be 1 to 1023 (use GB for "
            "larger sizes) (command line)");
  EXPECT_EQ(SetError("db_size", "4096GB"),
            "option db_size: '4096GB' is out of range: GB sizes must be 1 to 4095 (command line)");
  for (const char* bad : {"0GB", "GB", "MB", "XL", "10", "10 GB", "-1GB", "+1GB", "10G", "10KB",
                          "GB10", "99999999999999999999999GB"}) {
    EXPECT_NE(SetError("db_size", bad), "") << bad;
  }
  EXPECT_EQ(options_.GetString("db_size"), "10MB");
  EXPECT_FALSE(options_.IsSet("db_size"));
}

TEST_F(OptionSetTest, UnknownOptionSuggestsClosestName) {
  options_.set_help_command("storebench oltp run --help");
  EXPECT_EQ(SetError("n_thread", "4"),
            "unknown option 'n_thread' (command line); did you mean 'n_threads'? see storebench "
            "oltp run --help");
  EXPECT_EQ(SetError("n-thraeds", "4"),
            "unknown option 'n-thraeds' (command line); did you mean 'n_threads'? see storebench "
            "oltp run --help");
  EXPECT_EQ(SetError("thread", "4", "DriverConfig.txt:3"),
            "unknown option 'thread' (DriverConfig.txt:3); did you mean 'threads'? see "
            "storebench oltp run --help");
  EXPECT_EQ(SetError("completely_unrelated", "4"),
            "unknown option 'completely_unrelated' (command line); see storebench oltp run --help");
}

TEST_F(OptionSetTest, UnknownOptionDefaultHelpCommand) {
  EXPECT_EQ(SetError("xyzzy", "1"), "unknown option 'xyzzy' (command line); see --help");
}

TEST_F(OptionSetTest, SecretValuesAreNotEchoedInErrors) {
  OptionSet options;
  OptionSpec pin = Spec("pin", OptionType::kInt, "0");
  pin.secret = true;
  options.Add(pin);
  Status s = options.Set("pin", "hunter2", "command line");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().find("hunter2"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("<redacted>"), std::string::npos) << s.message();
}

TEST_F(OptionSetTest, ToJsonTypesValuesAndRedactsSecrets) {
  ASSERT_TRUE(options_.Set("n_threads", "8", "x").ok());
  ASSERT_TRUE(options_.Set("run_time", "90s", "x").ok());
  ASSERT_TRUE(options_.Set("think_time", "0.25", "x").ok());
  ASSERT_TRUE(options_.Set("detailed_view", "Y", "x").ok());
  ASSERT_TRUE(options_.Set("db_size", "20gb", "x").ok());
  ASSERT_TRUE(options_.Set("password", "s3cret", "x").ok());
  const std::string text = options_.ToJson();
  EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
  const nlohmann::json j = nlohmann::json::parse(text);
  ASSERT_TRUE(j.is_object());
  EXPECT_TRUE(j["n_threads"].is_number_integer());
  EXPECT_EQ(j["n_threads"], 8);
  EXPECT_TRUE(j["run_time"].is_number());
  EXPECT_DOUBLE_EQ(j["run_time"].get<double>(), 90.0);
  EXPECT_DOUBLE_EQ(j["warmup_time"].get<double>(), 60.0);  // default "1" minute
  EXPECT_DOUBLE_EQ(j["think_time"].get<double>(), 0.25);
  EXPECT_TRUE(j["detailed_view"].is_boolean());
  EXPECT_EQ(j["detailed_view"], true);
  EXPECT_EQ(j["db_size"], "20GB");
  EXPECT_EQ(j["page_type"], "php");
  EXPECT_EQ(j["windows_perf_host"], "");
  EXPECT_EQ(j["db_password"], "<redacted>");
  EXPECT_EQ(j.size(), 17u);
  // Declaration order.
  EXPECT_LT(text.find("\"target\""), text.find("\"n_threads\""));
  EXPECT_LT(text.find("\"n_threads\""), text.find("\"detailed_view\""));
}

TEST_F(OptionSetTest, EchoLineInDeclarationOrder) {
  OptionSet options;
  options.Add(Spec("target", OptionType::kString, "localhost"));
  OptionSpec n_threads = Spec("n_threads", OptionType::kInt, "1");
  n_threads.aliases = {"threads"};
  options.Add(n_threads);
  OptionSpec run_time = Spec("run_time", OptionType::kDuration, "1");
  run_time.bare_unit_nanos = kMinute;
  options.Add(run_time);
  options.Add(Spec("db_size", OptionType::kDbSize, "s"));
  options.Add(Spec("detailed_view", OptionType::kBool, "no"));
  OptionSpec password = Spec("password", OptionType::kString, "");
  password.secret = true;
  options.Add(password);
  ASSERT_TRUE(options.Set("threads", "4", "x").ok());
  ASSERT_TRUE(options.Set("password", "pw", "x").ok());
  EXPECT_EQ(options.EchoLine(),
            "target=localhost n_threads=4 run_time=1m db_size=S detailed_view=N "
            "password=<redacted>");
}

TEST_F(OptionSetTest, HelpTextGroupsOptions) {
  const std::string help = options_.HelpText();
  EXPECT_NE(help.find("driver options:\n"), std::string::npos) << help;
  EXPECT_NE(help.find("dvdstore options:\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --n_threads, --threads  (default 1)  help for n_threads\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("  --db_size  (default 10MB)  help for db_size\n"), std::string::npos)
      << help;
  EXPECT_NE(help.find("  --run_time, --duration  (default 0s)  help for run_time\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("  --page_type  (default php)  help for page_type (php, jsp or aspx)\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("  --windows_perf_host  (no default)"), std::string::npos) << help;
  EXPECT_NE(help.find("--config_file, --config-file"), std::string::npos) << help;
  // Options of one group are listed together under their heading.
  const size_t driver = help.find("driver options:");
  const size_t dvdstore = help.find("dvdstore options:");
  const size_t threads = help.find("--n_threads");
  const size_t detailed = help.find("--detailed_view");
  const size_t target = help.find("--target");
  EXPECT_LT(dvdstore, target);
  EXPECT_LT(driver, threads);
  EXPECT_LT(driver, detailed);
  EXPECT_TRUE((threads < dvdstore) == (detailed < dvdstore));
}

TEST(OptionHelpTest, HelpLinesAreWrappedAt100Columns) {
  OptionSet options;
  std::string long_help;
  for (int i = 0; i < 40; ++i) long_help += "word" + std::to_string(i) + " ";
  long_help += "end";
  OptionSpec spec = testing::Spec("long_option", OptionType::kString, "x");
  spec.help = long_help;
  options.Add(spec);
  const std::string help = options.HelpText();
  size_t start = 0, lines = 0;
  for (size_t end; (end = help.find('\n', start)) != std::string::npos; start = end + 1, ++lines) {
    EXPECT_LE(end - start, 100u) << help.substr(start, end - start);
  }
  EXPECT_GT(lines, 3u) << help;
  // The option starts its line; its help goes on below it, indented, every word kept in order.
  EXPECT_NE(help.find("\n  --long_option  (default x)  word0 word1"), std::string::npos) << help;
  EXPECT_NE(help.find("\n      word"), std::string::npos) << help;
  EXPECT_NE(help.find(" end\n"), std::string::npos) << help;
}

TEST_F(OptionSetTest, HelpTextRedactsSecretDefaults) {
  OptionSet options;
  OptionSpec password = Spec("password", OptionType::kString, "tiger");
  password.secret = true;
  options.Add(password);
  const std::string help = options.HelpText();
  EXPECT_EQ(help.find("tiger"), std::string::npos) << help;
}

using OptionSetDeathTest = OptionSetTest;

TEST_F(OptionSetDeathTest, ProgrammingErrorsAbort) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(options_.Add(Spec("n_threads", OptionType::kInt, "1")), "declared twice");
  EXPECT_DEATH(options_.Add(Spec("n-threads", OptionType::kInt, "1")), "declared twice");
  EXPECT_DEATH(options_.Add(Spec("threads", OptionType::kInt, "1")), "declared twice");
  EXPECT_DEATH(options_.Add(Spec("new_int", OptionType::kInt, "x")), "default 'x'");
  EXPECT_DEATH(options_.Add(Spec("new_size", OptionType::kDbSize, "1.5GB")), "default '1.5GB'");
  EXPECT_DEATH(options_.Add(Spec("new_enum", OptionType::kEnum, "a")), "without choices");
  EXPECT_DEATH((void)options_.GetInt("target"), "declared as string, not int");
  EXPECT_DEATH((void)options_.GetString("n_threads"), "declared as int, not string");
  EXPECT_DEATH((void)options_.GetInt("no_such_option"), "not declared");
  EXPECT_DEATH((void)options_.IsSet("no_such_option"), "not declared");
}

}  // namespace
}  // namespace sb::config
