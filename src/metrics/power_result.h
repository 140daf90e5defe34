// Power beside a run (plain data; docs/power.md): the sources, one point per second with each
// source's watts and their sum, and per reporting window the average power, the energy, and the
// workload's headline figures per watt and energy per unit of work.
#ifndef STOREBENCH_METRICS_POWER_RESULT_H_
#define STOREBENCH_METRICS_POWER_RESULT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sb::metrics {

struct PowerSourceResult {
  std::string spec;                    // as given, without secrets ("ptd://meter1:8888")
  std::string description;             // "PTDaemon at meter1:8888 (WT310 ...)"
  std::string measures;                // "wall", "package", "dram", "package+dram", "unknown"
  double resolution_w = 0;             // 0: unknown
  double uncertainty = -1;             // fraction of the reading; < 0: unknown
  std::string note;                    // "BMC-reported (DCMI); ..."
  bool live = true;                    // false: a log imported after the run (csv:)
  int64_t readings = 0;                // seconds with a reading
  int64_t missing = 0;                 // seconds without one (errors, late answers)
  std::vector<double> missing_at_sec;  // their t_sec (the first 1000)
  // Distinct errors, each with how often it happened: "PTDaemon answered 'Error: ...' (3×)".
  std::vector<std::string> errors;
  // The source's clock minus this host's wall clock (median over readings that carry a time).
  bool has_clock_offset = false;
  double clock_offset_sec = 0;
};

// One sampling second, t_sec from the run's Start (the controller's clock). NaN: missing.
struct PowerPoint {
  double t_sec = 0;
  std::vector<double> watts;  // parallel to PowerResult::sources
  double sum_w = 0;           // NaN unless every source has a reading
};

// Whether the reading at `t_sec` belongs to the window (start, end]. A reading stands for the
// sampling interval before it (a meter's last-second average, RAPL's energy since the previous
// read), (t − interval, t], so it belongs where the middle of that interval lies: readings
// taken a moment after each whole second (the sampler starts just after the run's Start) fall
// in the window their second lies in, not in the next.
inline bool PowerPointInWindow(double t_sec, double interval_sec, double start_sec,
                               double end_sec) {
  const double middle = t_sec - interval_sec / 2;
  return middle > start_sec && middle <= end_sec;
}

struct PowerWindow {
  std::string label;  // "measured" (warm-up end to run end) or a --window label
  double start_sec = 0, end_sec = 0;
  int64_t seconds = 0;  // points (with a complete sum) inside (start, end]: PowerPointInWindow
  int64_t missing = 0;  // points inside without a complete sum
  double avg_w = 0;     // mean of the complete sums
  double energy_j = 0;  // avg_w × (end − start)
  // Per headline metric (its name, e.g. "opm", "tps", "iops"): the figure per watt (OPM/W)
  // and the energy per counted unit in joules (J per order, per transaction, per I/O, per MiB).
  std::vector<std::pair<std::string, double>> per_watt;
  std::vector<std::pair<std::string, double>> joules_per_unit;
};

struct PowerResult {
  double interval_sec = 1.0;
  std::vector<PowerSourceResult> sources;  // empty: no power measured
  std::vector<PowerPoint> points;
  std::vector<PowerWindow> windows;
  // Phase marks sent to the sources (t_sec, mark).
  std::vector<std::pair<double, std::string>> marks;
  bool present() const { return !sources.empty(); }
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_POWER_RESULT_H_
