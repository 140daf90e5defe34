// io fragment's methods and their fallback, and io defrag's handling of the same refusal, on a
// real file in the test directory. EXT4_IOC_MOVE_EXT's refusal is injected through the options'
// MoveExtCall (errno EPERM, EACCES, EOPNOTSUPP), so these cases behave the same on a machine
// whose kernel refuses the ioctl and on one where it works; the ioctl's real outcome is
// tests/integration/test_fragmentation.py's.
#include "backend/fs/fragment.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "backend/fs/defrag.h"
#include "backend/fs/extent_map.h"
#include "backend/fs/move_ext.h"
#include "base/clock.h"

namespace sb::fs {
namespace {

constexpr uint64_t kHeader = 1 << 20;  // as a test file's header
constexpr uint64_t kRegion = 4 << 20;  // the data area: 1,024 blocks of 4 KiB
constexpr int64_t kTarget = 48;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A refusal of the move, as the kernel gives it: -1 with errno set; counts the calls.
MoveExtCall Refuse(int err, int* calls) {
  return [err, calls](int, Ext4MoveExtent*) {
    ++*calls;
    errno = err;
    return -1;
  };
}

class FragmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info->name();  // "AutoFallsBackAndRecordsWhy/EPERM" for a parameter
    for (char& c : name) c = c == '/' ? '_' : c;
    dir_ = std::string(STOREBENCH_TEST_TMP) + "/fragment_test-" + name + "-" +
           std::to_string(::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = dir_ + "/t.tst";
    std::string bytes(kHeader + kRegion, '\0');
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (char& c : bytes) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      c = static_cast<char>(x);
    }
    {
      std::ofstream out(path_, std::ios::binary);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    const int fd = ::open(path_.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ::fsync(fd);
    ::close(fd);
    contents_ = std::move(bytes);
    auto fs = DescribeFileSystem(path_);
    ASSERT_TRUE(fs.ok()) << fs.status().message();
    fs_ = *fs;
    auto measured = MeasureFile(path_, fs_);
    if (!measured.ok() && measured.status().code() == StatusCode::kFailedPrecondition) {
      GTEST_SKIP() << "the test directory's file system has no FIEMAP: "
                   << measured.status().message();
    }
    ASSERT_TRUE(measured.ok()) << measured.status().message();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  FragmentOptions Options(FragmentMethod method) const {
    FragmentOptions o;
    o.path = path_;
    o.target_extents = kTarget;
    o.region_start = kHeader;
    o.region_bytes = kRegion;
    o.method = method;
    return o;
  }
  // The file system as FragmentFile sees it, named ext4 so that move_ext is in the chain: the
  // injected call answers before the kernel would be asked, whatever holds the directory.
  FileSystemInfo AsExt4() const {
    FileSystemInfo f = fs_;
    f.type = "ext4";
    return f;
  }
  int64_t Extents() const {
    auto s = MeasureFile(path_, fs_);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? s->extents : -1;
  }
  // Nothing beside the file: no donor, no copy left behind.
  std::vector<std::string> Leftovers() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      if (e.path().filename() != "t.tst") names.push_back(e.path().filename().string());
    }
    return names;
  }

