#include "backend/db/null/null_backend.h"

#include <chrono>
#include <cstdlib>
#include <thread>

namespace sb::db {
namespace {

class NullStatement final : public Statement {
 public:
  explicit NullStatement(int64_t latency_us) : latency_us_(latency_us) {}
  void BindInt(int, int64_t) override {}
  void BindDouble(int, double) override {}
  void BindText(int, std::string_view) override {}
  void BindNull(int) override {}
  Status Execute() override {
    if (latency_us_ > 0) std::this_thread::sleep_for(std::chrono::microseconds(latency_us_));
    return Status::Ok();
  }
  bool Next() override { return false; }
  const Status& status() const override { return ok_; }
  bool IsNull(int) const override { return true; }
  int64_t GetInt(int) const override { return 0; }
  double GetDouble(int) const override { return 0; }
  std::string_view GetText(int) const override { return {}; }
  void Reset() override {}
  int64_t RowsAffected() const override { return 0; }

 private:
  int64_t latency_us_;
  Status ok_;
};

class NullConnection final : public Connection {
 public:
  explicit NullConnection(int64_t latency_us) : latency_us_(latency_us) {}
  Result<std::unique_ptr<Statement>> Prepare(std::string_view) override {
    return std::unique_ptr<Statement>(new NullStatement(latency_us_));
  }
  Status ExecuteScript(std::string_view) override { return Status::Ok(); }
  Status Begin(bool) override { return Status::Ok(); }
  Status Commit() override { return Status::Ok(); }
  Status Rollback() override { return Status::Ok(); }
  int64_t LastInsertId() override { return 0; }

 private:
  int64_t latency_us_;
};

class NullBulkWriter final : public BulkWriter {
 public:
  Status AddRow(const std::vector<std::string_view>&) override { return Status::Ok(); }
  Status Finish() override { return Status::Ok(); }
};

class NullBackend final : public DbBackend {
 public:
  NullBackend(int64_t latency_us, bool server) : latency_us_(latency_us) {
    caps_.server = server;
    caps_.concurrent_writers = true;
    caps_.storebench_lock = false;  // no data to guard
    caps_.keeps_data = false;
  }
  const Capabilities& capabilities() const override { return caps_; }
  std::string dialect() const override { return "null"; }
  Result<std::unique_ptr<Connection>> Connect() override {
    return std::unique_ptr<Connection>(new NullConnection(latency_us_));
  }
  Result<std::unique_ptr<BulkWriter>> NewBulkWriter(const std::string&,
                                                    const std::vector<std::string>&) override {
    return std::unique_ptr<BulkWriter>(new NullBulkWriter());
  }
  Result<ServerInfo> Describe() override {
    ServerInfo info;
    info.product = "null";
    info.version = "-";
    return info;
  }
  bool Exists() override { return true; }
  Result<std::unique_ptr<DbLock>> TryLock(const std::string&) override {
    return std::make_unique<DbLock>();
  }

 private:
  int64_t latency_us_;
  Capabilities caps_;
};

}  // namespace

Result<std::unique_ptr<DbBackend>> OpenNull(const DbUrl& url, const BackendOptions&) {
  // ParseDbUrl checked the value.
  const auto it = url.params.find("latency_us");
  const int64_t latency_us =
      it == url.params.end() ? 0 : std::strtoll(it->second.c_str(), nullptr, 10);
  const auto server = url.params.find("server");
  return std::unique_ptr<DbBackend>(
      new NullBackend(latency_us, server != url.params.end() && server->second == "1"));
}

}  // namespace sb::db
