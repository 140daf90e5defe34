// Parallel generate-and-load for the DVD Store data (spec §2.7, §4.7).
//
// Generator threads turn chunks into batches of rows and hand them through bounded queues to
// writer threads. A back end with concurrent writers gets one writer thread per table, each
// with its table's queue and one sole bulk writer (DbBackend::NewSoleBulkWriter: the whole
// table in one transaction on its own connection, so the server loads the tables in parallel
// and may take each for itself); a back end whose writers serialize (SQLite) gets one writer
// thread for every table, committing every batch. Where the back end allows several writers on
// one table (Capabilities::split_bulk_writers), the reviews chunks' two tables, 43 of M's 58.6
// million rows, load in two halves of their primary key, each half with its own queue, writer
// thread, connection and transaction (DbBackend::NewSplitBulkWriter), and the generator threads
// take the reviews chunks from the two halves in turn so both writers are fed from the start.
// Inventory is generated last, from the summed sales of every orders chunk.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/generator.h"
#include "workload/dvdstore/sql_files.h"
#include "workload/dvdstore/words.h"

namespace sb::dvdstore {
namespace {

constexpr size_t kRowsPerBatch = 16384;
// Batches waiting per queue: 16 for the one queue of a single writer; 4 per table otherwise (a
// reviews batch is ~8 MB at 16 384 rows, so this bounds the client's memory near 100 MB).
constexpr size_t kMaxQueuedBatchesOne = 16;
constexpr size_t kMaxQueuedBatchesPerTable = 4;
// Writers per split table: its rows in this many contiguous ranges of the primary key (not
// interleaved, so each writer appends to its own end of the index and InnoDB does not split
// pages in the middle).
constexpr int kSplitParts = 2;

// The tables that load in kSplitParts parts where the back end allows it: the ones a reviews
// chunk emits (REVIEWS_HELPFULNESS alone is 41.0 of M's 58.6 million rows, REVIEWS the largest
// in bytes), so one chunk's rows all go to the same part.
bool IsSplitTable(Table t) { return t == Table::kReviews || t == Table::kReviewsHelpfulness; }

// Rows of one table, stored flat: all field bytes in `data`, each field's end offset in `ends`.
struct Batch {
  Table table = Table::kCustomers;
  int part = 0;  // of a split table; 0 otherwise
  size_t ncols = 0;
  std::string data;
  std::vector<uint32_t> ends;
  size_t rows() const { return ncols ? ends.size() / ncols : 0; }
};

class BatchQueue {
 public:
  explicit BatchQueue(size_t capacity) : capacity_(capacity) {}
  // Blocks while full. Returns false when the queue was closed because of an error.
  bool Push(Batch b) {
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] { return q_.size() < capacity_ || failed_; });
    if (failed_) return false;
    q_.push_back(std::move(b));
    not_empty_.notify_one();
    return true;
  }
  // Blocks while empty. Returns false when closed and drained.
  bool Pop(Batch* b) {
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || closed_ || failed_; });
    if (q_.empty() || failed_) return false;
    *b = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }
  void Fail() {
    std::lock_guard lock(mu_);
    failed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Batch> q_;
  bool closed_ = false;
  bool failed_ = false;
};

// The writers' queues: one per table (and per part of a split table), or one for all tables.
class Queues {
 public:
  Queues(bool per_table, bool split) {
    for (int t = 0; t < kNumTables; ++t) {
      for (int part = 0; part < kSplitParts; ++part) {
        if (!per_table && (t > 0 || part > 0)) {
          index_[t][part] = 0;
        } else if (part > 0 && !(split && IsSplitTable(static_cast<Table>(t)))) {
          index_[t][part] = index_[t][0];
        } else {
          index_[t][part] = static_cast<int>(queues_.size());
          split_.push_back(part > 0 || (split && IsSplitTable(static_cast<Table>(t))));
          queues_.push_back(std::make_unique<BatchQueue>(per_table ? kMaxQueuedBatchesPerTable
                                                                   : kMaxQueuedBatchesOne));
        }
      }
    }
  }
  int size() const { return static_cast<int>(queues_.size()); }
  BatchQueue& at(int i) { return *queues_[i]; }
  // True: queue i feeds one part of a split table.
  bool split(int i) const { return split_[i]; }
  BatchQueue& of(Table t, int part) { return *queues_[index_[static_cast<int>(t)][part]]; }
  void CloseAll() {
    for (auto& q : queues_) q->Close();
  }
  void FailAll() {
    for (auto& q : queues_) q->Fail();
  }

