// The server cross-check after a server restart: counters that went backwards are reported and
// not compared (issue #20: a MariaDB restart mid-run made the check compare reset counters and
// warn without saying why), and exact comparisons that allow the commits in doubt.
#include "driver/server_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storebench/workload.h"
#include "unit/driver/stub_workload.h"

namespace sb::driver {
namespace {

// A workload whose comparison echoes the server's commit count, to see what it was given.
class EchoWorkload final : public StubWorkload {
 public:
  EchoWorkload() : StubWorkload("echo") {}
  std::vector<workload::ServerComparison> CompareWithServer(
      const workload::Totals& span, const workload::ServerView& server) const override {
    std::vector<workload::ServerComparison> out;
    if (auto it = server.counter_delta.find("commits"); it != server.counter_delta.end()) {
      out.push_back({"commits", 5, it->second, false, "commits"});
    }
    if (auto it = server.counter_delta.find("statements.select");
        it != server.counter_delta.end()) {
      out.push_back({"statements.select", 5, it->second, true, "selects"});
    }
    if (auto it = server.probe_delta.find("rows"); it != server.probe_delta.end()) {
      // The span's first counter: units in doubt.
      out.push_back(
          {"rows", 5, it->second, true, "rows", span.counters.empty() ? 0 : span.counters[0]});
    }
    return out;
  }
};

ServerReading Reading(int64_t commits, int64_t rows) {
  ServerReading r;
  r.probe["rows"] = rows;
  r.counters.push_back({"Com_commit", "commits", commits, false, ""});
  return r;
}

TEST(ServerCheckTest, CountersThatWentBackwardsAreNotCompared) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  auto r = CompareReadings(wl, Reading(1000, 100), Reading(3, 105), span, true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 1u);  // only the tables' rows
  EXPECT_EQ(r.comparisons[0].name, "rows");
  EXPECT_TRUE(r.comparisons[0].passed);
  ASSERT_EQ(r.server_counters.size(), 1u);  // still shown as read
  EXPECT_EQ(r.server_counters[0].delta(), -997);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("went backwards during the run (Com_commit 1000 -> 3)"),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("restarted"), std::string::npos);
}

TEST(ServerCheckTest, CountersThatGrewAreCompared) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  auto r = CompareReadings(wl, Reading(1000, 100), Reading(1007, 105), span, true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 2u);
  EXPECT_EQ(r.comparisons[0].name, "commits");
  EXPECT_EQ(r.comparisons[0].server, 7);
  EXPECT_TRUE(warnings.empty());
}

// PostgreSQL's pg_stat_statements with its entries evicted by other clients' statements.
// The client counted 5 rows: 100 at the start, 105 at the end.
ServerReading StatementReading(int64_t commits, int64_t selects, int64_t dealloc) {
  ServerReading r = Reading(commits, commits < 15 ? 100 : 105);
  r.counters.push_back({"pg_stat_statements.select", "statements.select", selects, false, ""});
  r.counters.push_back(
      {"pg_stat_statements_info.dealloc", "statement_evictions", dealloc, false, ""});
  return r;
}

TEST(ServerCheckTest, StatementCountsAreLeftOutWhenTheServerEvictedEntries) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  // No eviction: all compared.
  auto r = CompareReadings(wl, StatementReading(10, 100, 3), StatementReading(15, 105, 3), span,
                           true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 3u);
  EXPECT_EQ(r.comparisons[1].name, "statements.select");
  EXPECT_TRUE(warnings.empty());
  // Evictions, the select count went down: not a restart, the commits are still compared.
  for (const auto& end :
       {StatementReading(15, 60, 4), StatementReading(15, 103, 4), StatementReading(15, 60, 3)}) {
    warnings.clear();
    r = CompareReadings(wl, StatementReading(10, 100, 3), end, span, true, &warnings);
    ASSERT_EQ(r.comparisons.size(), 2u);
    EXPECT_EQ(r.comparisons[0].name, "commits");
    EXPECT_EQ(r.comparisons[0].server, 5);
    EXPECT_EQ(r.comparisons[1].name, "rows");
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("statement statistics lost entries"), std::string::npos)
        << warnings[0];
  }
}

TEST(ServerCheckTest, AnExactComparisonAllowsTheUnitsInDoubtAndNoMore) {
  EchoWorkload wl;
  workload::Totals span;
  span.counters = {2};  // two commits lost their connection: the client counted 5
  for (int64_t rows = 3; rows <= 8; ++rows) {
    std::vector<std::string> warnings;
    auto r = CompareReadings(wl, Reading(10, 100), Reading(20, 100 + rows), span, true, &warnings);
    ASSERT_EQ(r.comparisons.size(), 2u);
    const auto& m = r.comparisons[1];
    ASSERT_EQ(m.name, "rows");
    EXPECT_EQ(m.passed, rows >= 5 && rows <= 7) << rows;
    EXPECT_NE(m.detail.find("2 commits in doubt"), std::string::npos) << m.detail;
  }
  span.counters = {0};
  std::vector<std::string> warnings;
  auto r = CompareReadings(wl, Reading(10, 100), Reading(20, 106), span, true, &warnings);
  EXPECT_FALSE(r.comparisons[1].passed);
  EXPECT_EQ(r.comparisons[1].detail, "rows");
}

// MariaDB's global status counts every client's statements. With other sessions working during
// the span (the end reading's "other_sessions", or new connections), the comparisons that read
// a server-wide counter say so instead of differing; the tables' rows are still compared.
ServerReading SharedReading(int64_t selects, int64_t connections, int64_t rows,
                            int64_t others = -1) {
  ServerReading r;
  r.probe["rows"] = rows;
  r.counters.push_back({"Com_select", "statements.select", selects, true, ""});
  r.counters.push_back({"Connections", "connections", connections, true, ""});
  if (others >= 0) r.counters.push_back({"other_sessions", "other_sessions", others, true, ""});
  return r;
}

