// io read's and io copy's result documents from constructed passes: figures in order and the
// choices' words.
#include "session/file_op_result.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace sb::session {
namespace {

void ExpectFigures(const metrics::RunResult& r,
                   const std::vector<std::pair<std::string, double>>& want) {
  ASSERT_EQ(r.figures.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.figures[i].first, want[i].first);
    EXPECT_DOUBLE_EQ(r.figures[i].second, want[i].second) << want[i].first;
  }
}

TEST(FileOpResult, ReadFiguresAndChoices) {
  ReadFacts f;
  f.pass = {2.0, 4194304, 1048576, "t.dat: cached pages dropped"};
  f.path = "/tmp";
  f.how = "O_DIRECT";
  f.extents = 7;
  const metrics::RunResult r = ReadResult(f);
  EXPECT_EQ(r.workload, "file_read");
  ExpectFigures(r, {{"seconds", 2},
                    {"bytes", 4194304},
                    {"mib_per_sec", 2},
                    {"mb_per_sec", 2.097152},
                    {"extents", 7}});
  EXPECT_EQ(r.headline_name, "mib_per_sec");
  EXPECT_DOUBLE_EQ(r.headline_value, 2);
  EXPECT_DOUBLE_EQ(FileOpMbPerSec(r), 2.097152);
  EXPECT_DOUBLE_EQ(r.measured_sec, 2);
  EXPECT_EQ(r.loop_model, "one sequential pass, one thread, one I/O at a time");
  EXPECT_EQ(r.choices.at("file_op.file"), "/tmp");
  EXPECT_EQ(r.choices.at("file_op.method"), "O_DIRECT, 1.0 MiB reads, sequential");
  EXPECT_EQ(r.choices.at("file_op.cache"), "t.dat: cached pages dropped");
  EXPECT_EQ(r.choices.size(), 3u);
  EXPECT_FALSE(r.started_at.empty());
  EXPECT_EQ(r.started_at, r.ended_at);
}

TEST(FileOpResult, CopyFiguresAndChoices) {
  CopyFacts f;
  f.pass = {0.5, 1000000, 65536, "no cache dropped"};
  f.src = "/tmp/a";
  f.dst = "/tmp/b";
  f.how_in = "O_DIRECT";
  f.how_out = "buffered";
  f.src_extents = 65;
  f.dst_extents = -1;
  const metrics::RunResult r = CopyResult(f);
  EXPECT_EQ(r.workload, "file_copy");
  ExpectFigures(r, {{"seconds", 0.5},
                    {"bytes", 1000000},
                    {"mib_per_sec", 2000000 / 1048576.0},
                    {"mb_per_sec", 2},
                    {"src_extents", 65},
                    {"dst_extents", -1}});
  EXPECT_EQ(r.choices.at("file_op.file"), "/tmp/a -> /tmp/b");
  EXPECT_EQ(r.choices.at("file_op.method"),
            "read O_DIRECT, write buffered, 64.0 KiB transfers, sequential; the time includes "
            "the fsync of DST");
  EXPECT_EQ(r.choices.at("file_op.cache"), "no cache dropped");
}

TEST(FileOpResult, NoTimeNoRate) {
  const metrics::RunResult r = FileOpResult("file_read", 0, 4096);
  ExpectFigures(r, {{"seconds", 0}, {"bytes", 4096}, {"mib_per_sec", 0}, {"mb_per_sec", 0}});
  EXPECT_DOUBLE_EQ(r.headline_value, 0);
}

}  // namespace
}  // namespace sb::session