  std::string dir_, path_, contents_;
  FileSystemInfo fs_;
  std::vector<std::string> notes_;
  std::function<void(const std::string&)> progress_ = [this](const std::string& m) {
    notes_.push_back(m);
  };
};

class RefusedMoveExtTest : public FragmentTest, public ::testing::WithParamInterface<int> {};

TEST_P(RefusedMoveExtTest, AutoFallsBackAndRecordsWhy) {
  int calls = 0;
  FragmentOptions o = Options(FragmentMethod::kAuto);
  o.move_ext_call = Refuse(GetParam(), &calls);
  auto r = FragmentFile(o, AsExt4(), progress_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(calls, 1);  // refused at the first block: nothing more is asked of it
  ASSERT_EQ(r->attempts.size(), 3u);
  const FragmentAttempt& move = r->attempts[0];
  EXPECT_EQ(move.method, "move_ext");
  EXPECT_EQ(move.status, "refused");
  EXPECT_NE(move.why.find(ErrnoName(GetParam())), std::string::npos) << move.why;
  EXPECT_EQ(r->attempts[1].method, "punch");
  EXPECT_EQ(r->attempts[2].method, "copy");
  // Punch and refill, or (where the allocator puts refilled blocks back in place, as on a busy
  // ext4) the copy after it, reached the target; the result names the one that did.
  EXPECT_TRUE(r->reached);
  EXPECT_TRUE(r->method == "punch" || r->method == "copy") << r->method;
  if (r->method == "punch") {
    EXPECT_EQ(r->attempts[1].status, "reached");
    EXPECT_EQ(r->attempts[2].status, "not_needed");
  } else {
    EXPECT_EQ(r->attempts[1].status, "short");
    EXPECT_EQ(r->attempts[2].status, "reached");
    EXPECT_NE(r->new_lock, nullptr);
  }
  EXPECT_NE(r->how.find(r->method + ":"), std::string::npos) << r->how;
  EXPECT_NEAR(static_cast<double>(Extents()), kTarget, kTarget * 0.05 + 1);
  EXPECT_EQ(r->after, Extents());
  EXPECT_EQ(ReadAll(path_), contents_);
  EXPECT_TRUE(Leftovers().empty());
  // The note on the way: refused, why, and what comes next.
  bool noted = false;
  for (const auto& n : notes_) {
    noted = noted || (n.find(ErrnoName(GetParam())) != std::string::npos &&
                      n.find("falling back to punch") != std::string::npos);
  }
  EXPECT_TRUE(noted);
  const std::string line = DescribeAttempts(r->attempts);
  EXPECT_EQ(line.rfind("move_ext refused: ", 0), 0u) << line;
}

INSTANTIATE_TEST_SUITE_P(Errnos, RefusedMoveExtTest, ::testing::Values(EPERM, EACCES, EIO),
                         [](const auto& info) { return ErrnoName(info.param); });

TEST_F(FragmentTest, AForcedMoveExtThatIsRefusedIsAnErrorAndChangesNothing) {
  const int64_t before = Extents();
  for (const auto& [err, code] :
       {std::pair{EPERM, StatusCode::kIoError}, std::pair{EACCES, StatusCode::kIoError},
        std::pair{EOPNOTSUPP, StatusCode::kFailedPrecondition}}) {
    int calls = 0;
    FragmentOptions o = Options(FragmentMethod::kMoveExt);
    o.move_ext_call = Refuse(err, &calls);
    auto r = FragmentFile(o, AsExt4(), progress_);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), code) << ErrnoName(err);
    EXPECT_NE(r.status().message().find("--method move_ext"), std::string::npos);
    EXPECT_NE(r.status().message().find(ErrnoName(err)), std::string::npos) << r.status().message();
    EXPECT_EQ(calls, 1);
  }
  EXPECT_EQ(Extents(), before);
  EXPECT_EQ(ReadAll(path_), contents_);
  EXPECT_TRUE(Leftovers().empty());
}

TEST_F(FragmentTest, MoveExtOffExt4IsBadInputAndNotInTheChain) {
  int calls = 0;
  FileSystemInfo xfs = fs_;
  xfs.type = "xfs";
  FragmentOptions o = Options(FragmentMethod::kMoveExt);
  o.move_ext_call = Refuse(EPERM, &calls);
  auto r = FragmentFile(o, xfs, progress_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("needs ext4"), std::string::npos);
  // auto skips it, and says why.
  o.method = FragmentMethod::kAuto;
  auto a = FragmentFile(o, xfs, progress_);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(a->attempts[0].status, "not_applicable");
  EXPECT_NE(a->attempts[0].why.find("xfs"), std::string::npos);
  EXPECT_EQ(ReadAll(path_), contents_);
}

TEST_F(FragmentTest, CopyReachesTheTargetWithTheSameBytes) {
  auto r = FragmentFile(Options(FragmentMethod::kCopy), fs_, progress_);
  if (!r.ok() && r.status().code() == StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << r.status().message();  // a file system that cannot collapse ranges
  }
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->attempts.size(), 1u);
  EXPECT_EQ(r->attempts[0].method, "copy");
  EXPECT_EQ(r->attempts[0].status, "reached");
  EXPECT_EQ(r->method, "copy");
  EXPECT_TRUE(r->reached);
  EXPECT_NE(r->new_lock, nullptr);  // the path names the copy, locked before the rename
  EXPECT_EQ(r->after, Extents());
  EXPECT_NEAR(static_cast<double>(r->after), kTarget, kTarget * 0.05 + 1);
  EXPECT_EQ(ReadAll(path_), contents_);
  EXPECT_TRUE(Leftovers().empty());
}

