// Each instance's latency in a run of several: the aggregate's percentiles merge every
// instance's units, so one slow instance (a server with less memory, a noisy neighbour) hides in
// them; a consolidation report shows each.
#include <cstdint>
#include <string>

#include "report/html/html_parts.h"

namespace sb::report::html {

std::string InstanceLatencyFigure(const metrics::RunResult& r, const std::string& id) {
  if (r.instances.empty()) return "";
  Table t(id + "-instance-latency", {"instance", "operation", "count", "mean ms", "p50 ms",
                                     "p95 ms", "p99 ms", "p99.9 ms", "max ms"});
  BarChart bars;
  bars.title = "p50 and p99 latency of each instance per operation type (measured window)";
  bars.value_label = "milliseconds (log scale)";
  bars.log_scale = true;
  for (const metrics::RunResult& i : r.instances) {
    for (size_t k = 0; k < i.type_names.size() && k < i.latency.size(); ++k) {
      const metrics::LatencySummary& l = i.latency[k];
      t.Row({Text(i.name), Text(i.type_names[k]), Int(static_cast<int64_t>(l.count)),
             Num(l.mean_ms), Num(l.p50_ms), Num(l.p95_ms), Num(l.p99_ms), Num(l.p999_ms),
             Num(l.max_ms)});
      if (l.count == 0) continue;
      bars.bars.push_back({i.name + " · " + i.type_names[k] + " p50", l.p50_ms});
      bars.bars.push_back({i.name + " · " + i.type_names[k] + " p99", l.p99_ms});
    }
  }
  if (bars.bars.empty()) return "<h4>Latency per instance</h4>" + t.Html();
  return "<h4>Latency per instance</h4>" +
         Figure(RenderBarChart(bars, id + "-instance-latency-chart"), t,
                "Latency percentiles of each instance over its measured window");
}

}  // namespace sb::report::html
