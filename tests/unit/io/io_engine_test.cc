// Every engine against a real file in the build tree: writes blocks carrying their own offset,
// reads them back, and checks every completion (tag, byte count) and every byte.
#include "storebench/io_engine.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backend/io/aligned_buffer.h"
#include "backend/io/io_uring/io_uring_engine.h"
#include "backend/io/libaio/libaio_engine.h"
#include "backend/io/null/null_engine.h"
#include "backend/io/sync/psync_engine.h"

namespace sb::io {
namespace {

constexpr uint32_t kBlock = 4096;
constexpr int kBlocks = 512;  // 2 MiB file
constexpr int kDepth = 8;

EngineRegistry Registry() {
  EngineRegistry r;
  r.Register("psync", CreatePsyncEngine);
  r.Register("libaio", CreateLibaioEngine);
  r.Register("io_uring", CreateIoUringEngine);
  r.Register("null", CreateNullEngine);
  return r;
}

std::string MakeFile(const std::string& name) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::ftruncate(fd, static_cast<off_t>(kBlock) * kBlocks), 0);
  ::close(fd);
  return path;
}

// Opens with O_DIRECT when the build tree's file system supports it, else buffered.
int OpenForTest(IoEngine& e, const std::string& path, bool* direct) {
  auto h = e.Open(path, {.direct = true, .write = true});
  *direct = h.ok();
  if (!h.ok()) {
    EXPECT_EQ(h.status().code(), StatusCode::kFailedPrecondition) << h.status().message();
    std::fprintf(stderr, "note: %s; testing buffered I/O instead\n", h.status().message().c_str());
    h = e.Open(path, {.direct = false, .write = true});
  }
  EXPECT_TRUE(h.ok());
  return h.ok() ? *h : -1;
}

// Runs all requests through the engine at depth kDepth; returns completions by tag.
std::map<uint64_t, int64_t> RunAll(IoEngine& e, const std::vector<IoRequest>& reqs) {
  std::map<uint64_t, int64_t> done;
  size_t next = 0;
  int in_flight = 0;
  std::vector<IoCompletion> comps(kDepth);
  while (next < reqs.size() || in_flight > 0) {
    const int room = std::min<int>(kDepth - in_flight, static_cast<int>(reqs.size() - next));
    if (room > 0) {
      auto n = e.Submit(&reqs[next], room);
      EXPECT_TRUE(n.ok());
      if (!n.ok()) break;
      next += *n;
      in_flight += *n;
    }
    auto got = e.Reap(comps.data(), 1, kDepth);
    EXPECT_TRUE(got.ok());
    if (!got.ok()) break;
    for (int i = 0; i < *got; ++i) {
      EXPECT_EQ(done.count(comps[i].tag), 0u) << "tag completed twice";
      done[comps[i].tag] = comps[i].result;
    }
    in_flight -= *got;
  }
  return done;
}

class EngineTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EngineTest, WritesThenReadsBackEveryBlock) {
  const std::string name = GetParam();
  auto engine = Registry().Create(name, {.queue_depth = kDepth});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  const std::string path = MakeFile("engine_" + name + ".tst");
  bool direct = false;
  const int file = OpenForTest(**engine, path, &direct);
  ASSERT_GE(file, 0);

  AlignedBuffer wbuf(static_cast<size_t>(kBlock) * kBlocks), rbuf(wbuf.size());
  std::vector<IoRequest> writes, reads;
  // Blocks in a scrambled order, so completions come back in no particular order.
  for (int i = 0; i < kBlocks; ++i) {
    const int b = (i * 97) % kBlocks;
    const uint64_t off = static_cast<uint64_t>(b) * kBlock;
    for (uint32_t k = 0; k < kBlock; k += 8) std::memcpy(wbuf.data() + off + k, &off, 8);
    writes.push_back({IoOp::kWrite, file, off, kBlock, wbuf.data() + off, off + 1});
    reads.push_back({IoOp::kRead, file, off, kBlock, rbuf.data() + off, off + 1});
  }
  for (const auto* batch : {&writes, &reads}) {
    auto done = RunAll(**engine, *batch);
    ASSERT_EQ(done.size(), static_cast<size_t>(kBlocks));
    for (const auto& [tag, res] : done) EXPECT_EQ(res, kBlock) << "tag " << tag;
  }
  (*engine)->Close();
  if (name == "null") {
    // The null engine never touches the file: the read buffer stays zero.
    EXPECT_EQ(rbuf.data()[kBlock + 1], 0);
    EXPECT_EQ(std::filesystem::file_size(path), static_cast<uint64_t>(kBlock) * kBlocks);
  } else {
    EXPECT_EQ(std::memcmp(wbuf.data(), rbuf.data(), wbuf.size()), 0) << "direct=" << direct;
  }
  std::filesystem::remove(path);
}

TEST_P(EngineTest, ReportsErrorsAsNegativeErrno) {
  const std::string name = GetParam();
  if (name == "null") GTEST_SKIP() << "the null engine does no I/O";
  auto engine = Registry().Create(name, {.queue_depth = 2});
  ASSERT_TRUE(engine.ok());
  const std::string path = MakeFile("engine_err_" + name + ".tst");
  // A write through a read-only descriptor fails with EBADF, in every engine.
  auto h = (*engine)->Open(path, {.direct = false, .write = false});
  ASSERT_TRUE(h.ok());
  AlignedBuffer buf(kBlock);
  std::vector<IoRequest> reqs = {{IoOp::kWrite, *h, 0, kBlock, buf.data(), 7}};
  auto done = RunAll(**engine, reqs);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[7], -EBADF);
  (*engine)->Close();
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineTest,
                         ::testing::Values("psync", "libaio", "io_uring", "null"));

TEST(EngineRegistryTest, UnknownEngineListsKnownOnes) {
  auto e = Registry().Create("spdk", {});
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("io_uring"), std::string::npos);
}

}  // namespace
}  // namespace sb::io
