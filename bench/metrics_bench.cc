// Cost of the measurement path: what a worker pays per operation (a clock read and a Record) and
// what the runner pays per interval (Snapshot, Subtract, percentiles).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/recorder.h"

namespace sb::metrics {
namespace {

// Latencies spread like a database workload's (median ≈ 0.44 ms, long tail), precomputed so the
// benchmarks time recording, not random number generation. A power of two for cheap wrapping.
const std::vector<int64_t>& Latencies() {
  static const std::vector<int64_t> values = [] {
    std::mt19937_64 rng(1);
    std::lognormal_distribution<double> latency(13.0, 1.5);
    std::vector<int64_t> v(1 << 16);
    for (int64_t& x : v) x = static_cast<int64_t>(latency(rng));
    return v;
  }();
  return values;
}

// A histogram with many occupied buckets across the whole range, so percentile walks are not
// shortened by an empty tail.
Histogram FullHistogram() {
  Histogram h;
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<int64_t> any(0, Histogram::kLimit - 1);
  for (int64_t v : Latencies()) h.Record(v);
  for (int i = 0; i < 100'000; ++i) h.Record(any(rng));
  return h;
}

void BM_RecorderRecord(benchmark::State& state) {
  const std::vector<int64_t>& values = Latencies();
  const size_t mask = values.size() - 1;
  Recorder recorder(4, 2);
  size_t i = 0;
  for (auto _ : state) {
    recorder.Record(static_cast<int>(i & 3), values[i & mask]);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecorderRecord);

void BM_HistogramRecord(benchmark::State& state) {
  const std::vector<int64_t>& values = Latencies();
  const size_t mask = values.size() - 1;
  Histogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.Record(values[i & mask]);
    ++i;
  }
  benchmark::DoNotOptimize(h.count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HistogramRecord);

// A worker reads the clock twice per operation; this is one read.
void BM_SteadyClockNow(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(std::chrono::steady_clock::now());
}
BENCHMARK(BM_SteadyClockNow);

// Argument: the percentile in tenths (500 = p50, 999 = p99.9).
void BM_ValueAtPercentile(benchmark::State& state) {
  const Histogram h = FullHistogram();
  const double p = static_cast<double>(state.range(0)) / 10.0;
  for (auto _ : state) benchmark::DoNotOptimize(h.ValueAtPercentile(p));
}
BENCHMARK(BM_ValueAtPercentile)->Arg(500)->Arg(990)->Arg(999);

// Argument: number of operation types (DVD Store has 3 or so; 1 gives the per-type cost).
void BM_RecorderSnapshot(benchmark::State& state) {
  const int types = static_cast<int>(state.range(0));
  Recorder recorder(types, 4);
  const std::vector<int64_t>& values = Latencies();
  for (size_t i = 0; i < values.size(); ++i)
    recorder.Record(static_cast<int>(i % types), values[i]);
  RecorderSnapshot snapshot;
  recorder.Snapshot(&snapshot);  // the first one allocates; the runner reuses its snapshot
  for (auto _ : state) {
    recorder.Snapshot(&snapshot);
    benchmark::DoNotOptimize(snapshot.types.data());
  }
}
BENCHMARK(BM_RecorderSnapshot)->Arg(1)->Arg(4);

// The other per-interval step: cumulative − previous snapshot for one type.
void BM_HistogramSubtract(benchmark::State& state) {
  const Histogram full = FullHistogram();
  Histogram earlier;
  for (int64_t v : Latencies()) earlier.Record(v);
  Histogram work;
  for (auto _ : state) {
    work = full;  // copy-assignment reuses work's buckets
    work.Subtract(earlier);
    benchmark::DoNotOptimize(work.count());
  }
}
BENCHMARK(BM_HistogramSubtract);

}  // namespace
}  // namespace sb::metrics