TEST_F(FragmentTest, DefragFallsBackToTheCopyWhenTheMoveIsRefused) {
  auto fragmented = FragmentFile(Options(FragmentMethod::kCopy), fs_, progress_);
  if (!fragmented.ok() && fragmented.status().code() == StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << fragmented.status().message();
  }
  ASSERT_TRUE(fragmented.ok()) << fragmented.status().message();
  fragmented->new_lock.reset();  // DefragFile renames over the path and locks anew
  const int64_t before = Extents();
  ASSERT_GT(before, 10);
  for (DefragMethod method : {DefragMethod::kOnline, DefragMethod::kAuto}) {
    int calls = 0;
    DefragOptions d;
    d.path = path_;
    d.method = method;
    // Each attempt is timed on the caller's clock: the refused move takes 3 s of it, the copy
    // none (the fake clock moves only when told).
    FakeClock clock(kNanosPerSecond);
    d.clock = &clock;
    d.move_ext_call = [&, refuse = Refuse(EACCES, &calls)](int fd, Ext4MoveExtent* me) {
      clock.Advance(3 * kNanosPerSecond);
      return refuse(fd, me);
    };
    auto r = DefragFile(d, AsExt4(), progress_);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(calls, 1);
    ASSERT_GE(r->attempts.size(), 1u);
    const DefragAttempt& move = r->attempts[0];
    EXPECT_EQ(move.method, "EXT4_IOC_MOVE_EXT");
    EXPECT_TRUE(move.refused);
    EXPECT_FALSE(move.ok);
    EXPECT_NE(move.outcome.find("EACCES"), std::string::npos) << move.outcome;
    EXPECT_EQ(move.seconds, 3.0);
    for (size_t i = 1; i < r->attempts.size(); ++i) EXPECT_EQ(r->attempts[i].seconds, 0.0);
    if (method == DefragMethod::kOnline) {
      EXPECT_EQ(r->attempts.size(), 1u);
      EXPECT_EQ(r->final_method, "");
      EXPECT_EQ(Extents(), before);
    } else {
      ASSERT_EQ(r->attempts.size(), 2u);
      EXPECT_EQ(r->attempts[1].method, "copy_rename");
      EXPECT_EQ(r->final_method, "copy_rename");
      EXPECT_LT(Extents(), before);
    }
    EXPECT_EQ(ReadAll(path_), contents_);
    EXPECT_TRUE(Leftovers().empty());
  }
}

TEST(MoveExtFailureTest, BusyIsRetriedEverythingElseIsARefusal) {
  EXPECT_TRUE(JudgeMoveExtFailure(EBUSY).retry);
  for (int err : {EPERM, EACCES, EIO, EINVAL, ENOSPC}) {
    const MoveExtFailure f = JudgeMoveExtFailure(err);
    EXPECT_FALSE(f.retry) << err;
    EXPECT_EQ(f.code, StatusCode::kIoError) << err;
    EXPECT_NE(f.why.find(ErrnoName(err)), std::string::npos) << f.why;
  }
  for (int err : {EOPNOTSUPP, ENOTTY}) {
    EXPECT_EQ(JudgeMoveExtFailure(err).code, StatusCode::kFailedPrecondition) << err;
  }
  EXPECT_EQ(ErrnoName(EPERM), "EPERM");
}

TEST(FragmentMethodTest, NamesRoundTrip) {
  for (FragmentMethod m : {FragmentMethod::kAuto, FragmentMethod::kMoveExt, FragmentMethod::kPunch,
                           FragmentMethod::kCopy}) {
    EXPECT_EQ(ParseFragmentMethod(FragmentMethodName(m)), m);
  }
  EXPECT_FALSE(ParseFragmentMethod("online").has_value());
  EXPECT_FALSE(ParseFragmentMethod("").has_value());
}

}  // namespace
}  // namespace sb::fs