TEST(ServerCheckTest, ServerWideCountersAreNotComparedWhenOtherSessionsWorked) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  // The client ran 5 selects; the server counted 47 (other clients' among them).
  auto r = CompareReadings(wl, SharedReading(100, 10, 100), SharedReading(147, 10, 105, 2), span,
                           true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 2u);
  EXPECT_EQ(r.comparisons[0].name, "statements.select");
  EXPECT_EQ(r.comparisons[0].relation, "not compared");
  EXPECT_TRUE(r.comparisons[0].passed);
  EXPECT_NE(r.comparisons[0].detail.find("other sessions were active: not compared"),
            std::string::npos);
  EXPECT_EQ(r.comparisons[1].name, "rows");
  EXPECT_EQ(r.comparisons[1].relation, "==");
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  // A session that came and went (no longer listed) shows in the connections opened.
  warnings.clear();
  r = CompareReadings(wl, SharedReading(100, 10, 100), SharedReading(147, 11, 105, 0), span, true,
                      &warnings);
  EXPECT_EQ(r.comparisons[0].relation, "not compared");
  EXPECT_TRUE(warnings.empty());
}

TEST(ServerCheckTest, ServerWideCountersAreComparedWhenNoOtherSessionWorked) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  auto r = CompareReadings(wl, SharedReading(100, 10, 100), SharedReading(147, 10, 105, 0), span,
                           true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 2u);
  EXPECT_EQ(r.comparisons[0].relation, "==");
  EXPECT_FALSE(r.comparisons[0].passed);  // 47 selects where the client ran 5: a real difference
  EXPECT_EQ(warnings.size(), 1u);
}

// MariaDB with performance_schema: the run's schema's own commit count (from the statement
// digests) stands in for the global one and is compared, also while other sessions work on the
// server; when the digests missed statements during the span (the overflow row grew), the
// global count is compared instead.
ServerReading SchemaReading(int64_t global_commits, int64_t schema_commits, int64_t selects,
                            int64_t overflow, int64_t others, int64_t rows) {
  const std::string digests = "performance_schema digests, schema s";
  ServerReading r;
  r.probe["rows"] = rows;
  r.counters.push_back(
      {"Com_commit", "commits", global_commits, true, "SHOW GLOBAL STATUS", digests});
  r.counters.push_back({"Com_select", "statements.select", selects, true, "SHOW GLOBAL STATUS"});
  r.counters.push_back({"COMMIT", "commits", schema_commits, false, digests});
  r.counters.push_back({"overflow", "statement_evictions", overflow, false, digests});
  r.counters.push_back({"other_sessions", "other_sessions", others, true, "PROCESSLIST"});
  return r;
}

TEST(ServerCheckTest, PerSchemaCountersAreComparedWhileOtherSessionsWork) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  // Another client committed 40 and selected 42 times in its own schema; the run's schema
  // counted 3 commits where the client counted 5: a difference the check reports.
  auto r = CompareReadings(wl, SchemaReading(100, 10, 100, 0, 0, 100),
                           SchemaReading(145, 13, 147, 0, 1, 105), span, true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 3u);
  EXPECT_EQ(r.comparisons[0].name, "commits");
  EXPECT_EQ(r.comparisons[0].relation, ">=");
  EXPECT_EQ(r.comparisons[0].server, 3);
  EXPECT_FALSE(r.comparisons[0].passed);
  EXPECT_EQ(r.comparisons[1].name, "statements.select");
  EXPECT_EQ(r.comparisons[1].relation, "not compared");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("server cross-check commits"), std::string::npos) << warnings[0];
  // Each counter's source is in the result.
  ASSERT_EQ(r.server_counters.size(), 5u);
  EXPECT_EQ(r.server_counters[2].source, "performance_schema digests, schema s");
  EXPECT_EQ(r.server_counters[0].source, "SHOW GLOBAL STATUS");
}

TEST(ServerCheckTest, TheGlobalCountIsComparedWhenTheSchemasCountsMissedStatements) {
  EchoWorkload wl;
  workload::Totals span;
  std::vector<std::string> warnings;
  // The schema's 3 commits would differ from the client's 5; the overflow row grew (7 -> 9),
  // so the global 45 is compared, as without performance_schema.
  auto r = CompareReadings(wl, SchemaReading(100, 10, 100, 7, 0, 100),
                           SchemaReading(145, 13, 105, 9, 0, 105), span, true, &warnings);
  ASSERT_EQ(r.comparisons.size(), 3u);
  EXPECT_EQ(r.comparisons[0].name, "commits");
  EXPECT_EQ(r.comparisons[0].server, 45);
  EXPECT_TRUE(r.comparisons[0].passed);
  EXPECT_EQ(r.comparisons[1].name, "statements.select");
  EXPECT_EQ(r.comparisons[1].relation, "==");
  EXPECT_TRUE(r.comparisons[1].passed);
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  // With another session active too, the global count is not compared: no false DIFFER.
  r = CompareReadings(wl, SchemaReading(100, 10, 100, 7, 0, 100),
                      SchemaReading(145, 13, 147, 9, 1, 105), span, true, &warnings);
  EXPECT_EQ(r.comparisons[0].name, "commits");
  EXPECT_EQ(r.comparisons[0].relation, "not compared");
  EXPECT_TRUE(warnings.empty()) << warnings[0];
}

}  // namespace
}  // namespace sb::driver
