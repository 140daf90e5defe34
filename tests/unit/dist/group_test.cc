// The group's steps before a run, over an in-process transport (each rank a thread): a failure
// found by one rank reaches every rank, named once with its rank, without anyone waiting for a
// timeout; rank 0 leads a sequence of runs with Share.
#include "dist/group.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "base/clock.h"

namespace sb::dist {
namespace {

// Messages between the ranks of one process, in order per sender, receiver and tag.
struct Hub {
  std::mutex mu;
  std::map<std::tuple<int, int, int>, std::deque<std::string>> queues;  // (from, to, tag)
};

class HubTransport : public Transport {
 public:
  HubTransport(Hub* hub, int rank, int size) : hub_(hub), rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void Send(int to, int tag, std::string bytes) override {
    std::lock_guard<std::mutex> lock(hub_->mu);
    hub_->queues[{rank_, to, tag}].push_back(std::move(bytes));
  }
  bool TryReceive(int from, int tag, std::string* out) override {
    std::lock_guard<std::mutex> lock(hub_->mu);
    auto& q = hub_->queues[{from, rank_, tag}];
    if (q.empty()) return false;
    *out = std::move(q.front());
    q.pop_front();
    return true;
  }

 private:
  Hub* hub_;
  int rank_, size_;
};

// Runs `body` on every rank of a group of `n`, each in its own thread; returns when all end.
void OnEveryRank(int n, const std::function<void(Group&)>& body) {
  Hub hub;
  std::vector<std::unique_ptr<Group>> groups;
  groups.reserve(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    // A long timeout: a test that waited for it would be seen (and is a failure here).
    groups.push_back(
        std::make_unique<Group>(std::make_unique<HubTransport>(&hub, r, n), 60 * kNanosPerSecond));
  }
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(n));
  for (auto& g : groups) threads.emplace_back([&body, &g] { body(*g); });
  for (auto& t : threads) t.join();
}

TEST(GroupTest, AFailureOfOneRankReachesEveryRankNamed) {
  std::vector<Status> seen(3);
  OnEveryRank(3, [&seen](Group& g) {
    ASSERT_TRUE(g.CheckSame("same", "options").ok());
    const Status mine =
        g.rank() == 2 ? Status::FailedPrecondition("database x is locked") : Status::Ok();
    seen[static_cast<size_t>(g.rank())] = g.AllOk(mine);
  });
  for (const Status& s : seen) {
    EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
    EXPECT_EQ(s.message().rfind("rank 2 (host ", 0), 0u) << s.message();
    EXPECT_NE(s.message().find("): database x is locked"), std::string::npos) << s.message();
  }
}

TEST(GroupTest, AToldFailureEndsRankZerosWaitAndEveryoneElses) {
  std::vector<Status> seen(3);
  OnEveryRank(3, [&seen](Group& g) {
    ASSERT_TRUE(g.CheckSame("same", "options").ok());
    if (g.rank() == 1) {
      // Fails on its own before the next step (cli::Fail does this) and leaves.
      g.TellFailure(Status::InvalidArgument("cannot write /x"));
      seen[1] = Status::InvalidArgument("left");
      EXPECT_TRUE(g.failure_known());
      return;
    }
    seen[static_cast<size_t>(g.rank())] = g.AllOk(Status::Ok());
  });
  EXPECT_EQ(seen[0].code(), StatusCode::kInvalidArgument);
  EXPECT_NE(seen[0].message().find("rank 1 (host "), std::string::npos) << seen[0].message();
  EXPECT_NE(seen[0].message().find("cannot write /x"), std::string::npos) << seen[0].message();
  EXPECT_EQ(seen[2].message(), seen[0].message());
}

TEST(GroupTest, RankZerosOwnFailureIsItsOwnMessageEverywhere) {
  std::vector<Status> seen(2);
  OnEveryRank(2, [&seen](Group& g) {
    ASSERT_TRUE(g.CheckSame("same", "options").ok());
    if (g.coordinator()) {
      g.TellFailure(Status::InvalidArgument("bad plan"));
      seen[0] = Status::InvalidArgument("bad plan");
      return;
    }
    seen[1] = g.AllOk(Status::Ok());
  });
  EXPECT_EQ(seen[1].code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(seen[1].message(), "bad plan");
}

TEST(GroupTest, ShareGivesEveryRankRankZerosValue) {
  std::vector<std::string> got(3);
  OnEveryRank(3, [&got](Group& g) {
    for (const char* step : {"2 1 0", "3 1 0", "0 0 1"}) {
      const auto v = g.Share(g.coordinator() ? step : "ignored");
      ASSERT_TRUE(v.has_value());
      got[static_cast<size_t>(g.rank())] += *v + ";";
    }
  });
  for (const std::string& s : got) EXPECT_EQ(s, "2 1 0;3 1 0;0 0 1;");
}

}  // namespace
}  // namespace sb::dist
