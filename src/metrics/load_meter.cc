#include "metrics/load_meter.h"

#include <utility>

namespace sb::metrics {

int LoadMeter::Expect(std::string name, int64_t expected_rows, bool estimate) {
  std::lock_guard lock(mu_);
  auto e = std::make_unique<Entry>();
  e->declared.name = std::move(name);
  e->declared.expected_rows = expected_rows;
  e->declared.expected_is_estimate = estimate;
  tables_.push_back(std::move(e));
  return static_cast<int>(tables_.size()) - 1;
}

void LoadMeter::Add(int table, int64_t rows, int64_t bytes) {
  if (table < 0 || table >= static_cast<int>(tables_.size())) return;
  Entry& e = *tables_[static_cast<size_t>(table)];
  e.rows.fetch_add(rows, std::memory_order_relaxed);
  e.bytes.fetch_add(bytes, std::memory_order_relaxed);
}

std::vector<TableProgress> LoadMeter::Read() const {
  std::lock_guard lock(mu_);
  std::vector<TableProgress> out;
  out.reserve(tables_.size());
  for (const auto& e : tables_) {
    TableProgress p = e->declared;
    p.rows = e->rows.load(std::memory_order_relaxed);
    p.bytes = e->bytes.load(std::memory_order_relaxed);
    out.push_back(std::move(p));
  }
  return out;
}

int LoadMeter::ExpectIndexStep(std::string name, int64_t weight) {
  std::lock_guard lock(mu_);
  IndexStepProgress step;
  step.name = std::move(name);
  step.weight = weight;
  index_steps_.push_back(std::move(step));
  return static_cast<int>(index_steps_.size()) - 1;
}

void LoadMeter::IndexStepStarted(int step) {
  std::lock_guard lock(mu_);
  if (step >= 0 && step < static_cast<int>(index_steps_.size())) {
    index_steps_[static_cast<size_t>(step)].state = IndexStepProgress::State::kRunning;
  }
}

void LoadMeter::IndexStepDone(int step) {
  std::lock_guard lock(mu_);
  if (step >= 0 && step < static_cast<int>(index_steps_.size())) {
    index_steps_[static_cast<size_t>(step)].state = IndexStepProgress::State::kDone;
  }
}

std::vector<IndexStepProgress> LoadMeter::ReadIndexSteps() const {
  std::lock_guard lock(mu_);
  return index_steps_;
}

int64_t LoadSample::rows() const {
  int64_t n = 0;
  for (const auto& t : tables) n += t.rows;
  return n;
}

int64_t LoadSample::bytes() const {
  int64_t n = 0;
  for (const auto& t : tables) n += t.bytes;
  return n;
}

int64_t LoadSample::expected_rows() const {
  int64_t n = 0;
  for (const auto& t : tables) n += t.expected_rows;
  return n;
}

}  // namespace sb::metrics
