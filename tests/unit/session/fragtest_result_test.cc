// io fragtest's result from a constructed outcome: the table's lines, the figures in order and
// the choices' exact words.
#include "session/fragtest_result.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace sb::session {
namespace {

// Two rounds of one specification, its trials equal within a phase, so every bootstrap resample
// gives the same ratio and the interval is exactly that ratio.
fsload::FragtestOutcome TwoRounds() {
  fsload::FragtestOutcome o;
  o.fragmented.method = "copy";
  o.fragmented.how = "copy: cut";
  fs::FragmentAttempt fa;
  fa.method = "copy";
  fa.status = "reached";
  fa.why = "cut 63 blocks";
  fa.before = 1;
  fa.after = 65;
  o.fragmented.attempts = {fa};
  o.defrag.final_method = "copy_rename";
  fs::DefragAttempt da;
  da.method = "copy_rename";
  da.outcome = "copied";
  da.before = 65;
  da.after = 1;
  da.seconds = 0.5;
  o.defrag.attempts = {da};
  o.before.extents = 65;
  o.after.extents = 1;
  o.before.iops = {{100, 100}};
  o.after.iops = {{200, 200}};
  o.before.mibs = {{50, 50}};
  o.after.mibs = {{50, 50}};
  o.before.seq_mibs = {10, 10};
  o.after.seq_mibs = {5, 5};
  o.page_cache = "t.dat: cached pages dropped";
  return o;
}

FragtestSettings Settings() {
  FragtestSettings s;
  s.path = "/tmp";
  s.engine = "io_uring";
  s.workers = 1;
  s.outstanding = 64;
  s.run_nanos = 1'000'000'000;
  s.ramp_nanos = 0;
  s.direct = true;
  s.rounds = 2;
  s.seq_read = true;
  s.extents = 64;
  s.data_bytes = 67108864;
  return s;
}

std::vector<storage::AccessSpec> OneSpec() {
  storage::AccessSpec spec;
  spec.name = "Random-8k";
  return {spec};
}

TEST(FragtestResult, LinesFiguresAndVerdicts) {
  const FragtestReport rep = BuildFragtestReport(TwoRounds(), OneSpec(), Settings());
  ASSERT_EQ(rep.lines.size(), 3u);
  EXPECT_EQ(rep.lines[0].name, "Random-8k IOPS");
  EXPECT_EQ(rep.lines[0].key, "Random-8k.iops_median");
  EXPECT_DOUBLE_EQ(rep.lines[0].before, 100);
  EXPECT_DOUBLE_EQ(rep.lines[0].after, 200);
  EXPECT_DOUBLE_EQ(rep.lines[0].ratio.ratio, 2);
  EXPECT_EQ(rep.lines[1].name, "Random-8k MiB/s");
  EXPECT_EQ(rep.lines[2].name, "seq 1 MiB read MiB/s");

  const std::vector<std::pair<std::string, double>> want = {
      {"extents_before", 65},
      {"extents_after", 1},
      {"rounds", 2},
      {"before.Random-8k.iops_median", 100},
      {"after.Random-8k.iops_median", 200},
      {"ratio.Random-8k.iops_median", 2},
      {"ratio_low.Random-8k.iops_median", 2},
      {"ratio_high.Random-8k.iops_median", 2},
      {"before.Random-8k.mib_per_sec_median", 50},
      {"after.Random-8k.mib_per_sec_median", 50},
      {"ratio.Random-8k.mib_per_sec_median", 1},
      {"ratio_low.Random-8k.mib_per_sec_median", 1},
      {"ratio_high.Random-8k.mib_per_sec_median", 1},
      {"before.seq_read.mib_per_sec_median", 10},
      {"after.seq_read.mib_per_sec_median", 5},
      {"ratio.seq_read.mib_per_sec_median", 0.5},
      {"ratio_low.seq_read.mib_per_sec_median", 0.5},
      {"ratio_high.seq_read.mib_per_sec_median", 0.5},
  };
  const metrics::RunResult& r = rep.result;
  ASSERT_EQ(r.figures.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.figures[i].first, want[i].first);
    EXPECT_DOUBLE_EQ(r.figures[i].second, want[i].second) << want[i].first;
  }
  EXPECT_EQ(r.workload, "fragtest");
  EXPECT_EQ(r.headline_name, "extents_before");
  EXPECT_DOUBLE_EQ(r.headline_value, 65);
  EXPECT_EQ(r.choices.at("fragtest.verdict.Random-8k.iops_median"), "higher after");
  EXPECT_EQ(r.choices.at("fragtest.verdict.Random-8k.mib_per_sec_median"), "no measurable effect");
  EXPECT_EQ(r.choices.at("fragtest.verdict.seq_read.mib_per_sec_median"), "lower after");
  EXPECT_FALSE(r.environment.empty());
}

