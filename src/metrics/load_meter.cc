#include "metrics/load_meter.h"

#include <utility>

namespace sb::metrics {

int LoadMeter::Expect(std::string name, int64_t expected_rows, bool estimate) {
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
