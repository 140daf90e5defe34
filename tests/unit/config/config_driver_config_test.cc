// ParseDriverConfigFile: DVD Store DriverConfig.txt files.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "config/options.h"
#include "unit/config/dvdstore_options.h"

namespace sb::config {
namespace {

using testing::DeclareDvdStoreOptions;
using testing::kMinute;
using testing::kSecond;
using testing::ScratchPath;
using testing::WriteScratchFile;

class DriverConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DeclareDvdStoreOptions(&options_);
    options_.set_help_command("storebench oltp run --help");
  }

  Status ParseText(const std::string& contents, std::string* path_out = nullptr) {
    const std::string path = WriteScratchFile("DriverConfig.txt", contents);
    if (path_out != nullptr) *path_out = path;
    return ParseDriverConfigFile(path, &options_);
  }

  OptionSet options_;
};

// A DriverConfig.txt as shipped with DVD Store 3, saved on Windows (CRLF), with comments.
constexpr char kRealistic[] =
    "# DVD Store 3 driver configuration\r\n"
    "# name=value, one per line\r\n"
    "\r\n"
    "target=dbhost.example.com\r\n"
    "n_threads=16\r\n"
    "ramp_rate=10\r\n"
    "run_time=5\r\n"
    "db_size=20GB\r\n"
    "warmup_time=1\r\n"
    "think_time=0.5\r\n"
    "pct_newcustomers=20\r\n"
    "n_searches=3\r\n"
    "search_batch_size=5\r\n"
    "n_line_items=5\r\n"
    "\r\n"
    "   # web tier settings (unused for direct database drivers)\r\n"
    "virt_dir=ds3\r\n"
    "page_type=php\r\n"
    "windows_perf_host=\r\n"
    "linux_perf_host=\r\n"
    "detailed_view=N\r\n";

TEST_F(DriverConfigTest, RealisticFileWithCommentsAndCrlf) {
  Status s = ParseText(kRealistic);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetString("target"), "dbhost.example.com");
  EXPECT_EQ(options_.GetInt("n_threads"), 16);
  EXPECT_EQ(options_.GetInt("ramp_rate"), 10);
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 5 * kMinute);
  EXPECT_EQ(options_.GetString("db_size"), "20GB");
  EXPECT_EQ(options_.GetDurationNanos("warmup_time"), kMinute);
  EXPECT_DOUBLE_EQ(options_.GetDouble("think_time"), 0.5);
  EXPECT_EQ(options_.GetInt("pct_newcustomers"), 20);
  EXPECT_EQ(options_.GetInt("n_searches"), 3);
  EXPECT_EQ(options_.GetInt("search_batch_size"), 5);
  EXPECT_EQ(options_.GetInt("n_line_items"), 5);
  EXPECT_EQ(options_.GetString("virt_dir"), "ds3");
  EXPECT_EQ(options_.GetString("page_type"), "php");
  EXPECT_EQ(options_.GetString("windows_perf_host"), "");
  EXPECT_EQ(options_.GetString("linux_perf_host"), "");
  EXPECT_FALSE(options_.GetBool("detailed_view"));
  EXPECT_TRUE(options_.IsSet("linux_perf_host"));
  EXPECT_FALSE(options_.IsSet("db_password"));
  EXPECT_EQ(options_.EchoLine(),
            "target=dbhost.example.com n_threads=16 ramp_rate=10 run_time=5m db_size=20GB "
            "warmup_time=1m think_time=0.5 pct_newcustomers=20 n_searches=3 search_batch_size=5 "
            "n_line_items=5 virt_dir=ds3 page_type=php windows_perf_host= linux_perf_host= "
            "detailed_view=N db_password=<redacted>");
}

TEST_F(DriverConfigTest, LfFileWithoutFinalNewline) {
  Status s = ParseText("n_threads=4\ndb_size=10mb");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 4);
  EXPECT_EQ(options_.GetString("db_size"), "10MB");
}

TEST_F(DriverConfigTest, EmptyFileIsOk) {
  ASSERT_TRUE(ParseText("").ok());
  ASSERT_TRUE(ParseText("\r\n\n# nothing\n").ok());
  EXPECT_FALSE(options_.IsSet("n_threads"));
}

