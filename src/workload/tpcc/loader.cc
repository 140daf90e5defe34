// Parallel generate-and-load of a TPC-C-like database: ITEM and each warehouse are work items
// that generator threads take in turn. Each thread collects a table's rows into a batch and
// writes full batches through its own BulkWriter per table (COPY, LOAD DATA, SQLite
// transactions). A back end whose writers serialize (SQLite) gets its batches written one at a
// time, each committed before the next, while generation stays parallel.
#include <algorithm>
#include <atomic>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "workload/tpcc/generator.h"
#include "workload/tpcc/tpcc_workload.h"

namespace sb::tpcc {
namespace {

constexpr size_t kRowsPerBatch = 4096;

// The rows of one table, stored flat: field bytes in `data`, each field's end in `ends`, and
// which fields are NULL.
struct Batch {
  size_t ncols = 0;
  std::string data;
  std::vector<uint32_t> ends;
  std::vector<bool> nulls;
  size_t rows() const { return ncols ? ends.size() / ncols : 0; }
  void Clear() {
    data.clear();
    ends.clear();
    nulls.clear();
  }
};

struct Shared {
  db::DbBackend* backend = nullptr;
  const workload::LoadContext* ctx = nullptr;
  bool concurrent = true;
  std::mutex write_mu;  // held while writing a batch when writers serialize
  std::mutex error_mu;
  Status first_error;
  std::atomic<bool> failed{false};
  std::atomic<int64_t> rows{0};
  int meter_index[kNumTables] = {};
  void Fail(const Status& s) {
    std::lock_guard lock(error_mu);
    if (first_error.ok()) first_error = s;
    failed = true;
  }
};

class ThreadLoader {
 public:
  explicit ThreadLoader(Shared* shared) : sh_(shared) {}

  bool Add(Table t, const std::vector<std::string_view>& fields) {
    Batch& b = batches_[static_cast<int>(t)];
    b.ncols = fields.size();
    for (std::string_view f : fields) {
      const bool null = f == db::kBulkNull;
      if (!null) b.data.append(f);
      b.ends.push_back(static_cast<uint32_t>(b.data.size()));
      b.nulls.push_back(null);
    }
    if (b.rows() >= kRowsPerBatch) return Flush(t);
    return true;
  }

  bool FlushAll() {
    for (int i = 0; i < kNumTables; ++i) {
      if (!Flush(static_cast<Table>(i))) return false;
    }
    return true;
  }

  bool Finish() {
    for (auto& [t, w] : writers_) {
      if (Status s = w->Finish(); !s.ok()) {
        sh_->Fail(s);
        return false;
      }
    }
    return true;
  }

 private:
  bool Flush(Table t) {
    Batch& b = batches_[static_cast<int>(t)];
    if (b.ends.empty()) return true;
    if (sh_->failed) return false;
    if (sh_->ctx->stop_requested()) {
      sh_->Fail(workload::LoadContext::Stopped());
      return false;
    }
    std::unique_lock<std::mutex> lock(sh_->write_mu, std::defer_lock);
    if (!sh_->concurrent) lock.lock();
    Status s = Write(t, b);
    // With a single-writer database each writer's open transaction holds the write lock:
    // commit every batch so the other threads' writers can go on.
    if (s.ok() && !sh_->concurrent) s = writers_[t]->Finish();
    if (lock.owns_lock()) lock.unlock();
    if (!s.ok()) {
      sh_->Fail(s);
      return false;
    }
    const auto n = static_cast<int64_t>(b.rows());
    sh_->rows += n;
    if (sh_->ctx->meter != nullptr) {
      // Row text as sent: field bytes plus one separator per field.
      sh_->ctx->meter->Add(sh_->meter_index[static_cast<int>(t)], n,
                           static_cast<int64_t>(b.data.size() + b.ends.size()));
    }
    b.Clear();
    return true;
  }

  Status Write(Table t, const Batch& b) {
    auto& w = writers_[t];
    if (!w) {
      auto made = sh_->backend->NewBulkWriter(TableName(t), TableColumns(t));
      if (!made.ok()) return made.status();
      w = std::move(made).value();
    }
    fields_.resize(b.ncols);
    uint32_t start = 0;
    for (size_t i = 0; i < b.ends.size(); ++i) {
      const std::string_view data(b.data);
      fields_[i % b.ncols] = b.nulls[i] ? db::kBulkNull : data.substr(start, b.ends[i] - start);
      start = b.ends[i];
      if ((i + 1) % b.ncols == 0) SB_RETURN_IF_ERROR(w->AddRow(fields_));
    }
    return Status::Ok();
  }

  Shared* sh_;
  Batch batches_[kNumTables];
  std::map<Table, std::unique_ptr<db::BulkWriter>> writers_;
  std::vector<std::string_view> fields_;
};

std::string NowText() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

}  // namespace

Status LoadTpccData(db::DbBackend& backend, int64_t warehouses, int64_t c_last_load,
                    int bad_credit_pct, const workload::LoadContext& ctx) {
  Shared sh;
  sh.backend = &backend;
  sh.ctx = &ctx;
  sh.concurrent = backend.capabilities().concurrent_writers;
  GenParams p;
  p.seed = ctx.seed;
  p.c_last_load = c_last_load;
  p.bad_credit_pct = bad_credit_pct;
  p.now = NowText();
  if (ctx.meter != nullptr) {
    for (int i = 0; i < kNumTables; ++i) {
      const auto t = static_cast<Table>(i);
      sh.meter_index[i] = ctx.meter->Expect(TableName(t), ExpectedRows(t, warehouses),
                                            /*estimate=*/t == Table::kOrderLine);
    }
  }
  // Work item 0 is ITEM; item w is warehouse w.
  std::atomic<int64_t> next{0};
  auto worker = [&] {
    ThreadLoader tl(&sh);
    auto emit = [&tl](Table t, const std::vector<std::string_view>& f) { return tl.Add(t, f); };
    for (int64_t item = next++; item <= warehouses && !sh.failed; item = next++) {
      const bool ok = item == 0 ? GenerateItems(p, emit) : GenerateWarehouse(p, item, emit);
      if (!ok) return;
    }
    if (tl.FlushAll()) tl.Finish();
  };
  const int threads =
      static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.threads, warehouses + 1)));
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
  for (auto& th : pool) th.join();
  if (ctx.rows_loaded != nullptr) *ctx.rows_loaded = sh.rows.load();
  if (!sh.first_error.ok()) return sh.first_error;
  if (ctx.meter != nullptr) ctx.meter->MarkDataDone();
  return Status::Ok();
}

}  // namespace sb::tpcc
