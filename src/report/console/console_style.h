// The console of the tool a workload imitates, chosen by name: DVD Store 3's status lines and
// closing (ds3xdriver.cs), sysbench's interval lines and report, Swingbench charbench's lines. A
// workload names its style (workload::Shape::console); the command line creates it from a
// ConsoleRegistry it fills with the built-in styles, and hands it the run's events. A style
// prints only what the peer tool prints; the live outputs beside it (--progress json, the status
// CSV, Prometheus) and storebench's own summary stay with the caller.
#ifndef STOREBENCH_REPORT_CONSOLE_CONSOLE_STYLE_H_
#define STOREBENCH_REPORT_CONSOLE_CONSOLE_STYLE_H_

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/run_result.h"
#include "report/console/dvdstore_console.h"
#include "report/console/sysbench_report.h"
#include "storebench/status.h"

namespace sb::report {

// The command line's settings a style reads, as plain values.
struct ConsoleSettings {
  bool human = true;   // --progress human: the tool's periodic lines are printed
  bool ds2 = false;    // --ds2_mode: DS2's stream layout (everything but "Run over" on stderr)
  int percentile = 0;  // sysbench's --percentile
  int64_t report_every = 0;  // --log_freq: seconds between sysbench's interval lines
  int64_t threads = 0;       // --n_threads
  bool histogram = false;    // sysbench's --histogram
  bool quiet = false;        // sysbench's --verbosity below 3 (LOG_NOTICE): none of its lines
  SysbenchHeader sysbench_header;  // what sysbench's header lines say (the sysbench style)
  bool detailed_view = false;      // DVD Store 3's --detailed_view: each target's status line
  Ds3Parameters ds3_parameters;    // DVD Store 3's parameter echo (n_threads set at Begin)
};

// What the run is about to be, at Begin.
struct RunStart {
  int64_t users = 0;           // the workers, or the terminals they serve
  int64_t log_freq_sec = 0;    // seconds between status lines
  int64_t threads = 0;         // every instance's threads together
  bool speaks = true;          // false on an MPI rank other than 0: no preamble there
  std::string first_instance;  // the first instance's name (its status line leads a block)
};

// What the workload counted from Start to the end (warm-up and wind-down included), with the
// names the workload's Shape gives them.
struct WholeRunCounts {
  std::vector<std::string> step_types;  // step type s is types[1 + s]
  std::vector<uint64_t> types;          // counts: [0] units, then step types
  std::vector<int64_t> counters;        // the workload's counters
  int rollback_counter = -1;            // index into counters, or -1
};

class ConsoleStyle {
 public:
  virtual ~ConsoleStyle() = default;

  // A line of the run's own (the controller's, a worker's message) on the tool's stream.
  void Line(const std::string& line) const;
  // Before the workers connect.
  virtual void Begin(const RunStart& start) {}
  // A worker thread was created (`connected` false) or connected to `target`; from the workers'
  // threads, concurrently.
  virtual void OnThread(int64_t thread, const std::string& target, bool connected) {}
  // Every worker is connected and the run starts.
  virtual void OnStart() = 0;
  // A status line's figures; `ts_prefix` is --log_timestamp's prefix.
  virtual void OnStatus(const metrics::StatusFigures& f, const std::string& ts_prefix) = 0;
  // One instance's status, after the aggregate's, when several run.
  virtual void OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) = 0;
  // True when the style needs each interval's unit latencies (OnIntervalUnits before OnInterval).
  virtual bool WantsIntervalUnits() const { return false; }
  virtual void OnIntervalUnits(const metrics::Histogram& h) {}
  // A new point of the aggregate's series (`series` outlives the run).
  virtual void OnInterval(const metrics::TimeSeries& series) {}
  // The tool's closing lines after the run, before storebench's summary; `per_instance` holds
  // each instance's counts when several ran (else empty).
  virtual void Close(const metrics::RunResult& r, const WholeRunCounts& whole_run,
                     const std::vector<WholeRunCounts>& per_instance) = 0;
  // True when stdout is the tool's alone, so storebench's own summary goes to stderr (DVD Store
  // 3: `ds3xdriver ... | tail -1` reads "Run over").
  virtual bool SummaryOnStderr() const { return false; }
  // Lines in the tool's own words under storebench's summary, from a result's figures (HammerDB's
  // NOPM line); `db_product` names the server ("PostgreSQL", "MariaDB", "SQLite").
  virtual std::vector<std::string> ResultLines(
      const std::vector<std::pair<std::string, double>>& /*figures*/,
      const std::string& /*db_product*/) const {
    return {};
  }

 protected:
  explicit ConsoleStyle(FILE* stream) : stream_(stream) {}
  FILE* stream() const { return stream_; }

 private:
  FILE* stream_;
};

using ConsoleFactory = std::function<std::unique_ptr<ConsoleStyle>(const ConsoleSettings&)>;

// Console styles by name, filled by the command line as back ends and workloads are.
class ConsoleRegistry {
 public:
  void Register(const std::string& name, ConsoleFactory factory);
  // A new style; an unknown name is InvalidArgument naming the known ones.
  Result<std::unique_ptr<ConsoleStyle>> Create(const std::string& name,
                                               const ConsoleSettings& settings) const;
  // In registration order.
  std::vector<std::string> Names() const;

 private:
  struct Entry {
    std::string name;
    ConsoleFactory factory;
  };
  std::vector<Entry> entries_;
};

// The built-in styles, registered under "dvdstore", "sysbench", "charbench" and "hammerdb" (DVD
// Store's lines with HammerDB's result lines, for the TPC-C-like workload).
std::unique_ptr<ConsoleStyle> NewDvdStoreConsole(const ConsoleSettings& settings);
std::unique_ptr<ConsoleStyle> NewSysbenchConsole(const ConsoleSettings& settings);
std::unique_ptr<ConsoleStyle> NewCharbenchConsole(const ConsoleSettings& settings);
std::unique_ptr<ConsoleStyle> NewHammerDbConsole(const ConsoleSettings& settings);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_CONSOLE_STYLE_H_
