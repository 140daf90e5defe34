// Test helpers: the DVD Store driver options as the driver and workload would declare them, and
// scratch files under STOREBENCH_TEST_TMP.
#ifndef STOREBENCH_TESTS_UNIT_CONFIG_DVDSTORE_OPTIONS_H_
#define STOREBENCH_TESTS_UNIT_CONFIG_DVDSTORE_OPTIONS_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "config/options.h"

namespace sb::config::testing {

constexpr int64_t kMinute = 60LL * 1000 * 1000 * 1000;
constexpr int64_t kSecond = 1000LL * 1000 * 1000;

inline OptionSpec Spec(std::string name, OptionType type, std::string default_value,
                       std::string group = "dvdstore") {
  OptionSpec s;
  s.name = std::move(name);
  s.type = type;
  s.default_value = std::move(default_value);
  s.group = std::move(group);
  s.help = "help for " + s.name;
  return s;
}

// The options of DVD Store's DriverConfig.txt plus a secret.
inline void DeclareDvdStoreOptions(OptionSet* options) {
  options->Add(Spec("target", OptionType::kString, "localhost"));
  OptionSpec n_threads = Spec("n_threads", OptionType::kInt, "1", "driver");
  n_threads.aliases = {"threads"};
  n_threads.min = 1;
  n_threads.max = 1000;
  options->Add(n_threads);
  OptionSpec ramp_rate = Spec("ramp_rate", OptionType::kInt, "10", "driver");
  ramp_rate.min = 1;
  options->Add(ramp_rate);
  OptionSpec run_time = Spec("run_time", OptionType::kDuration, "0", "driver");
  run_time.aliases = {"duration"};
  run_time.bare_unit_nanos = kMinute;
  options->Add(run_time);
  options->Add(Spec("db_size", OptionType::kDbSize, "10MB"));
  OptionSpec warmup = Spec("warmup_time", OptionType::kDuration, "1", "driver");
  warmup.aliases = {"warmup"};
  warmup.bare_unit_nanos = kMinute;
  options->Add(warmup);
  options->Add(Spec("think_time", OptionType::kDouble, "0"));
  OptionSpec pct = Spec("pct_newcustomers", OptionType::kInt, "20");
  pct.max = 100;
  options->Add(pct);
  options->Add(Spec("n_searches", OptionType::kInt, "3"));
  options->Add(Spec("search_batch_size", OptionType::kInt, "5"));
  options->Add(Spec("n_line_items", OptionType::kInt, "5"));
  options->Add(Spec("virt_dir", OptionType::kString, "ds3"));
  OptionSpec page_type = Spec("page_type", OptionType::kEnum, "php");
  page_type.choices = {"php", "jsp", "aspx"};
  options->Add(page_type);
  options->Add(Spec("windows_perf_host", OptionType::kString, ""));
  options->Add(Spec("linux_perf_host", OptionType::kString, ""));
  options->Add(Spec("detailed_view", OptionType::kBool, "N", "driver"));
  OptionSpec password = Spec("db_password", OptionType::kString, "", "backend");
  password.aliases = {"password"};
  password.secret = true;
  options->Add(password);
}

// A fresh path under STOREBENCH_TEST_TMP for the current test.
inline std::string ScratchPath(const std::string& suffix) {
  std::filesystem::path dir(STOREBENCH_TEST_TMP);
  std::filesystem::create_directories(dir);
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name =
      std::string("config_") + info->test_suite_name() + "_" + info->name() + "_" + suffix;
  return (dir / name).string();
}

// Writes `contents` byte for byte (so "\r\n" stays CRLF) and returns the path.
inline std::string WriteScratchFile(const std::string& suffix, const std::string& contents) {
  const std::string path = ScratchPath(suffix);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  EXPECT_TRUE(out) << "cannot write " << path;
  return path;
}

}  // namespace sb::config::testing

#endif  // STOREBENCH_TESTS_UNIT_CONFIG_DVDSTORE_OPTIONS_H_