TEST_F(DriverConfigTest, WhitespaceIsTrimmed) {
  Status s = ParseText("  n_threads =  4 \t\r\n\ttarget\t=\tdb1  \r\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 4);
  EXPECT_EQ(options_.GetString("target"), "db1");
}

TEST_F(DriverConfigTest, Utf8ByteOrderMarkIsIgnored) {
  Status s = ParseText("\xEF\xBB\xBFn_threads=4\r\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 4);
}

TEST_F(DriverConfigTest, ValueMayContainEquals) {
  Status s = ParseText("virt_dir=a=b=c\ntarget==x\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetString("virt_dir"), "a=b=c");
  EXPECT_EQ(options_.GetString("target"), "=x");
}

TEST_F(DriverConfigTest, KeysAreCaseInsensitiveAndAcceptDashesAndAliases) {
  Status s = ParseText("N_THREADS=3\nDb_Size=s\nsearch-batch-size=9\nThreads=7\nPage_Type=ASPX\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetInt("n_threads"), 7);  // later line wins
  EXPECT_EQ(options_.GetString("db_size"), "S");
  EXPECT_EQ(options_.GetInt("search_batch_size"), 9);
  EXPECT_EQ(options_.GetString("page_type"), "aspx");
}

TEST_F(DriverConfigTest, DurationsInAFile) {
  Status s = ParseText("run_time=90s\nwarmup_time=2m\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetDurationNanos("run_time"), 90 * kSecond);
  EXPECT_EQ(options_.GetDurationNanos("warmup_time"), 2 * kMinute);
  s = ParseText("run_time=1\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetDurationNanos("run_time"), kMinute);
}

TEST_F(DriverConfigTest, LineWithoutEqualsNamesPathAndLine) {
  std::string path;
  Status s = ParseText("# header\r\n\r\ntarget=localhost\r\nn_threads 4\r\nramp_rate=5\r\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "config line 'n_threads 4' is not name=value (" + path + ":4)");
  EXPECT_EQ(options_.GetString("target"), "localhost");  // lines before were applied
  EXPECT_EQ(options_.GetInt("ramp_rate"), 10);           // lines after were not
}

TEST_F(DriverConfigTest, LineWithoutName) {
  std::string path;
  Status s = ParseText("n_threads=2\n=4\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "config line '=4' has no option name before '=' (" + path + ":2)");
}

TEST_F(DriverConfigTest, UnknownKeyNamesPathAndLine) {
  std::string path;
  Status s = ParseText("target=localhost\nn_thread=4\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "unknown option 'n_thread' (" + path +
                             ":2); did you mean 'n_threads'? see storebench oltp run --help");
  s = ParseText("pct_newmember=10\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "unknown option 'pct_newmember' (" + path + ":1); see storebench oltp run --help");
}

TEST_F(DriverConfigTest, BadValuesNamePathAndLine) {
  std::string path;
  Status s = ParseText("db_size=10MB\n\n# bigger\ndb_size=1.5GB\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "option db_size: '1.5GB' is not S, M, L or a whole number followed by "
            "MB or GB (" +
                path + ":4)");
  EXPECT_EQ(options_.GetString("db_size"), "10MB");

  s = ParseText("n_threads=\r\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "option n_threads: '' is not a whole non-negative number (" + path + ":1)");

  s = ParseText("detailed_view=maybe\r\n", &path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("(" + path + ":1)"), std::string::npos) << s.message();
}

TEST_F(DriverConfigTest, LongLineIsRefusedAndQuotedShort) {
  const std::string value(50 << 20, 'a');  // 50 MB on one line
  Status s = ParseText("n_threads=2\ntarget=" + value + "\n");
  ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("is longer than 4096 bytes"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(":2)"), std::string::npos) << s.message();
  EXPECT_LT(s.message().size(), 400u);
  EXPECT_EQ(options_.GetString("target"), "localhost");
}

TEST_F(DriverConfigTest, LargeFileIsRefused) {
  std::string text;
  while (text.size() <= (1u << 20)) text += "# a comment line of a config file that is too large\n";
  Status s = ParseText(text);
  ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("is larger than 1 MiB"), std::string::npos) << s.message();
}

TEST_F(DriverConfigTest, EndlessFileIsRefused) {
  Status s = ParseDriverConfigFile("/dev/zero", &options_);
  ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
  // A device is not read at all (it could be endless): only a regular file is a config file.
  EXPECT_NE(s.message().find("not a regular file"), std::string::npos) << s.message();
  EXPECT_LT(s.message().size(), 400u);
}

TEST_F(DriverConfigTest, BadLinesAreQuotedShort) {
  Status s = ParseText("n_threads=2\n" + std::string(3000, 'z') + "\n");
  ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("is not name=value"), std::string::npos) << s.message();
  EXPECT_LT(s.message().size(), 400u) << s.message();
}

TEST_F(DriverConfigTest, MissingFileIsNotFound) {
  const std::string path = ScratchPath("missing.txt");
  Status s = ParseDriverConfigFile(path, &options_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "config file '" + path + "' cannot be read: No such file or directory");
}

TEST_F(DriverConfigTest, DirectoryCannotBeRead) {
  const std::string dir = ScratchPath("dir");
  std::filesystem::create_directories(dir);
  Status s = ParseDriverConfigFile(dir, &options_);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("config file '" + dir + "' cannot be read"), std::string::npos)
      << s.message();
  // Bad input (exit 2), not a failed run (issue #20).
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("it is a directory, not a regular file"), std::string::npos)
      << s.message();
}

// Issue #20: fopen() on a FIFO without a writer blocked forever; it is refused at once.
TEST_F(DriverConfigTest, FifoIsRefusedWithoutBlocking) {
  const std::string fifo = ScratchPath("config.fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Status s = ParseDriverConfigFile(fifo, &options_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "config file '" + fifo + "' cannot be read: it is a FIFO, not a regular file");
}

TEST_F(DriverConfigTest, SecretsFromAFileAreRedactedInJson) {
  Status s = ParseText("password=tiger\nn_threads=2\n");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(options_.GetString("db_password"), "tiger");
  EXPECT_EQ(options_.ToJson().find("tiger"), std::string::npos);
  EXPECT_EQ(options_.EchoLine().find("tiger"), std::string::npos);
}

}  // namespace
}  // namespace sb::config