 private:
  int index_[kNumTables][kSplitParts] = {};
  std::vector<bool> split_;
  std::vector<std::unique_ptr<BatchQueue>> queues_;
};

// Writes CSV copies of the generated rows (--csv-dir), one file per table. Thread-safe: the
// generator threads write each batch they make, before it is queued, so the copies stay off the
// writer threads (SQLite's one writer thread is the data phase's critical path: writing the
// CSV there cost it about 0.7 s of an S load).
class CsvFiles {
 public:
  Status Open(const std::string& dir, bool ds2) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IoError("cannot create CSV directory '" + dir + "': " + ec.message());
    for (Table t : TablesFor(ds2)) {
      const std::string path = dir + "/" + CsvFileName(t);
      auto f = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
      if (!*f) return Status::IoError("cannot write CSV file '" + path + "'");
      files_[t] = std::move(f);
    }
    return Status::Ok();
  }
  void Write(const Batch& b) {
    auto it = files_.find(b.table);
    if (it == files_.end()) return;
    std::string out;
    out.reserve(b.data.size() + b.ends.size());
    uint32_t start = 0;
    for (size_t i = 0; i < b.ends.size(); ++i) {
      out.append(b.data, start, b.ends[i] - start);
      out += ((i + 1) % b.ncols == 0) ? '\n' : ',';
      start = b.ends[i];
    }
    std::lock_guard lock(mu_);
    it->second->write(out.data(), static_cast<std::streamsize>(out.size()));
  }
  Status Close() {
    for (auto& [t, f] : files_) {
      f->close();
      if (!*f)
        return Status::IoError("writing CSV file for " + std::string(TableName(t)) + " failed");
    }
    return Status::Ok();
  }

 private:
  std::mutex mu_;
  std::map<Table, std::unique_ptr<std::ofstream>> files_;
};

// Collects rows per table into batches, copies full ones to the CSV files (when there are
// any) and pushes them.
class BatchingSink {
 public:
  BatchingSink(Queues* queues, CsvFiles* csv) : queues_(queues), csv_(csv) {}
  // The part of a split table the next rows belong to (the chunk's).
  void set_part(int part) { part_ = part; }
  bool Add(Table t, const std::vector<std::string_view>& fields) {
    Batch& b = open_[static_cast<int>(t)][part_];
    if (b.ncols == 0) {
      b.table = t;
      b.part = part_;
      b.ncols = fields.size();
    }
    for (std::string_view f : fields) {
      b.data.append(f);
      b.ends.push_back(static_cast<uint32_t>(b.data.size()));
    }
    if (b.rows() >= kRowsPerBatch) return Flush(&b);
    return true;
  }
  bool FlushAll() {
    for (auto& parts : open_) {
      for (Batch& b : parts) {
        if (!Flush(&b)) return false;
      }
    }
    return true;
  }

 private:
  bool Flush(Batch* b) {
    if (b->ends.empty()) return true;
    Batch out = std::move(*b);
    *b = Batch();
    if (csv_ != nullptr) csv_->Write(out);
    BatchQueue& queue = queues_->of(out.table, out.part);
    return queue.Push(std::move(out));
  }
  Queues* queues_;
  CsvFiles* csv_;
  int part_ = 0;
  Batch open_[kNumTables][kSplitParts];
};

struct LoadStats {
  std::mutex mu;
  Status first_error;
  std::atomic<int64_t> rows{0};
  void Fail(const Status& s) {
    std::lock_guard lock(mu);
    if (first_error.ok()) first_error = s;
  }
  Status error() {
    std::lock_guard lock(mu);
    return first_error;
  }
};

// Rows each table will get, for the progress line. Order lines (1-9 per order) and helpfulness
// rows (2-39 per review) are random: their mean is an estimate.
struct Expected {
  int64_t rows;
  bool estimate;
};
Expected ExpectedRows(Table t, const DsSize& size) {
  switch (t) {
    case Table::kCategories:
      return {static_cast<int64_t>(CategoryNames().size()), false};
    case Table::kCustomers:
      return {size.customers, false};
    case Table::kOrders:
      return {size.orders(), false};
    case Table::kOrderlines:
    case Table::kCustHist:
      return {size.orders() * 5, true};
    case Table::kProducts:
    case Table::kInventory:
      return {size.products, false};
    case Table::kMembership:
      return {size.members(), false};
    case Table::kReviews:
      return {size.reviews(), false};
    case Table::kReviewsHelpfulness:
      return {size.reviews() * 41 / 2, true};
    case Table::kReorder:
      return {0, false};
  }
  return {0, true};
}

