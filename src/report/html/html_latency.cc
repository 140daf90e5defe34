// The latency distribution of a database run: each operation type's histogram (the result's
// operations[].histogram) gathered into quarter-octave bins, drawn as one line per type.
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "report/html/html_parts.h"

namespace sb::report::html {

namespace {

// The histogram's buckets split each power of two into 128; a quarter octave is 32 of them, so
// the bins are exact unions of buckets (2^(1/4) ≈ 1.19 apart: fine enough to show the shape,
// coarse enough for a table). Values below 256 ns, which have a bucket each, form one bin.
constexpr int64_t kExact = int64_t{1} << metrics::Histogram::kSubBits;
constexpr int kSubCount = 1 << (metrics::Histogram::kSubBits - 1);
constexpr int kQuarter = kSubCount / 4;

int64_t BinLow(int64_t low_ns) {
  if (low_ns < kExact) return 0;
  const int k = std::bit_width(static_cast<uint64_t>(low_ns)) - 1;
  const int shift = k - (metrics::Histogram::kSubBits - 1);
  const int64_t sub = (low_ns >> shift) - kSubCount;
  return (kSubCount + sub / kQuarter * kQuarter) << shift;
}

int64_t BinHigh(int64_t bin_low) {
  if (bin_low < kExact) return kExact;
  const int k = std::bit_width(static_cast<uint64_t>(bin_low)) - 1;
  const int shift = k - (metrics::Histogram::kSubBits - 1);
  return bin_low + (int64_t{kQuarter} << shift);
}

bool HasHistogram(const metrics::LatencySummary& l) {
  return l.count > 0 && l.histogram.count() == l.count;
}

}  // namespace

std::string LatencyDistributionFigure(const metrics::RunResult& r, const std::string& id) {
  std::vector<size_t> types;
  for (size_t k = 0; k < r.type_names.size() && k < r.latency.size(); ++k) {
    if (HasHistogram(r.latency[k])) types.push_back(k);
  }
  if (types.empty()) return "";                   // a result written before histograms were kept
  std::map<int64_t, std::vector<uint64_t>> bins;  // bin low → count per listed type
  for (size_t i = 0; i < types.size(); ++i) {
    for (const metrics::HistogramBucket& b : r.latency[types[i]].histogram.buckets) {
      auto& counts = bins[BinLow(b.low_ns)];
      counts.resize(types.size(), 0);
      counts[i] += b.count;
    }
  }
  // Every bin from the lowest to the highest non-empty one, so gaps show as zeros.
  const int64_t last = bins.rbegin()->first;
  for (int64_t low = bins.begin()->first; low < last; low = BinHigh(low)) {
    bins[low].resize(types.size(), 0);
  }

  LineChart c;
  c.title = "Latency distribution per operation type (measured window)";
  c.x_label = "latency, ms (log scale), at each bin's lower bound";
  c.log_x = true;
  c.y_label = "% of the type's operations";
  c.markers = true;
  std::vector<std::string> head = {"from ms", "to ms"};
  for (size_t k : types) {
    head.push_back(r.type_names[k] + " count");
    head.push_back(r.type_names[k] + " %");
  }
  Table t(id + "-latency-distribution", head);
  for (size_t k : types) c.series.push_back({r.type_names[k], {}, {}});
  for (const auto& [low, counts] : bins) {
    std::vector<Cell> row = {Num(static_cast<double>(low) / 1e6),
                             Num(static_cast<double>(BinHigh(low)) / 1e6)};
    // The lowest bin starts at 0 ns, which a log axis has not: its point sits at half its upper
    // bound.
    const double x = static_cast<double>(low > 0 ? low : BinHigh(low) / 2) / 1e6;
    for (size_t i = 0; i < types.size(); ++i) {
      const double pct =
          100.0 * static_cast<double>(counts[i]) / static_cast<double>(r.latency[types[i]].count);
      row.push_back(Int(static_cast<int64_t>(counts[i])));
      row.push_back(Num(pct));
      c.series[i].x.push_back(x);
      c.series[i].y.push_back(pct);
    }
    t.Row(std::move(row));
  }
  return Figure(RenderLineChart(c, id + "-latency-distribution-chart"), t,
                "How each operation type's response times spread, from its histogram in "
                "quarter-octave bins (each bin 19 % wider than the one before)");
}

}  // namespace sb::report::html
