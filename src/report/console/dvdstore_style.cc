// DVD Store 3's console (ds3xdriver.cs): the controller's lines, a status line every --log_freq
// seconds, and the closing: the Final line, the controller's last line, the purchases and
// rollbacks since Start (for a workload with DVD Store's purchase step), "Run over". Swingbench
// charbench's console keeps that frame and prints its own periodic line and end summary;
// HammerDB's adds its result lines under storebench's summary.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "report/console/charbench_console.h"
#include "report/console/console_style.h"
#include "report/console/dvdstore_console.h"
#include "report/console/hammerdb_lines.h"
#include "report/console/instances_console.h"

namespace sb::report {
namespace {

class DvdStoreConsole : public ConsoleStyle {
 public:
  // DVD Store 3's stream layout: the controller's lines, status lines, thread messages and the
  // Final line on stdout ("ds3xdriver ... > run.log" keeps them all), with --ds2_mode=Y too
  // (ds3xdriver.cs writes every line with Console.WriteLine whatever the mode). `ds3_frame`:
  // DS3's preamble, per-target lines and a stdout of its own (not for charbench's frame).
  DvdStoreConsole(const ConsoleSettings& s, bool ds3_frame)
      : ConsoleStyle(stdout), s_(s), ds3_frame_(ds3_frame) {}

  void Begin(const RunStart& start) override {
    threads_total_ = start.threads;
    speaks_ = start.speaks;
    first_instance_ = start.first_instance;
    if (!ds3_frame_ || !speaks_ || !s_.human) return;
    // DVD Store 3's first two lines (ds3xdriver.cs, Controller): the run's thread count and the
    // echo of its parameters, n_threads counting every target's threads.
    Ds3Parameters p = s_.ds3_parameters;
    p.n_threads = std::to_string(start.threads);
    Line(ThreadsTotalLine(start.threads));
    Line(FormatParameterLine(p));
  }
  void OnThread(int64_t thread, const std::string& target, bool connected) override {
    // Under mpirun, rank 0 alone (its own threads: each rank numbers its share from 0).
    if (!ds3_frame_ || !speaks_ || !s_.human) return;
    std::lock_guard lock(threads_mu_);
    if (connected) {
      Line(ThreadConnectedLine(thread, target));
      return;
    }
    Line(ThreadCreatedLine(thread));
    // DS3's controller says so once every thread has started (before they all connect).
    if (++threads_created_ == threads_total_) {
      Line("Controller (" + FinalLineDateTime(std::chrono::system_clock::now()) +
           "): all threads running");
    }
  }
  void OnStart() override {
    Line("Controller (" + FinalLineDateTime(std::chrono::system_clock::now()) +
         "): all threads connected - issuing Start");
  }
  void OnStatus(const metrics::StatusFigures& f, const std::string& ts_prefix) override {
    if (s_.human) Line(FormatStatusLine(f, ts_prefix));
  }
  // DS3 prints each target's status line only with detailed_view=Y, under a heading, each
  // followed by a newline on stderr (ds3xdriver.cs, without a perf host).
  void OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) override {
    if (!s_.human || !ds3_frame_ || !s_.detailed_view) return;
    if (name == first_instance_) Line(std::string("\n") + kIndividualStatsLine);
    Line(FormatStatusLine(f, ""));
    std::fputc('\n', stderr);
  }
  void Close(const metrics::RunResult& r, const WholeRunCounts& whole_run,
             const std::vector<WholeRunCounts>& per_instance) override {
    // DS3's closing: the Final line after an empty line (with several targets, each target's
    // under a heading), then (its threads have stopped) the controller's last line, the
    // purchases and rollbacks since Start (and per target), and "Run over" (ds3xdriver.cs).
    const auto now = std::chrono::system_clock::now();
    std::fprintf(stream(), "\n%s\n", FormatFinalLine(r, FinalLineDateTime(now)).c_str());
    const bool targets = ds3_frame_ && per_instance.size() > 1 &&
                         r.instances.size() == per_instance.size();
    if (ds3_frame_) std::fputc('\n', stderr);  // DS3 without a perf host
    if (targets) {
      Line(std::string("\n") + kIndividualStatsLine);
      for (const auto& in : r.instances) {
        Line(FormatTargetFinalLine(in));
        std::fputc('\n', stderr);
      }
    }
    CloseSummary(r);
    Line("Controller (" + FinalLineDateTime(now) + "): all threads stopped, exiting");
    if (const std::string line = FromStartLine(whole_run); !line.empty()) Line(line);
    if (targets) {
      Line(std::string("\n") + kIndividualStatsLine);
      for (const WholeRunCounts& w : per_instance) {
        if (const std::string line = FromStartLine(w); !line.empty()) Line(line);
      }
    }
    std::printf("Run over\n");
    std::fflush(stdout);
  }
  bool SummaryOnStderr() const override { return ds3_frame_; }