// The chunks in the order the generator threads take them, and the part of a split table each
// one's rows go to. Split: the reviews chunks (the first ones, in id order) fall into
// kSplitParts contiguous halves taken in turn (first of the first half, first of the second,
// ...); the order changes no row, as every chunk has a random stream of its own.
struct ChunkOrder {
  std::vector<ChunkSpec> chunks;
  std::vector<int> parts;
};
ChunkOrder OrderChunks(std::vector<ChunkSpec> chunks, bool split) {
  ChunkOrder out;
  if (!split) {
    out.parts.assign(chunks.size(), 0);
    out.chunks = std::move(chunks);
    return out;
  }
  std::vector<size_t> reviews;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (chunks[i].table == Table::kReviews) reviews.push_back(i);
  }
  const size_t per_part = (reviews.size() + kSplitParts - 1) / kSplitParts;
  for (size_t k = 0; k < per_part; ++k) {
    for (int part = 0; part < kSplitParts; ++part) {
      const size_t j = static_cast<size_t>(part) * per_part + k;
      if (j >= reviews.size()) continue;
      out.chunks.push_back(chunks[reviews[j]]);
      out.parts.push_back(part);
    }
  }
  for (const ChunkSpec& c : chunks) {
    if (c.table == Table::kReviews) continue;
    out.chunks.push_back(c);
    out.parts.push_back(0);
  }
  return out;
}

}  // namespace

std::string DvdStoreLoadSession(const db::DbBackend& backend) {
  const db::Capabilities& caps = backend.capabilities();
  if (caps.concurrent_writers && caps.split_bulk_writers) {
    return backend.SoleBulkWriterSession() + "; " + std::string(TableName(Table::kReviews)) +
           " and " + std::string(TableName(Table::kReviewsHelpfulness)) + " in " +
           std::to_string(kSplitParts) +
           " contiguous parts of their primary key, each on its own connection in one "
           "transaction: " +
           backend.SplitBulkWriterSession();
  }
  if (caps.concurrent_writers) return backend.SoleBulkWriterSession();
  return "one writer thread for every table, a commit every batch of " +
         std::to_string(kRowsPerBatch) + " rows; " + backend.BulkWriterSession();
}

