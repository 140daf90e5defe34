// A directory of its own for each test case, on the build tree's disk (not tmpfs: O_DIRECT).
#ifndef STOREBENCH_TESTS_UNIT_FSLOAD_TEST_DIR_H_
#define STOREBENCH_TESTS_UNIT_FSLOAD_TEST_DIR_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace sb::fsload {

class TestDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::string(STOREBENCH_TEST_TMP) + "/fsload-" + info->test_suite_name() + "-" +
           info->name() + "-" + std::to_string(::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

}  // namespace sb::fsload

#endif  // STOREBENCH_TESTS_UNIT_FSLOAD_TEST_DIR_H_