 protected:
  // Between the Final line and the controller's last line (charbench's end summary).
  virtual void CloseSummary(const metrics::RunResult& /*r*/) {}
  bool human() const { return s_.human; }

 private:
  // ds3xdriver.cs after "all threads stopped": purchases and rollbacks since Start, so X - Y is
  // the number of new orders the run stored; "" for a workload without a purchase step.
  static std::string FromStartLine(const WholeRunCounts& w) {
    size_t purchase = 0;
    while (purchase < w.step_types.size() && w.step_types[purchase] != "purchase") ++purchase;
    if (purchase == w.step_types.size()) return "";
    const size_t type = 1 + purchase;
    const int64_t purchases = w.types.size() > type ? static_cast<int64_t>(w.types[type]) : 0;
    const int64_t rollbacks =
        w.rollback_counter >= 0 && w.counters.size() > static_cast<size_t>(w.rollback_counter)
            ? w.counters[w.rollback_counter]
            : 0;
    return "n_purchase_from_start= " + std::to_string(purchases) +
           " n_rollbacks_from_start= " + std::to_string(rollbacks);
  }

  const ConsoleSettings s_;
  const bool ds3_frame_;
  std::mutex threads_mu_;
  int64_t threads_total_ = 0, threads_created_ = 0;
  bool speaks_ = true;
  std::string first_instance_;
};

// Swingbench charbench: "time users TPM TPS errors <one rate per step type>" on stderr under a
// header, from the aggregate's series, and its end summary after the Final line.
class CharbenchConsole : public DvdStoreConsole {
 public:
  explicit CharbenchConsole(const ConsoleSettings& s) : DvdStoreConsole(s, false) {}

  void Begin(const RunStart& start) override {
    DvdStoreConsole::Begin(start);
    users_ = start.users;
    log_freq_sec_ = start.log_freq_sec;
  }
  void OnStatus(const metrics::StatusFigures& f, const std::string& ts_prefix) override {
    // Before the first point of the series, DVD Store's line stands in.
    if (last_series_ == nullptr) return DvdStoreConsole::OnStatus(f, ts_prefix);
    if (!human()) return;
    if (!header_printed_) {
      std::fprintf(stderr, "%s\n", CharbenchHeader(*last_series_).c_str());
      header_printed_ = true;
    }
    std::fprintf(
        stderr, "%s\n",
        FormatCharbenchLine(*last_series_, users_, log_freq_sec_, std::chrono::system_clock::now())
            .c_str());
  }
  void OnInterval(const metrics::TimeSeries& series) override { last_series_ = &series; }

 protected:
  void CloseSummary(const metrics::RunResult& r) override {
    std::printf("%s", FormatCharbenchSummary(r).c_str());
  }

 private:
  int64_t users_ = 0;
  int64_t log_freq_sec_ = 0;
  const metrics::TimeSeries* last_series_ = nullptr;
  bool header_printed_ = false;
};

// HammerDB's users see DVD Store's frame here, and HammerDB's result lines under the summary.
class HammerDbConsole : public DvdStoreConsole {
 public:
  explicit HammerDbConsole(const ConsoleSettings& s) : DvdStoreConsole(s, true) {}
  std::vector<std::string> ResultLines(const std::vector<std::pair<std::string, double>>& figures,
                                       const std::string& db_product) const override {
    return HammerDbResultLines(figures, db_product);
  }
};

}  // namespace

std::unique_ptr<ConsoleStyle> NewDvdStoreConsole(const ConsoleSettings& settings) {
  return std::make_unique<DvdStoreConsole>(settings, true);
}

std::unique_ptr<ConsoleStyle> NewCharbenchConsole(const ConsoleSettings& settings) {
  return std::make_unique<CharbenchConsole>(settings);
}

std::unique_ptr<ConsoleStyle> NewHammerDbConsole(const ConsoleSettings& settings) {
  return std::make_unique<HammerDbConsole>(settings);
}

}  // namespace sb::report