TEST(FragtestResult, ChoicesInWords) {
  const metrics::RunResult r = BuildFragtestReport(TwoRounds(), OneSpec(), Settings()).result;
  EXPECT_EQ(r.choices.at("fragtest.fragment"),
            "to 64 extents (io fragment --method auto), measured with FIEMAP as filefrag counts: "
            "copy: cut");
  EXPECT_EQ(r.choices.at("fragtest.fragment_method"), "copy");
  EXPECT_EQ(r.choices.at("fragtest.fragment_attempts"),
            "copy reached: cut 63 blocks (1 -> 65 extents)");
  EXPECT_EQ(r.choices.at("fragtest.defrag"),
            "by copy_rename; attempts: copy_rename: copied (65 -> 1 extents, 0.500 s)");
  EXPECT_EQ(r.choices.at("fragtest.page_cache"),
            "the file's pages dropped before each trial (O_DIRECT trials); last: t.dat: cached "
            "pages dropped");
  EXPECT_EQ(r.choices.at("fragtest.seq_read"),
            "one pass over the data area in 1 MiB reads, one at a time, O_DIRECT, after each "
            "round of specifications");
  EXPECT_EQ(r.choices.at("fragtest.settings"),
            "engine io_uring, 1 worker(s), 64 outstanding, run 1s, ramp 0s, test range the whole "
            "data area (67108864 B)");
  EXPECT_EQ(r.loop_model,
            "closed loop per trial: 1 worker(s) x 64 outstanding I/Os (Iometer model); trials "
            "alternate specifications, before and after in ABBA order across rounds");
  EXPECT_EQ(r.choices.size(), 11u);  // seven above, the order and three verdicts
}

TEST(FragtestResult, OneRoundBufferedWithoutSeqReadNorDefragMethod) {
  fsload::FragtestOutcome o = TwoRounds();
  o.defrag.final_method.clear();
  o.before.iops = {{100}};
  o.after.iops = {{200}};
  o.before.mibs = {{50}};
  o.after.mibs = {{50}};
  FragtestSettings s = Settings();
  s.rounds = 1;
  s.seq_read = false;
  s.direct = false;
  const FragtestReport rep = BuildFragtestReport(o, OneSpec(), s);
  ASSERT_EQ(rep.lines.size(), 2u);
  EXPECT_FALSE(rep.lines[0].ratio.has_interval);
  const metrics::RunResult& r = rep.result;
  ASSERT_EQ(r.figures.size(), 9u);  // no interval: no ratio_low and ratio_high
  EXPECT_EQ(r.figures[3].first, "before.Random-8k.iops_median");
  EXPECT_EQ(r.figures[5].first, "ratio.Random-8k.iops_median");
  EXPECT_EQ(r.figures[6].first, "before.Random-8k.mib_per_sec_median");
  EXPECT_EQ(r.choices.count("fragtest.seq_read"), 0u);
  EXPECT_EQ(r.choices.at("fragtest.verdict.Random-8k.iops_median"),
            "no interval: it needs at least 2 trials before and after");
  EXPECT_EQ(r.choices.at("fragtest.defrag"),
            "no method lowered the count; attempts: copy_rename: copied (65 -> 1 extents, 0.500 "
            "s)");
  EXPECT_EQ(r.choices.at("fragtest.page_cache"),
            "the file's pages dropped before each trial (buffered trials); last: t.dat: cached "
            "pages dropped");
}

}  // namespace
}  // namespace sb::session
