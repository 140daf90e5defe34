// Parallel generate-and-load of the Order Entry data. Each thread takes the next chunk, generates
// its rows into memory and writes them through its own BulkWriter per table (COPY on PostgreSQL,
// LOAD DATA LOCAL on MariaDB, a prepared INSERT on SQLite), kept open across its chunks and
// finished at the end. On a back end whose writers serialize (SQLite) the threads still generate
// in parallel and take turns to write, each chunk committed before the next thread's turn.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "workload/soe/generator.h"
#include "workload/soe/soe_workload.h"

namespace sb::soe {
namespace {

// Rows of one table, stored flat: all field bytes in `data`, each field's end in `ends`.
struct TableRows {
  size_t ncols = 0;
  std::string data;
  std::vector<uint32_t> ends;
  int64_t rows() const { return ncols ? static_cast<int64_t>(ends.size() / ncols) : 0; }
};

}  // namespace

Status LoadSoeData(db::DbBackend& backend, const SoeSize& size, const workload::LoadContext& ctx,
                   int64_t* rows_loaded) {
  const Generator gen(size, ctx.seed);
  const std::vector<Chunk> chunks = gen.Chunks();
  const bool concurrent = backend.capabilities().concurrent_writers;
  const int threads = std::max(1, ctx.threads);
  int meter_index[kNumTables];
  if (ctx.meter != nullptr) {
    for (int t = 0; t < kNumTables; ++t) {
      const auto table = static_cast<Table>(t);
      const bool estimate = table == Table::kOrderItems || table == Table::kInventories;
      meter_index[t] = ctx.meter->Expect(TableName(table), gen.ExpectedRows(table), estimate);
    }
  }
  std::atomic<size_t> next{0};
  std::atomic<int64_t> rows{0};
  std::mutex error_mu, write_mu;
  Status first_error;
  auto fail = [&](const Status& s) {
    std::lock_guard lock(error_mu);
    if (first_error.ok()) first_error = s;
  };
  auto failed = [&] {
    std::lock_guard lock(error_mu);
    return !first_error.ok();
  };

  using Writers = std::map<Table, std::unique_ptr<db::BulkWriter>>;
  auto write = [&](Writers& writers, Table t, const TableRows& r) -> Status {
    auto& w = writers[t];
    if (!w) {
      auto made = backend.NewBulkWriter(TableName(t), TableColumns(t));
      if (!made.ok()) return made.status();
      w = std::move(made).value();
    }
    std::vector<std::string_view> fields(r.ncols);
    const std::string_view data = r.data;
    uint32_t start = 0;
    for (size_t i = 0; i < r.ends.size(); ++i) {
      fields[i % r.ncols] = data.substr(start, r.ends[i] - start);
      start = r.ends[i];
      if ((i + 1) % r.ncols == 0) SB_RETURN_IF_ERROR(w->AddRow(fields));
    }
    // A single-writer database: commit now, so the next thread's writer can take the lock.
    return concurrent ? Status::Ok() : w->Finish();
  };

  auto worker = [&] {
    std::map<Table, TableRows> out;
    Writers writers;
    for (size_t i = next++; i < chunks.size(); i = next++) {
      if (failed()) return;
      if (ctx.stop_requested()) return fail(workload::LoadContext::Stopped());
      for (auto& [t, r] : out) {
        r.data.clear();
        r.ends.clear();
      }
      gen.Generate(chunks[i], [&](Table t, const std::vector<std::string_view>& f) {
        TableRows& r = out[t];
        r.ncols = f.size();
        for (std::string_view v : f) {
          r.data.append(v);
          r.ends.push_back(static_cast<uint32_t>(r.data.size()));
        }
      });
      std::unique_lock lock(write_mu, std::defer_lock);
      if (!concurrent) lock.lock();
      for (const auto& [t, r] : out) {
        if (r.ends.empty()) continue;
        if (Status s = write(writers, t, r); !s.ok()) return fail(s);
        rows += r.rows();
        if (ctx.meter != nullptr) {
          ctx.meter->Add(meter_index[static_cast<int>(t)], r.rows(),
                         static_cast<int64_t>(r.data.size() + r.ends.size()));
        }
      }
    }
    for (auto& [t, w] : writers) {
      if (Status s = w->Finish(); !s.ok()) return fail(s);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
  for (auto& th : pool) th.join();
  if (rows_loaded != nullptr) *rows_loaded = rows.load();
  if (!first_error.ok()) return first_error;
  if (ctx.meter != nullptr) ctx.meter->MarkDataDone();
  return Status::Ok();
}

}  // namespace sb::soe
