// The sysbench-style workload on real SQLite files: load contents, statement counts per
// transaction type (counted by the session and checked against the table contents), and the
// key distributions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>

#include "backend/db/sqlite/sqlite_backend.h"
#include "config/options.h"
#include "unit/workload/test_op_context.h"
#include "workload/oltp/key_dist.h"
#include "workload/oltp/oltp_workload.h"

namespace sb::oltp {
namespace {

struct Loaded {
  std::unique_ptr<db::DbBackend> backend;
  std::unique_ptr<OltpWorkload> workload;
};

Loaded Load(const std::string& name, const std::vector<std::string>& args) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(path + s);
  db::BackendOptions bo;
  bo.create_if_missing = true;
  Loaded l;
  l.backend = std::move(db::OpenSqlite(*db::ParseDbUrl("sqlite://" + path), bo)).value();
  l.workload = std::make_unique<OltpWorkload>();
  config::OptionSet options;
  l.workload->DeclareOptions(&options);
  EXPECT_TRUE(config::ParseCommandLine(args, &options).ok());
  EXPECT_TRUE(l.workload->Configure(options).ok());
  workload::LoadContext ctx;
  ctx.threads = 2;
  ctx.seed = 3;
  const Status s = l.workload->Load(*l.backend, ctx);
  EXPECT_TRUE(s.ok()) << s.message();
  return l;
}

int64_t Count(db::Connection& c, const std::string& sql) {
  auto st = c.Prepare(sql);
  EXPECT_TRUE(st.ok());
  EXPECT_TRUE((*st)->Execute().ok());
  EXPECT_TRUE((*st)->Next());
  return (*st)->GetInt(0);
}

TEST(OltpLoadTest, TablesHoldSysbenchRowsAndFormats) {
  Loaded l = Load("oltp-load.db", {"--tables=2", "--table_size=5000", "--rand_type=uniform"});
  auto conn = l.backend->Connect();
  ASSERT_TRUE(conn.ok());
  for (const char* t : {"sbtest1", "sbtest2"}) {
    EXPECT_EQ(Count(**conn, std::string("SELECT count(*) FROM ") + t), 5000);
    EXPECT_EQ(Count(**conn, std::string("SELECT min(id) FROM ") + t), 1);
    EXPECT_EQ(Count(**conn, std::string("SELECT max(id) FROM ") + t), 5000);
    EXPECT_GE(Count(**conn, std::string("SELECT min(k) FROM ") + t), 1);
    EXPECT_LE(Count(**conn, std::string("SELECT max(k) FROM ") + t), 5000);
    // Uniform k: the mean is (1 + 5000) / 2 within a few standard errors (sigma ~ 20).
    const int64_t avg = Count(**conn, std::string("SELECT avg(k) FROM ") + t);
    EXPECT_NEAR(avg, 2500, 100);
  }
  auto st = (*conn)->Prepare("SELECT c, pad FROM sbtest1 LIMIT 50");
  ASSERT_TRUE((*st)->Execute().ok());
  const std::regex c_re("^(\\d{11}-){9}\\d{11}$"), pad_re("^(\\d{11}-){4}\\d{11}$");
  int rows = 0;
  while ((*st)->Next()) {
    ++rows;
    EXPECT_TRUE(std::regex_match(std::string((*st)->GetText(0)), c_re));
    EXPECT_TRUE(std::regex_match(std::string((*st)->GetText(1)), pad_re));
  }
  EXPECT_EQ(rows, 50);
  // The secondary index on k exists, under sysbench's names k_1, k_2.
  EXPECT_EQ(Count(**conn,
                  "SELECT count(*) FROM sqlite_master WHERE type='index' AND "
                  "((name='k_1' AND tbl_name='sbtest1') OR (name='k_2' AND tbl_name='sbtest2'))"),
            2);
  // A second load is refused without --force.
  workload::LoadContext ctx;
  EXPECT_EQ(l.workload->Load(*l.backend, ctx).code(), StatusCode::kAlreadyExists);
}

TEST(OltpSessionTest, StatementCountsPerTransactionMatchSysbench) {
  Loaded l = Load("oltp-counts.db", {"--table_size=2000"});
  struct Case {
    std::vector<std::string> args;
    int64_t reads, writes, other;
  };
  const std::vector<Case> cases = {
      {{"--test=read_write"}, 14, 4, 2},
      {{"--test=read_only"}, 14, 0, 2},
      {{"--test=read_only", "--range_selects=N"}, 10, 0, 2},
      {{"--test=write_only"}, 0, 4, 2},
      {{"--test=point_select"}, 1, 0, 0},
      {{"--test=update_index"}, 0, 1, 0},
      {{"--test=update_non_index", "--non_index_updates=3"}, 0, 3, 0},
      {{"--test=insert"}, 0, 1, 0},
      {{"--test=delete"}, 0, 1, 0},
      {{"--test=read_write", "--skip_trx=Y", "--point_selects=2"}, 6, 4, 0},
  };
  for (const Case& c : cases) {
    config::OptionSet options;
    OltpWorkload w;
    w.DeclareOptions(&options);
    std::vector<std::string> args = {"--table_size=2000"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ASSERT_TRUE(config::ParseCommandLine(args, &options).ok());
    ASSERT_TRUE(w.Configure(options).ok());
    auto conn = l.backend->Connect();
    ASSERT_TRUE(w.CheckReady(**conn).ok());
    const int64_t rows_before = Count(**conn, "SELECT count(*) FROM sbtest1");
    auto session = w.NewSession(std::move(conn).value(), 1, 0);
    ASSERT_TRUE(session.ok()) << session.status().message();
    workload::TestOpContext ctx;
    const int units = 50;
    for (int i = 0; i < units; ++i) ASSERT_TRUE((*session)->RunUnit(ctx).ok());
    const StatementCounts expected = CountsPerUnit(w.options());
    EXPECT_EQ(expected.reads, c.reads) << c.args[0];
    EXPECT_EQ(expected.writes, c.writes) << c.args[0];
    EXPECT_EQ(expected.other, c.other) << c.args[0];
    EXPECT_EQ(ctx.counters()[kReads], units * c.reads) << c.args[0];
    EXPECT_EQ(ctx.counters()[kWrites], units * c.writes) << c.args[0];
    EXPECT_EQ(ctx.counters()[kOther], units * c.other) << c.args[0];
    // The table's row count moved exactly as the session says it inserted and deleted.
    auto check = l.backend->Connect();
    EXPECT_EQ(Count(**check, "SELECT count(*) FROM sbtest1") - rows_before,
              ctx.counters()[kRowsInserted] - ctx.counters()[kRowsDeleted])
        << c.args[0];
  }
}

TEST(OltpSessionTest, StatementsOfAFailedTransactionAreCountedAsSent) {
  // The server counts every statement that reached it, so the client's counts of statements
  // sent must survive a unit that fails for good, or the server cross-check finds more BEGINs
  // on the server than the client sent.
  Loaded l = Load("oltp-failed-unit.db", {"--table_size=200"});
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/oltp-failed-unit.db";
  db::BackendOptions bo;
  bo.busy_timeout_ms = 0;  // the locked database fails the UPDATE at once
  auto backend = std::move(db::OpenSqlite(*db::ParseDbUrl("sqlite://" + path), bo)).value();
  config::OptionSet options;
  OltpWorkload w;
  w.DeclareOptions(&options);
  ASSERT_TRUE(config::ParseCommandLine({"--table_size=200", "--test=write_only"}, &options).ok());
  ASSERT_TRUE(w.Configure(options).ok());
  auto conn = backend->Connect();
  ASSERT_TRUE(conn.ok());
  auto session = w.NewSession(std::move(conn).value(), 1, 0);
  ASSERT_TRUE(session.ok()) << session.status().message();
  auto locker = backend->Connect();
  ASSERT_TRUE(locker.ok());
  ASSERT_TRUE((*locker)->ExecuteScript("BEGIN EXCLUSIVE").ok());
  workload::TestOpContext ctx;
  EXPECT_FALSE((*session)->RunUnit(ctx).ok());
  ASSERT_TRUE((*locker)->ExecuteScript("ROLLBACK").ok());
  // SQLite's write transactions begin IMMEDIATE, so the BEGIN itself met the lock: sent and
  // failed, and nothing after it was sent.
  EXPECT_EQ(ctx.counted_now()[kSentBase + kBegin], 1);
  EXPECT_EQ(ctx.counted_now()[kFailedBase + kBegin], 1);
  EXPECT_EQ(ctx.counted_now()[kSentBase + kUpdate], 0);
  EXPECT_EQ(ctx.counters()[kWrites], 0);  // nothing committed
  // Unlocked, the next unit commits and its sent statements are kept the same way.
  workload::TestOpContext ok;
  ASSERT_TRUE((*session)->RunUnit(ok).ok());
  EXPECT_EQ(ok.counted_now()[kSentBase + kBegin], 1);
  EXPECT_EQ(ok.counted_now()[kSentBase + kUpdate], 2);
  EXPECT_EQ(ok.counted_now()[kSentBase + kCommit], 1);
  EXPECT_EQ(ok.counters()[kWrites], 4);
}

TEST(OltpSessionTest, ReadsOfRetriedAttemptsCountAsSysbenchCountsThem) {
  // sysbench counts every query it ran, those of a restarted event included. Autocommit
  // statements (--skip_trx): the 6 selects of each attempt complete beside a writer's lock,
  // the first UPDATE fails on it; two attempts, then the unit fails.
  Loaded l = Load("oltp-retried-unit.db", {"--table_size=200"});
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/oltp-retried-unit.db";
  db::BackendOptions bo;
  bo.busy_timeout_ms = 0;
  auto backend = std::move(db::OpenSqlite(*db::ParseDbUrl("sqlite://" + path), bo)).value();
  config::OptionSet options;
  OltpWorkload w;
  w.DeclareOptions(&options);
  ASSERT_TRUE(
      config::ParseCommandLine({"--table_size=200", "--skip_trx=Y", "--point_selects=2"}, &options)
          .ok());
  ASSERT_TRUE(w.Configure(options).ok());
  auto conn = backend->Connect();
  ASSERT_TRUE(conn.ok());
  auto session = w.NewSession(std::move(conn).value(), 1, 0);
  ASSERT_TRUE(session.ok()) << session.status().message();
  auto locker = backend->Connect();
  ASSERT_TRUE(locker.ok());
  ASSERT_TRUE((*locker)->ExecuteScript("BEGIN IMMEDIATE").ok());
  workload::TestOpContext ctx(/*tries=*/2);
  EXPECT_FALSE((*session)->RunUnit(ctx).ok());
  ASSERT_TRUE((*locker)->ExecuteScript("ROLLBACK").ok());
  EXPECT_EQ(ctx.counted_now()[kSentBase + kSelect], 12);
  EXPECT_EQ(ctx.counted_now()[kReads], 12);  // both attempts' selects
  EXPECT_EQ(ctx.counted_now()[kWrites], 0);  // no write completed
}

std::vector<int64_t> Histogram10(KeyDistType type, int64_t n, int draws) {
  KeyDistParams p;
  p.type = type;
  KeyDist d(p, n);
  Random rng(42);
  std::vector<int64_t> deciles(10, 0);
  for (int i = 0; i < draws; ++i) {
    const int64_t k = d.Next(rng);
    EXPECT_GE(k, 1);
    EXPECT_LE(k, n);
    ++deciles[(k - 1) * 10 / n];
  }
  return deciles;
}

TEST(KeyDistTest, ShapesOfTheDistributions) {
  const int draws = 100000;
  // Uniform: every decile near 10 %.
  for (int64_t c : Histogram10(KeyDistType::kUniform, 10000, draws)) EXPECT_NEAR(c, 10000, 600);
  // Gaussian (mean of 12 uniforms): the middle deciles hold most draws, the ends almost none.
  auto g = Histogram10(KeyDistType::kGaussian, 10000, draws);
  EXPECT_GT(g[4] + g[5], draws * 0.6);
  EXPECT_LT(g[0] + g[9], draws * 0.001);
  // Special: 75 % of draws in the middle 1 % of keys.
  {
    KeyDistParams p;
    p.type = KeyDistType::kSpecial;
    KeyDist d(p, 10000);
    Random rng(7);
    int hot = 0;
    for (int i = 0; i < draws; ++i) {
      const int64_t k = d.Next(rng);
      if (k > 4950 && k <= 5050) ++hot;
    }
    // 75 % land in the slice by construction, plus the gaussian share that falls there.
    EXPECT_GT(hot, draws * 0.75);
    EXPECT_LT(hot, draws * 0.80);
  }
  // Pareto h = 0.2: the first decile takes the bulk (P(k <= n/10) = 0.1^(1/7.2) ~ 0.73).
  auto pa = Histogram10(KeyDistType::kPareto, 10000, draws);
  EXPECT_NEAR(static_cast<double>(pa[0]) / draws, 0.727, 0.01);
  // Zipfian s = 0.8 over 1000 keys: P(1) = 1 / sum(k^-0.8).
  {
    KeyDistParams p;
    p.type = KeyDistType::kZipfian;
    const int64_t n = 1000;
    KeyDist d(p, n);
    Random rng(9);
    double norm = 0;
    for (int64_t k = 1; k <= n; ++k) norm += std::pow(static_cast<double>(k), -0.8);
    std::map<int64_t, int> seen;
    for (int i = 0; i < draws; ++i) ++seen[d.Next(rng)];
    for (int64_t k : {1, 2, 10}) {
      const double expected = std::pow(static_cast<double>(k), -0.8) / norm * draws;
      EXPECT_NEAR(seen[k], expected, 5 * std::sqrt(expected)) << k;
    }
  }
}

// The draws themselves, not only their shape: a seed gives the same keys, and leaves the stream
// in the same state, whatever the code computing them (key_dist.cc draws the gaussian share from
// a local copy of the stream, for speed). The values are those of the version before that change.
TEST(KeyDistTest, TheHotShareIsDecidedAsNextDoubleTimes100WouldDecideIt) {
  // The special distribution tests the draw's 53 bits against HotLimit instead of computing
  // NextDouble() * 100 >= spec_res: the two must agree on every draw, so at the limit itself.
  auto times100 = [](uint64_t k) { return static_cast<double>(k) * 0x1.0p-53 * 100; };
  for (double res : {75.0, 1.0, 33.3, 99.99, 50.0, 0.001}) {
    const uint64_t limit = KeyDist::HotLimit(res);
    ASSERT_GT(limit, 0u) << res;
    EXPECT_LT(times100(limit - 1), res) << res;
    EXPECT_GE(times100(limit), res) << res;
  }
  EXPECT_EQ(KeyDist::HotLimit(0), 0u);                   // never hot
  EXPECT_EQ(KeyDist::HotLimit(100), uint64_t{1} << 53);  // always hot
  EXPECT_EQ(KeyDist::HotLimit(150), uint64_t{1} << 53);
}

TEST(KeyDistTest, DrawsArePinnedForASeed) {
  struct Pinned {
    KeyDistType type;
    uint64_t digest;
    std::vector<int64_t> first;
    uint64_t next;  // the stream's next number after the draws
  };
  const Pinned pinned[] = {
      {KeyDistType::kSpecial,
       7229308840969261432u,
       {49588, 49944, 49807, 50496, 49730, 49839},
       5770000948174031387u},
      {KeyDistType::kGaussian,
       4912430326176064258u,
       {34693, 45403, 50270, 57409, 51802, 57734},
       17801754048284108114u},
  };
  for (const Pinned& want : pinned) {
    KeyDistParams p;
    p.type = want.type;
    KeyDist d(p, 100000);
    Random rng(11);
    uint64_t digest = 0;
    std::vector<int64_t> first;
    for (int i = 0; i < 20000; ++i) {
      const int64_t k = d.Next(rng);
      if (first.size() < want.first.size()) first.push_back(k);
      digest = digest * 1000003 + static_cast<uint64_t>(k);
    }
    EXPECT_EQ(first, want.first);
    EXPECT_EQ(digest, want.digest);
    EXPECT_EQ(rng.Next64(), want.next);
  }
}

TEST(OltpFormatTest, DigitGroups) {
  Random rng(1);
  EXPECT_EQ(RandomDigitGroups(rng, 10).size(), 119u);
  EXPECT_EQ(RandomDigitGroups(rng, 5).size(), 59u);
}

}  // namespace
}  // namespace sb::oltp