Status LoadDvdStore(db::DbBackend& backend, const DsOptions& opts, const std::string& dialect,
                    const workload::LoadContext& ctx) {
  const bool ds2 = opts.ds2_mode;
  Generator gen(opts.size, ctx.seed, ds2);
  const int gen_threads = std::max(1, ctx.threads);
  const bool concurrent = backend.capabilities().concurrent_writers;
  const bool split = concurrent && backend.capabilities().split_bulk_writers;
  const ChunkOrder order = OrderChunks(gen.Chunks(kChunkRows), split);
  const std::vector<ChunkSpec>& chunks = order.chunks;

  CsvFiles csv;
  if (!ctx.csv_dir.empty()) SB_RETURN_IF_ERROR(csv.Open(ctx.csv_dir, ds2));
  CsvFiles* const csv_out = ctx.csv_dir.empty() ? nullptr : &csv;

  // The progress meter's index of each table (the reorder table stays empty: not metered).
  int meter_index[kNumTables];
  std::fill(std::begin(meter_index), std::end(meter_index), -1);
  if (ctx.meter != nullptr) {
    for (Table t : TablesFor(ds2)) {
      const Expected e = ExpectedRows(t, opts.size);
      if (e.rows > 0 || e.estimate) {
        meter_index[static_cast<int>(t)] =
            ctx.meter->Expect(std::string(TableName(t)), e.rows, e.estimate);
      }
    }
  }

  // One writer thread per table where writers run concurrently: each table's rows then go
  // through one connection in one transaction, and the server loads the tables in parallel.
  Queues queues(/*per_table=*/concurrent, split);
  LoadStats stats;
  std::atomic<size_t> next_chunk{0};
  std::vector<std::vector<int64_t>> sales(gen_threads);
  auto fail = [&](const Status& s) {
    stats.Fail(s);
    queues.FailAll();
  };

  auto writer_main = [&](BatchQueue* queue, bool split_writer) {
    std::map<Table, std::unique_ptr<db::BulkWriter>> out;
    Batch b;
    std::vector<std::string_view> fields;
    while (queue->Pop(&b)) {
      if (ctx.stop_requested()) return fail(workload::LoadContext::Stopped());
      auto& w = out[b.table];
      if (!w) {
        const std::string table = SqlTableName(b.table, dialect);
        const std::vector<std::string> columns = SqlColumns(b.table, ds2, dialect);
        auto made = split_writer ? backend.NewSplitBulkWriter(table, columns)
                    : concurrent ? backend.NewSoleBulkWriter(table, columns)
                                 : backend.NewBulkWriter(table, columns);
        if (!made.ok()) return fail(made.status());
        w = std::move(made).value();
      }
      fields.resize(b.ncols);
      uint32_t start = 0;
      for (size_t i = 0; i < b.ends.size(); ++i) {
        fields[i % b.ncols] = std::string_view(b.data).substr(start, b.ends[i] - start);
        start = b.ends[i];
        if ((i + 1) % b.ncols == 0) {
          if (Status s = w->AddRow(fields); !s.ok()) return fail(s);
        }
      }
      // With a single-writer database, each table's writer holds the write lock while its
      // transaction is open; commit every batch so the next table's writer can proceed.
      if (!concurrent) {
        if (Status s = w->Finish(); !s.ok()) return fail(s);
      }
      stats.rows += static_cast<int64_t>(b.rows());
      if (ctx.meter != nullptr) {
        // Row text as sent: field bytes plus one separator per field.
        ctx.meter->Add(meter_index[static_cast<int>(b.table)], static_cast<int64_t>(b.rows()),
                       static_cast<int64_t>(b.data.size() + b.ends.size()));
      }
    }
    // The queues end early when the load failed or was stopped (by any writer): the sole
    // writers' tables are then left uncommitted, not committed half-full.
    if (!stats.error().ok()) return;
    for (auto& [t, w] : out) {
      if (Status s = w->Finish(); !s.ok()) return fail(s);
    }
  };

  auto generator_main = [&](int thread) {
    BatchingSink sink(&queues, csv_out);
    bool ok = true;
    auto add = [&](Table t, const std::vector<std::string_view>& f) {
      if (ok) ok = sink.Add(t, f);
    };
    sales[thread].assign(static_cast<size_t>(opts.size.products) + 1, 0);
    if (thread == 0) gen.GenerateCategories(add);
    for (size_t i = next_chunk++; ok && i < chunks.size(); i = next_chunk++) {
      sink.set_part(order.parts[i]);
      gen.Generate(chunks[i], add, &sales[thread]);
    }
    if (ok) sink.FlushAll();
  };

  std::vector<std::thread> writer_threads;
  writer_threads.reserve(queues.size());
  for (int i = 0; i < queues.size(); ++i) {
    writer_threads.emplace_back(writer_main, &queues.at(i), queues.split(i));
  }
  {
    std::vector<std::thread> gens;
    for (int i = 0; i < gen_threads; ++i) gens.emplace_back(generator_main, i);
    for (auto& t : gens) t.join();
  }
  // Inventory needs every order line's quantity.
  if (stats.error().ok()) {
    std::vector<int64_t> total(static_cast<size_t>(opts.size.products) + 1, 0);
    for (const auto& v : sales) {
      for (size_t p = 0; p < v.size(); ++p) total[p] += v[p];
    }
    BatchingSink sink(&queues, csv_out);
    bool ok = true;
    gen.GenerateInventory(total, [&](Table t, const std::vector<std::string_view>& f) {
      if (ok) ok = sink.Add(t, f);
    });
    if (ok) sink.FlushAll();
  }
  queues.CloseAll();
  for (auto& t : writer_threads) t.join();
  if (ctx.meter != nullptr && stats.error().ok()) ctx.meter->MarkDataDone();
  if (!ctx.csv_dir.empty()) {
    Status s = csv.Close();
    if (!s.ok()) stats.Fail(s);
  }
  if (ctx.rows_loaded != nullptr) *ctx.rows_loaded = stats.rows.load();
  return stats.error();
}

}  // namespace sb::dvdstore
