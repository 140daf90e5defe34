// DVD Store 3's console (ds3xdriver.cs): the controller's lines, a status line every --log_freq
// seconds, and the closing: the Final line, the controller's last line, the purchases and
// rollbacks since Start (for a workload with DVD Store's purchase step), "Run over". Swingbench
// charbench's console keeps that frame and prints its own periodic line and end summary;
// HammerDB's adds its result lines under storebench's summary.
#include <chrono>
#include <cstdio>

#include "report/console/charbench_console.h"
#include "report/console/console_style.h"
#include "report/console/dvdstore_console.h"
#include "report/console/hammerdb_lines.h"
#include "report/console/instances_console.h"

namespace sb::report {
namespace {

class DvdStoreConsole : public ConsoleStyle {
 public:
  // DVD Store's stream layout: DS3 writes the controller's lines, status lines, thread messages
  // and the Final line to stdout ("ds3xdriver ... > run.log" keeps them all), DS2 everything but
  // "Run over" to stderr (ds3xdriver.cs, ds2xdriver.cs).
  explicit DvdStoreConsole(const ConsoleSettings& s)
      : ConsoleStyle(s.ds2 ? stderr : stdout), human_(s.human) {}

  void OnStart() override {
    Line("Controller (" + FinalLineDateTime(std::chrono::system_clock::now()) +
         "): all threads connected - issuing Start");
  }
  void OnStatus(const metrics::StatusFigures& f, const std::string& ts_prefix) override {
    if (human_) Line(FormatStatusLine(f, ts_prefix));
  }
  void OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) override {
    if (human_) Line("  " + FormatInstanceStatusLine(name, f, ""));
  }
  void Close(const metrics::RunResult& r, const WholeRunCounts& whole_run) override {
    // DS3's closing: the Final line after an empty line, then (its threads have stopped) the
    // controller's last line, the purchases and rollbacks since Start, and "Run over".
    const auto now = std::chrono::system_clock::now();
    std::fprintf(stream(), "\n%s\n", FormatFinalLine(r, FinalLineDateTime(now)).c_str());
    CloseSummary(r);
    Line("Controller (" + FinalLineDateTime(now) + "): all threads stopped, exiting");
    if (const std::string line = FromStartLine(whole_run); !line.empty()) Line(line);
    std::printf("Run over\n");
    std::fflush(stdout);
  }

 protected:
  // Between the Final line and the controller's last line (charbench's end summary).
  virtual void CloseSummary(const metrics::RunResult& /*r*/) {}
  bool human() const { return human_; }

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

  const bool human_;
};

// Swingbench charbench: "time users TPM TPS errors <one rate per step type>" on stderr under a
// header, from the aggregate's series, and its end summary after the Final line.
class CharbenchConsole : public DvdStoreConsole {
 public:
  explicit CharbenchConsole(const ConsoleSettings& s) : DvdStoreConsole(s) {}

  void Begin(int64_t users, int64_t log_freq_sec) override {
    users_ = users;
    log_freq_sec_ = log_freq_sec;
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
  explicit HammerDbConsole(const ConsoleSettings& s) : DvdStoreConsole(s) {}
  std::vector<std::string> ResultLines(const std::vector<std::pair<std::string, double>>& figures,
                                       const std::string& db_product) const override {
    return HammerDbResultLines(figures, db_product);
  }
};

}  // namespace

std::unique_ptr<ConsoleStyle> NewDvdStoreConsole(const ConsoleSettings& settings) {
  return std::make_unique<DvdStoreConsole>(settings);
}

std::unique_ptr<ConsoleStyle> NewCharbenchConsole(const ConsoleSettings& settings) {
  return std::make_unique<CharbenchConsole>(settings);
}

std::unique_ptr<ConsoleStyle> NewHammerDbConsole(const ConsoleSettings& settings) {
  return std::make_unique<HammerDbConsole>(settings);
}

}  // namespace sb::report
