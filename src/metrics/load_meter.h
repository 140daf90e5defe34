// Progress of a load, per table: written by a workload's loader threads, read by the driver
// once a second to show rows, MB/s and an ETA. Workloads never read the clock; the meter only
// counts.
//
// Usage: the workload declares its tables with Expect() before any loader thread starts, then
// loader threads call Add() per batch, and MarkDataDone() once every row is in. The index phase
// that follows is metered by steps: the workload declares them with ExpectIndexStep() (one
// statement, or one table's statements, each with a weight such as the table's rows) and marks
// each started and done; the driver shows which step of how many, the elapsed time and an ETA
// from the weights. Statistics gathering after the index phase is not metered.
#ifndef STOREBENCH_METRICS_LOAD_METER_H_
#define STOREBENCH_METRICS_LOAD_METER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sb::metrics {

// One step of the index phase as the driver reads it.
struct IndexStepProgress {
  enum class State { kPending, kRunning, kDone };
  std::string name;    // "customers: ix_cust_username, ix_cust_user_password"
  int64_t weight = 0;  // relative cost (the table's rows); 0 counts as 1
  State state = State::kPending;
  double running_sec = 0;  // set by the driver: how long it has been running (kRunning)
};

struct TableProgress {
  std::string name;
  int64_t expected_rows = 0;          // 0: unknown
  bool expected_is_estimate = false;  // e.g. DVD Store order lines (1-9 per order, random)
  int64_t rows = 0;
  int64_t bytes = 0;  // row text sent to the database: field bytes plus one separator each
};

class LoadMeter {
 public:
  // Declares a table; returns its index for Add(). Not thread-safe: call before loading.
  int Expect(std::string name, int64_t expected_rows, bool estimate = false);
  // Any thread. `table` is an index returned by Expect().
  void Add(int table, int64_t rows, int64_t bytes);
  // Any thread: every row is written (what follows is index building).
  void MarkDataDone() { data_done_.store(true, std::memory_order_release); }
  bool data_done() const { return data_done_.load(std::memory_order_acquire); }

  // Any thread: the current counts, in the order the tables were declared.
  std::vector<TableProgress> Read() const;

  // Declares a step of the index phase; returns its index for IndexStep*(). Any thread, but
  // declare every step before starting the first, so the count shown does not grow.
  int ExpectIndexStep(std::string name, int64_t weight);
  void IndexStepStarted(int step);
  void IndexStepDone(int step);
  // Any thread: the index steps declared so far, in declaration order.
  std::vector<IndexStepProgress> ReadIndexSteps() const;

 private:
  struct Entry {
    TableProgress declared;
    std::atomic<int64_t> rows{0};
    std::atomic<int64_t> bytes{0};
  };
  // Guards the lists (Expect and ExpectIndexStep against the driver's reads) and the steps'
  // states; the row counts are atomics so loader threads never take it.
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Entry>> tables_;
  std::vector<IndexStepProgress> index_steps_;
  std::atomic<bool> data_done_{false};
};

// What the driver shows once a second while loading: the meter's counts plus rates and an ETA
// the driver computes from its clock.
struct LoadSample {
  double elapsed_sec = 0;
  std::vector<TableProgress> tables;
  double rows_per_sec = 0;   // over the last few seconds
  double bytes_per_sec = 0;  // over the last few seconds
  double eta_sec = -1;       // -1: unknown (no rate yet, or nothing expected)
  bool data_done = false;
  // After the data: the index phase (empty when the workload declares no steps). eta_sec is
  // then the index phase's, from the weights of the steps done over its elapsed time.
  bool index_phase = false;
  std::vector<IndexStepProgress> index_steps;
  double index_elapsed_sec = 0;

  int64_t rows() const;
  int64_t bytes() const;
  int64_t expected_rows() const;  // sum over tables with a known expectation
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_LOAD_METER_H_
