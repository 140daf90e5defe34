// The report's section for a storage run (io run): the VMTN table, IOPS and response time per
// access specification with reads and writes apart, the latency distribution in Iometer's bins
// on a millisecond axis, the per-second series, verdicts and CPU.
#include <algorithm>
#include <cmath>

#include "report/html/html_parts.h"

namespace sb::report::html {

namespace {

double MeanMs(int64_t sum_ns, uint64_t n) {
  return n > 0 ? static_cast<double>(sum_ns) / static_cast<double>(n) / 1e6 : NAN;
}

// The lower bound of Iometer bin `b` in ms (the first bin starts at 0; a log axis draws it at
// half its upper bound).
double BinFromMs(size_t b) { return b == 0 ? 0 : metrics::kIometerBinUpperUs[b - 1] / 1000; }

}  // namespace

std::string StorageSection(const metrics::RunResult& r, const std::string& id) {
  std::string out = "<p class='meta'>storage" +
                    (r.label.empty() ? "" : ", label <b>" + HtmlEscape(r.label) + "</b>") + ", " +
                    HtmlEscape(r.started_at) + " – " + HtmlEscape(r.ended_at) + ", " +
                    HtmlEscape(r.loop_model) + "</p>" + Warnings(r);
  // The VMTN table: the columns of the VMware Communities storage performance thread.
  Table vmtn(id + "-vmtn",
             {"Test name", "Av. Resp. Time ms", "Av. IOs/sec", "Av. MB/sec", "CPU util. %"});
  BarChart iops;
  iops.title = "IOPS per access specification";
  iops.value_label = "I/Os per second";
  BarChart lat;
  lat.title = "Response time per access specification, reads and writes";
  lat.value_label = "ms (log scale)";
  lat.log_scale = true;  // a 0.05 ms cached read beside a 20 ms synchronous write
  Table lt(id + "-storage-latency", {"specification", "read avg ms", "read p50 ms", "read p99 ms",
                                     "read p99.9 ms", "write avg ms", "write p50 ms",
                                     "write p99 ms", "write p99.9 ms", "all avg ms", "all p99 ms"});
  for (const auto& t : r.storage) {
    vmtn.Row({Text(t.name), Num(t.AvgResponseMs()), Num(t.Iops()), Num(t.MibPerSec()),
              Num(t.cpu.utilization_pct)});
    iops.bars.push_back({t.name, t.Iops()});
    const double read_avg = MeanMs(t.totals.read_latency_sum_ns, t.totals.read_ios);
    const double write_avg = MeanMs(t.totals.write_latency_sum_ns, t.totals.write_ios);
    if (t.totals.read_ios > 0) {
      lat.bars.push_back({t.name + " read avg", read_avg});
      lat.bars.push_back({t.name + " read p99", t.read_p99_ms});
    }
    if (t.totals.write_ios > 0) {
      lat.bars.push_back({t.name + " write avg", write_avg});
      lat.bars.push_back({t.name + " write p99", t.write_p99_ms});
    }
    const bool r_ = t.totals.read_ios > 0, w_ = t.totals.write_ios > 0;
    lt.Row({Text(t.name), Num(read_avg), Num(r_ ? t.read_p50_ms : NAN),
            Num(r_ ? t.read_p99_ms : NAN), Num(r_ ? t.read_p999_ms : NAN), Num(write_avg),
            Num(w_ ? t.write_p50_ms : NAN), Num(w_ ? t.write_p99_ms : NAN),
            Num(w_ ? t.write_p999_ms : NAN), Num(t.AvgResponseMs()), Num(t.all_p99_ms)});
  }
  out += "<h3>Results in the VMTN table's form</h3>" +
         Figure(RenderBarChart(iops, id + "-iops-chart"), vmtn,
                "Each access specification's measured window (MB = MiB, as Iometer counts)");
  out += Figure(RenderBarChart(lat, id + "-latency-chart"), lt,
                "Response time per specification (percentiles from the log-linear histogram)");
  // The latency distribution in Iometer's 21 bins, as a share of each specification's I/Os.
  {
    LineChart dist;
    dist.title = "Latency distribution (Iometer 1.1.0 bins), % of each specification's I/Os";
    dist.x_label = "latency, ms (log scale), at each bin's lower bound";
    dist.log_x = true;
    dist.y_label = "% of I/Os";
    dist.markers = true;
    std::vector<std::string> head = {"bin", "from ms"};
    for (const auto& t : r.storage) head.push_back(t.name + " %");
    Table bins(id + "-latency-bins", head);
    for (size_t b = 0; b < metrics::kIometerBins; ++b) {
      std::vector<Cell> row = {Text(metrics::IometerBinNames()[b]), Num(BinFromMs(b))};
      for (const auto& t : r.storage) {
        const auto n = static_cast<double>(t.totals.ios());
        row.push_back(Num(n > 0 ? 100.0 * static_cast<double>(t.totals.latency_bins[b]) / n : NAN));
      }
      bins.Row(std::move(row));
    }
    for (const auto& t : r.storage) {
      ChartSeries s{t.name, {}, {}};
      const auto n = static_cast<double>(t.totals.ios());
      for (size_t b = 0; b < metrics::kIometerBins; ++b) {
        s.x.push_back(b == 0 ? BinFromMs(1) / 2 : BinFromMs(b));
        s.y.push_back(n > 0 ? 100.0 * static_cast<double>(t.totals.latency_bins[b]) / n : NAN);
      }
      dist.series.push_back(std::move(s));
    }
    out += Figure(RenderLineChart(dist, id + "-latency-bins-chart"), bins,
                  "How response times spread over Iometer's latency bins");
  }
  // Per second, each specification from its own start.
  LineChart ci, cl;
  ci.title = "IOPS per second, each specification from its start";
  ci.x_label = "seconds since the specification's start";
  ci.y_label = "I/Os per second";
  cl.title = "Mean response time per second";
  cl.x_label = ci.x_label;
  cl.y_label = "ms (log scale)";
  cl.log_y = true;
  Table st(id + "-storage-series",
           {"specification", "t s", "phase", "IOPS", "MiB/s", "mean ms", "p99 ms", "max ms"});
  double ramp = 0;
  for (const auto& t : r.storage) {
    ChartSeries si{t.name, {}, {}}, sl{t.name, {}, {}};
    double prev = 0;
    for (const auto& p : t.series) {
      const double dt = p.t_sec - prev > 0 ? p.t_sec - prev : 1;
      prev = p.t_sec;
      const double rate = static_cast<double>(p.read_ios + p.write_ios) / dt;
      const double mib = static_cast<double>(p.read_bytes + p.write_bytes) / dt / 1048576.0;
      si.x.push_back(p.t_sec);
      si.y.push_back(rate);
      sl.x.push_back(p.t_sec);
      sl.y.push_back(p.mean_ms);
      st.Row({Text(t.name), Num(p.t_sec), Text(p.phase), Num(rate), Num(mib), Num(p.mean_ms),
              Num(p.p99_ms), Num(p.max_ms)});
    }
    ramp = std::max(ramp, t.ramp_sec);
    ci.series.push_back(std::move(si));
    cl.series.push_back(std::move(sl));
  }
  if (ramp > 0) {
    ci.bands.push_back({0, ramp, "ramp", true});
    cl.bands.push_back({0, ramp, "ramp", true});
  }
  if (st.rows() > 0) {
    out += "<h3>Per second</h3>" +
           Figure(RenderLineChart(ci, id + "-storage-iops-series-chart") +
                      RenderLineChart(cl, id + "-storage-latency-series-chart"),
                  st, "IOPS and response time second by second (ramp shaded)");
  }
  out += Verdicts(r, id);
  Table cpu(id + "-storage-cpu", {"specification", "utilization %", "user %", "system %",
                                  "iowait %", "interrupts/s", "driver CPU s"});
  for (const auto& t : r.storage) {
    cpu.Row({Text(t.name), Num(t.cpu.utilization_pct), Num(t.cpu.user_pct), Num(t.cpu.system_pct),
             Num(t.cpu.iowait_pct), Num(t.cpu.interrupts_per_sec), Num(t.driver_cpu_sec)});
  }
  out += "<h3>CPU</h3>" + cpu.Html();
  return out;
}

}  // namespace sb::report::html
