// Each instance's --op_log file: placeholders, the name before the extension, and two
// instances that would share a file refused.
#include "session/op_log_paths.h"

#include <gtest/gtest.h>

namespace sb::session {
namespace {

TEST(InstanceOpLogPathTest, OneInstanceKeepsThePath) {
  EXPECT_EQ(InstanceOpLogPath("/tmp/ops.log", "1", 1, /*several=*/false), "/tmp/ops.log");
  EXPECT_EQ(InstanceOpLogPath("", "ds3_2", 2, /*several=*/true), "");
}

TEST(InstanceOpLogPathTest, SeveralGetTheirNameBeforeTheExtension) {
  EXPECT_EQ(InstanceOpLogPath("/tmp/ops.log", "ds3_2", 2, true), "/tmp/ops.ds3_2.log");
  EXPECT_EQ(InstanceOpLogPath("ops", "3", 3, true), "ops.3");
  // Only the file name's extension: the folder's dot is not one.
  EXPECT_EQ(InstanceOpLogPath("/tmp/x.d/ops", "a_1", 1, true), "/tmp/x.d/ops.a_1");
}

TEST(InstanceOpLogPathTest, PlaceholdersAreReplacedEvenForOneInstance) {
  EXPECT_EQ(InstanceOpLogPath("/tmp/{instance}/ops-{i}.txt", "ds3_2", 5, true),
            "/tmp/ds3_2/ops-5.txt");
  EXPECT_EQ(InstanceOpLogPath("ops-{i}.log", "1", 1, false), "ops-1.log");
}

TEST(WithBeforeExtensionTest, KeepsPlaceholdersForTheInstances) {
  EXPECT_EQ(WithBeforeExtension("logs/{instance}.ops", "n2-run1"), "logs/{instance}.n2-run1.ops");
  EXPECT_EQ(WithBeforeExtension("ops", "n1-run3"), "ops.n1-run3");
}

TEST(InstanceOpLogPathsTest, EveryInstanceItsOwnFile) {
  auto paths = InstanceOpLogPaths({{"1", "ops.log"}, {"2", "ops.log"}, {"3", ""}});
  ASSERT_TRUE(paths.ok()) << paths.status().message();
  EXPECT_EQ(*paths, (std::vector<std::string>{"ops.1.log", "ops.2.log", ""}));
}

TEST(InstanceOpLogPathsTest, TwoInstancesOnOneFileAreRefused) {
  // "a_{i}.log" for the first instance and "{instance}.log" for the second, named a_1.
  auto paths = InstanceOpLogPaths({{"x_1", "/tmp/a_{i}.log"}, {"a_1", "/tmp/{instance}.log"}});
  ASSERT_FALSE(paths.ok());
  EXPECT_EQ(paths.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(paths.status().message().find("instances x_1 and a_1 would both write /tmp/a_1.log"),
            std::string::npos)
      << paths.status().message();
}

TEST(InstanceOpLogPathsTest, OneFileSpelledTwoWaysIsRefused) {
  // Both /tmp/ops-1-2.log.
  auto paths =
      InstanceOpLogPaths({{"g_1", "/tmp/sub/../ops-{i}-2.log"}, {"h_1", "/tmp/./ops-1-{i}.log"}});
  EXPECT_FALSE(paths.ok());
}

}  // namespace
}  // namespace sb::session
