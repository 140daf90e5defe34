#include "driver/db_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

namespace sb::driver {
namespace {

int64_t FloorMsec(double nanos) { return static_cast<int64_t>(std::floor(nanos / 1e6)); }

}  // namespace

workload::Totals ToTotals(const metrics::RecorderSnapshot& s, const Layout& layout) {
  workload::Totals t;
  for (int i = 0; i <= layout.steps; ++i) {
    t.types.push_back({s.types[i].count(), s.types[i].sum(),
                       s.types[i].count() > 0 ? s.types[i].ValueAtPercentile(90) : 0});
  }
  t.counters.assign(s.counters.begin(), s.counters.begin() + layout.workload_counters);
  return t;
}

std::vector<int64_t> SeriesCounters(const metrics::RecorderSnapshot& s, const Layout& layout) {
  std::vector<int64_t> c(s.counters.begin(), s.counters.begin() + layout.workload_counters);
  for (int k = 1; k < kNumCategories; ++k) {
    c.push_back(s.counters[layout.ErrorIndex(static_cast<ErrorCategory>(k))]);
  }
  c.push_back(s.counters[layout.retries()]);
  c.push_back(s.counters[layout.late()]);
  c.push_back(s.counters[layout.reconnects()]);
  return c;
}

DbView::DbView(std::vector<const DbInstance*> instances, std::vector<int> members,
               const workload::Shape& shape, const RunOptions& options)
    : instances_(std::move(instances)),
      members_(std::move(members)),
      shape_(shape),
      layout_(instances_[members_[0]]->layout()),
      options_(options),
      open_(instances_[members_[0]]->open_loop()) {
  reported_types_ = 1 + layout_.steps + (open_ ? 1 : 0);
  series_.type_names.push_back(shape.unit_name);
  for (const auto& t : shape.step_types) series_.type_names.push_back(t);
  if (open_) series_.type_names.emplace_back("schedule_lag");
  series_.counter_names = shape.counters;
  for (int c = 1; c < kNumCategories; ++c) {
    series_.counter_names.push_back(std::string("errors.") +
                                    ErrorCategoryName(static_cast<ErrorCategory>(c)));
  }
  series_.counter_names.emplace_back("retries");
  series_.counter_names.emplace_back("late");
  series_.counter_names.emplace_back("reconnects");
}

metrics::RecorderSnapshot DbView::Merge(const std::vector<metrics::RecorderSnapshot>& per) const {
  if (members_.size() == 1) return per[members_[0]];
  metrics::RecorderSnapshot m;
  for (int i : members_) m.Merge(per[i]);
  return m;
}

int64_t DbView::LastNMaxNanos(int64_t since) const {
  int64_t mx = 0;
  for (int i : members_) mx = std::max(mx, instances_[i]->LastNMaxNanos(since));
  return mx;
}

metrics::StatusFigures DbView::Figures(const metrics::RecorderSnapshot& snap, int64_t now) const {
  metrics::StatusFigures f;
  const metrics::Histogram& unit = snap.types[0];
  const metrics::Histogram& unit_base = base_.types[0];
  f.et_sec = static_cast<double>(now - reset_at_) / 1e9;
  f.n_overall = static_cast<int64_t>(unit.count() - unit_base.count());
  f.opm = f.et_sec > 0
              ? static_cast<int64_t>(std::floor(60.0 * static_cast<double>(f.n_overall) / f.et_sec))
              : 0;
  f.rt_tot_lastn_max_msec = FloorMsec(static_cast<double>(LastNMaxNanos(reset_at_)));
  f.rt_tot_avg_msec = f.n_overall > 0
                          ? FloorMsec(static_cast<double>(unit.sum() - unit_base.sum()) /
                                      static_cast<double>(f.n_overall))
                          : 0;
  const auto dn = static_cast<int64_t>(unit.count() - at_status_.types[0].count());
  f.rt_tot_sampled = dn > 0
                         ? FloorMsec(static_cast<double>(unit.sum() - at_status_.types[0].sum()) /
                                     static_cast<double>(dn))
                         : 0;
  if (shape_.rollback_counter >= 0) {
    f.n_rollbacks =
        snap.counters[shape_.rollback_counter] - base_.counters[shape_.rollback_counter];
  }
  f.rollback_pct = f.n_overall > 0 ? 100.0 * static_cast<double>(f.n_rollbacks) /
                                         static_cast<double>(f.n_overall)
                                   : 0;
  return f;
}

void DbView::OnReset(const std::vector<metrics::RecorderSnapshot>& at_reset, int64_t reset_at) {
  base_ = Merge(at_reset);
  at_status_ = base_;
  reset_at_ = reset_at;
  started_ = true;
}

metrics::StatusFigures DbView::OnSample(const Sample& s) {
  if (!started_) OnReset(*s.at_reset, s.reset_at);
  last_ = Merge(*s.cumulative);
  const metrics::RecorderSnapshot interval = Merge(*s.interval);
  metrics::IntervalPoint p;
  p.t_sec = s.t_sec;
  p.phase = s.warmup ? "warmup" : "measure";
  for (int i = 0; i < reported_types_; ++i) {
    const metrics::Histogram& h = interval.types[i];
    p.type_counts.push_back(h.count());
    p.type_mean_ms.push_back(h.mean() / 1e6);
    p.type_p99_ms.push_back(static_cast<double>(h.ValueAtPercentile(99)) / 1e6);
  }
  p.counters = SeriesCounters(interval, layout_);
  series_.points.push_back(std::move(p));
  const metrics::StatusFigures f = Figures(last_, s.now);
  last_sampled_ = f.rt_tot_sampled;
  for (int w : s.windows_started) {
    if (static_cast<size_t>(w) >= running_start_.size()) running_start_.resize(w + 1, 0);
    running_start_[w] = static_cast<double>(f.opm);
  }
  for (int w : s.windows_ended) {
    if (static_cast<size_t>(w) >= running_end_.size()) running_end_.resize(w + 1, 0);
    running_end_[w] = static_cast<double>(f.opm);
  }
  return f;
}

metrics::LiveTotals DbView::Live() const {
  metrics::LiveTotals t;
  if (last_.types.empty()) return t;  // no sample yet
  t.unit = shape_.unit_name;
  t.units.push_back(last_.types[0]);
  for (int i = 0; i < layout_.steps && static_cast<size_t>(i) < shape_.step_types.size(); ++i) {
    t.step_names.push_back(shape_.step_types[i]);
    t.steps.push_back(last_.types[1 + i]);
  }
  if (open_) t.schedule_lag = last_.types[1 + layout_.steps];
  t.counter_names = series_.counter_names;
  t.counters = SeriesCounters(last_, layout_);
  return t;
}

void DbView::MarkStatus() {
  at_status_ = last_;
  status_sampled_ = last_sampled_;
}

workload::Totals DbView::WholeRun(const ControllerOutcome& run) const {
  return ToTotals(Merge(run.after_join), layout_);
}

workload::Totals DbView::SinceReset(const ControllerOutcome& run) const {
  metrics::RecorderSnapshot span = Merge(run.after_join);
  span.Subtract(Merge(run.at_reset));
  return ToTotals(span, layout_);
}

std::vector<metrics::WindowResult> DbView::MeasureWindows(const ControllerOutcome& run,
                                                          double opm_at_end,
                                                          const metrics::TimeSeries& series) const {
  const std::vector<metrics::HeadlineSpec>& headlines = shape_.headlines;
  const int64_t t0 = run.t0;
  std::vector<metrics::WindowResult> windows;
  for (size_t i = 0; i < run.windows.size(); ++i) {
    const WindowMeasure& m = run.windows[i];
    metrics::WindowResult w;
    w.label = m.spec.label;
    w.start_sec = m.spec.start_sec;
    w.end_sec = m.spec.end_sec;
    if (m.started) {
      const metrics::RecorderSnapshot d = Merge(m.delta);
      w.complete = m.complete;
      w.running_start = i < running_start_.size() ? running_start_[i] : 0;
      w.running_end = m.complete && i < running_end_.size() ? running_end_[i] : opm_at_end;
      for (int t = 0; t < reported_types_; ++t) {
        w.latency.push_back(metrics::LatencySummary::From(d.types[t]));
      }
      const double secs = static_cast<double>(m.end_at - t0) / 1e9 - m.spec.start_sec;
      w.per_minute = secs > 0 ? 60.0 * static_cast<double>(d.types[0].count()) / secs : 0;
      for (const metrics::HeadlineSpec& h : headlines) {
        w.headlines.emplace_back(h.name, h.Rate(h.Count(d), secs));
      }
    }
    const metrics::Spread sp =
        metrics::SpreadOf(metrics::PerSecond(series, 0, w.start_sec, w.end_sec));
    w.per_sec_min = sp.min;
    w.per_sec_mean = sp.mean;
    w.per_sec_median = sp.median;
    w.per_sec_max = sp.max;
    windows.push_back(std::move(w));
  }
  return windows;
}

metrics::RunResult DbView::Finish(const ControllerOutcome& run) {
  metrics::RunResult r;
  r.series = series_;
  if (!run.warmed_up) {
    // Stopped during warm-up: nothing was measured. The measured window is empty (at the end,
    // zero long), as a storage run's is; the warm-up stays in the time series as warm-up.
    OnReset(run.at_end, run.end_at);
    r.warnings.push_back(
        "the run stopped during warm-up: there is no measured window, and every figure of it "
        "is empty");
  } else if (!started_) {
    OnReset(run.at_reset, run.reset_at);
  }
  // Final statistics at the end instant; units finishing during wind-down are not in them.
  const metrics::RecorderSnapshot final_snap = Merge(run.at_end);
  const metrics::RecorderSnapshot whole = Merge(run.after_join);
  const int64_t t0 = run.t0;
  metrics::StatusFigures fin = Figures(final_snap, run.end_at);
  fin.rt_tot_sampled = status_sampled_;
  r.interrupted = run.interrupted;
  r.connect_sec = static_cast<double>(run.connect_nanos) / 1e9;

  const std::vector<metrics::HeadlineSpec>& headlines = shape_.headlines;
  std::vector<metrics::WindowResult> windows =
      MeasureWindows(run, static_cast<double>(fin.opm), r.series);
  for (const auto& w : options_.windows) {
    for (const auto& o : windows) {
      if (o.label == w.label) r.windows.push_back(o);
    }
  }
  {
    // By time, not by phase label: the point covering a pause for the server's reading comes
    // before the reset, and the ticks caught up after it are milliseconds long.
    std::vector<double> measured;
    if (run.warmed_up) {
      measured =
          metrics::MeasuredPerSecond(r.series, 0, static_cast<double>(run.reset_at - t0) / 1e9,
                                     static_cast<double>(run.end_at - t0) / 1e9);
    }
    // The last point may be a partial second when the run was stopped early.
    if (r.interrupted && !measured.empty()) measured.pop_back();
    r.steady_state = metrics::DetectSteadyState(measured, options_.steady_max_slope_pct,
                                                options_.steady_max_cv_pct);
  }

  metrics::RecorderSnapshot window = final_snap;
  window.Subtract(base_);
  r.final_status = fin;
  r.measured_sec = fin.et_sec;
  r.type_names = r.series.type_names;
  for (int i = 0; i < reported_types_; ++i) {
    r.latency.push_back(metrics::LatencySummary::From(window.types[i]));
  }
  for (int c = 0; c < layout_.workload_counters; ++c) {
    r.counters[shape_.counters[c]] = window.counters[c];
  }
  if (options_.latency_limit_nanos > 0) r.counters["late"] = window.counters[layout_.late()];
  for (int c = 1; c < kNumCategories; ++c) {
    r.errors[ErrorCategoryName(static_cast<ErrorCategory>(c))] =
        whole.counters[layout_.ErrorIndex(static_cast<ErrorCategory>(c))];
  }
  r.retries = whole.counters[layout_.retries()];
  if (const int64_t n = whole.counters[layout_.reconnects()]; n > 0) {
    r.counters["reconnects"] = n;
    int64_t idle = 0;  // measured seconds in which no unit completed: the outage as users saw it
    for (const auto& p : r.series.points) {
      if (p.phase == "measure" && !p.type_counts.empty() && p.type_counts[0] == 0) ++idle;
    }
    r.counters["seconds_without_units"] = idle;
  }
  for (int i : members_) {
    r.workers_started += instances_[i]->threads();
    r.workers_failed += instances_[i]->workers_failed();
    r.workers_stalled += instances_[i]->workers_stalled();
  }
  workload::WindowFacts facts;
  facts.elapsed_sec = fin.et_sec;
  facts.unit_lastn_max_msec = fin.rt_tot_lastn_max_msec;
  facts.unit_sampled_msec = fin.rt_tot_sampled;
  if (members_.size() > 1) {
    for (int i : members_) facts.merged.push_back(&instances_[i]->workload());
  }
  r.figures = instances_[members_[0]]->workload().Figures(ToTotals(window, layout_),
                                                          ToTotals(final_snap, layout_), facts);
  r.headline_name = shape_.headline_name;
  r.headline_specs = headlines;
  r.headline_value = static_cast<double>(fin.opm);
  for (const metrics::HeadlineSpec& h : headlines) {
    // The first headline is DVD Store's integral OPM; the others are exact rates.
    r.headlines.emplace_back(
        h.name, r.headlines.empty() ? r.headline_value : h.Rate(h.Count(window), fin.et_sec));
  }

  // The measured window as a window of its own, for rules on "@run".
  metrics::WindowResult whole_window;
  whole_window.label = metrics::kWholeRunWindow;
  whole_window.start_sec = static_cast<double>(reset_at_ - t0) / 1e9;
  whole_window.end_sec = static_cast<double>(run.end_at - t0) / 1e9;
  whole_window.complete = !r.interrupted;
  whole_window.latency = r.latency;
  whole_window.per_minute =
      fin.et_sec > 0 ? 60.0 * static_cast<double>(window.types[0].count()) / fin.et_sec : 0;
  whole_window.running_start = whole_window.running_end = static_cast<double>(fin.opm);
  whole_window.headlines = r.headlines;
  const metrics::Spread whole_sp = metrics::SpreadOf(
      metrics::PerSecond(r.series, 0, whole_window.start_sec, whole_window.end_sec));
  whole_window.per_sec_min = whole_sp.min;
  whole_window.per_sec_mean = whole_sp.mean;
  whole_window.per_sec_median = whole_sp.median;
  whole_window.per_sec_max = whole_sp.max;
  windows.push_back(whole_window);
  const std::string unit_plural = shape_.unit_name + "s";
  metrics::BaselineContext context;
  context.series = &r.series;
  context.reset_sec = static_cast<double>(reset_at_ - t0) / 1e9;
  context.headlines = &headlines;
  for (const auto& b : options_.baselines) {
    for (const auto& o : windows) {
      if (o.label == b.window.label) {
        r.baselines.push_back(metrics::EvaluateBaseline(b, o, unit_plural, context));
        break;
      }
    }
  }
  return r;
}

}  // namespace sb::driver
