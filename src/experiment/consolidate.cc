#include "experiment/consolidate.h"

#include <algorithm>

#include "experiment/deciding_window.h"
#include "experiment/run_class.h"

namespace sb::experiment {

using report::Search;
using report::SearchCount;
using report::SearchRun;

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

SearchRun Summarize(const RunReport& run) {
  const metrics::RunResult& r = run.result;
  SearchRun s;
  s.result_file = run.result_file;
  s.exit_code = run.exit_code;
  s.passed = run.outcome == RunOutcome::kCompleted && !r.baselines.empty() &&
             std::all_of(r.baselines.begin(), r.baselines.end(),
                         [](const metrics::BaselineResult& b) { return b.passed; });
  s.deciding = r.baselines.empty() ? 0 : r.baselines[0].measured;
  s.aggregate = r.headline_value;
  std::vector<double> per;
  if (r.instances.empty()) {
    per.push_back(r.headline_value);
  } else {
    for (const auto& in : r.instances) per.push_back(in.headline_value);
  }
  s.instance_min = *std::min_element(per.begin(), per.end());
  s.instance_median = Median(per);
  s.window = DecidingWindow(r);
  RunClass cls = ClassifyRun(run, s.passed);
  s.run_class = std::move(cls.name);
  s.class_reason = std::move(cls.reason);
  return s;
}

int MedianRun(const std::vector<SearchRun>& runs) {
  std::vector<int> order(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return runs[a].deciding < runs[b].deciding; });
  return order[(order.size() - 1) / 2];
}

void DecideCount(SearchCount* c) {
  c->median_run = MedianRun(c->runs);
  c->passed = c->runs[c->median_run].passed;
}

int NextCount(const Search& s) {
  int last_pass = 0, first_fail = 0;
  for (const SearchCount& c : s.counts) {
    if (c.median_run < 0) return c.count;  // unfinished: resume it
    if (c.passed) last_pass = std::max(last_pass, c.count);
    if (!c.passed && (first_fail == 0 || c.count < first_fail)) first_fail = c.count;
  }
  if (s.counts.empty()) return s.from;
  if (first_fail == 0) {
    // Everything so far passed: go up.
    const int last = s.counts.back().count;
    if (last >= s.to) return 0;
    return s.step == "doubling" ? std::min(s.to, last * 2) : last + 1;
  }
  if (first_fail == s.from || first_fail - last_pass <= 1) return 0;
  if (s.step == "linear") return 0;
  return last_pass + (first_fail - last_pass) / 2;  // bisect between them
}

int Peak(const Search& s) {
  int peak = 0;
  for (const SearchCount& c : s.counts) {
    if (c.passed) peak = std::max(peak, c.count);
  }
  return peak;
}

SearchResult RunSearch(Search* s, SearchSteps& steps) {
  for (int count = NextCount(*s); count > 0; count = NextCount(*s)) {
    // An index, not a pointer: the runs below do not add counts, but resuming may have.
    size_t at = s->counts.size();
    for (size_t i = 0; i < s->counts.size(); ++i) {
      if (s->counts[i].count == count) at = i;
    }
    if (at == s->counts.size()) s->counts.push_back({count, {}, -1, false});
    while (static_cast<int>(s->counts[at].runs.size()) < s->runs) {
      const int run_no = static_cast<int>(s->counts[at].runs.size()) + 1;
      // Counted from the file, so a resumed search goes on with the reruns it had.
      const std::vector<SearchRun>& aside = s->counts[at].set_aside;
      const int rerun = static_cast<int>(std::count_if(aside.begin(), aside.end(), [&](auto& r) {
        return r.run_no == run_no && r.run_class == kClassFault;
      }));
      RunReport run = steps.Run(count, run_no, s->runs, rerun);
      switch (run.outcome) {
        case RunOutcome::kRankLost:
          steps.Save(*s).IgnoreError();
          return {SearchEnd::kRankLost, Status::Ok()};
        case RunOutcome::kInterrupted:
          if (Status w = steps.Save(*s); !w.ok()) return {SearchEnd::kError, w};
          return {SearchEnd::kInterrupted, Status::Ok()};
        case RunOutcome::kNotStarted: {
          SearchRun line = Summarize(run);
          line.run_no = run_no;
          line.result_file.clear();  // nothing was written
          s->counts[at].set_aside.push_back(std::move(line));
          steps.Save(*s).IgnoreError();
          return {SearchEnd::kNotStarted, Status::Ok()};
        }
        case RunOutcome::kCompleted:
        case RunOutcome::kFailed:
          break;
      }
      if (run.result.baselines.empty()) {
        return {
            SearchEnd::kError,
            Status::InvalidArgument("a consolidation search needs a baseline: add --baseline (e.g. "
                                    "\"opm>=2600@23m-28m\") here or in the plan's [run]")};
      }
      if (s->headline.empty()) s->headline = run.result.headline_name;
      SearchRun line = Summarize(run);
      if (line.run_class == kClassFault && rerun < s->rerun_faults) {
        line.run_no = run_no;
        steps.SetAside(count, line);
        s->counts[at].set_aside.push_back(std::move(line));
      } else {
        s->counts[at].runs.push_back(std::move(line));
      }
      if (Status w = steps.Save(*s); !w.ok()) return {SearchEnd::kError, w};
    }
    DecideCount(&s->counts[at]);
    // The peak so far, in every saved file: an interrupted search reports the counts that
    // passed (finished says whether the search went to its end).
    s->peak = Peak(*s);
    steps.Decided(s->counts[at]);
    if (Status w = steps.Save(*s); !w.ok()) return {SearchEnd::kError, w};
  }
  s->peak = Peak(*s);
  s->finished = true;
  if (Status w = steps.Save(*s); !w.ok()) return {SearchEnd::kError, w};
  return {SearchEnd::kFinished, Status::Ok()};
}

}  // namespace sb::experiment
