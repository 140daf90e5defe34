#include "session/fragtest_result.h"

#include "base/units.h"
#include "session/environment.h"

namespace sb::session {

namespace {

// A figure's line, and its figures and verdict in the result: no effect is claimed when the
// interval holds 1.
FragtestLine BeforeAfterLine(const std::string& name, const std::vector<double>& b,
                             const std::vector<double>& a, const std::string& key,
                             metrics::RunResult* r) {
  FragtestLine line;
  line.name = name;
  line.key = key;
  line.before = fsload::Median(b);
  line.after = fsload::Median(a);
  line.ratio = experiment::CompareBeforeAfter(b, a);
  r->figures.emplace_back("before." + key, line.before);
  r->figures.emplace_back("after." + key, line.after);
  r->figures.emplace_back("ratio." + key, line.ratio.ratio);
  if (line.ratio.has_interval) {
    r->figures.emplace_back("ratio_low." + key, line.ratio.low);
    r->figures.emplace_back("ratio_high." + key, line.ratio.high);
  }
  r->choices["fragtest.verdict." + key] = line.ratio.verdict;
  return line;
}

}  // namespace

std::string DescribeDefragAttempts(const fs::DefragResult& defrag) {
  std::string attempts;
  for (const auto& a : defrag.attempts) {
    attempts += (attempts.empty() ? "" : "; ") + a.method + ": " + a.outcome + " (" +
                std::to_string(a.before) + " -> " + std::to_string(a.after) + " extents, " +
                std::to_string(a.seconds).substr(0, 5) + " s)";
  }
  return attempts;
}

FragtestReport BuildFragtestReport(const fsload::FragtestOutcome& outcome,
                                   const std::vector<storage::AccessSpec>& specs,
                                   const FragtestSettings& s) {
  FragtestReport rep;
  metrics::RunResult& r = rep.result;
  r.workload = "fragtest";
  r.figures = {{"extents_before", static_cast<double>(outcome.before.extents)},
               {"extents_after", static_cast<double>(outcome.after.extents)},
               {"rounds", static_cast<double>(s.rounds)}};
  const fsload::FragtestPhase& before = outcome.before;
  const fsload::FragtestPhase& after = outcome.after;
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string& n = specs[i].name;
    rep.lines.push_back(
        BeforeAfterLine(n + " IOPS", before.iops[i], after.iops[i], n + ".iops_median", &r));
    rep.lines.push_back(BeforeAfterLine(n + " MiB/s", before.mibs[i], after.mibs[i],
                                        n + ".mib_per_sec_median", &r));
  }
  if (s.seq_read) {
    rep.lines.push_back(BeforeAfterLine("seq 1 MiB read MiB/s", before.seq_mibs, after.seq_mibs,
                                        "seq_read.mib_per_sec_median", &r));
  }
  r.headline_name = "extents_before";
  r.headline_value = static_cast<double>(before.extents);
  r.loop_model = "closed loop per trial: " + std::to_string(s.workers) + " worker(s) x " +
                 std::to_string(s.outstanding) +
                 " outstanding I/Os (Iometer model); trials alternate specifications, before and "
                 "after in ABBA order across rounds";
  r.environment = CollectEnvironment(s.path);
  const fs::DefragResult& defrag = outcome.defrag;
  r.choices["fragtest.fragment"] =
      "to " + std::to_string(s.extents) + " extents (io fragment --method " +
      fs::FragmentMethodName(s.fragment_method) +
      "), measured with FIEMAP as filefrag counts: " + outcome.fragmented.how;
  r.choices["fragtest.fragment_method"] = outcome.fragmented.method;
  r.choices["fragtest.fragment_attempts"] = fs::DescribeAttempts(outcome.fragmented.attempts);
  r.choices["fragtest.defrag"] =
      (defrag.final_method.empty() ? std::string("no method lowered the count")
                                   : "by " + defrag.final_method) +
      "; attempts: " + DescribeDefragAttempts(defrag);
  r.choices["fragtest.order"] =
      "ABBA: round 1 before then after, round 2 after then before, ...; the file fragmented or "
      "defragmented again between trials as the order needs";
  r.choices["fragtest.page_cache"] = std::string("the file's pages dropped before each trial (") +
                                     (s.direct ? "O_DIRECT trials" : "buffered trials") +
                                     "); last: " + outcome.page_cache;
  if (s.seq_read) {
    r.choices["fragtest.seq_read"] =
        std::string("one pass over the data area in 1 MiB reads, one at a time, ") +
        (s.direct ? "O_DIRECT" : "buffered") + ", after each round of specifications";
  }
  r.choices["fragtest.settings"] =
      "engine " + s.engine + ", " + std::to_string(s.workers) + " worker(s), " +
      std::to_string(s.outstanding) + " outstanding, run " + FormatDuration(s.run_nanos) +
      ", ramp " + FormatDuration(s.ramp_nanos) + ", test range the whole data area (" +
      std::to_string(s.data_bytes) + " B)";
  return rep;
}

}  // namespace sb::session
