// A real connection whose COMMIT goes through and is then reported as a lost connection: what a
// client sees when the server shuts down right after writing the commit record (a MariaDB
// restart in integration.test_fault_tpcc_restart did this once in CI). Everything else is the
// real connection's.
#ifndef STOREBENCH_TESTS_UNIT_CONFORMANCE_COMMIT_THEN_LOSE_H_
#define STOREBENCH_TESTS_UNIT_CONFORMANCE_COMMIT_THEN_LOSE_H_

#include <memory>
#include <string_view>
#include <utility>

#include "storebench/db.h"

namespace sb::conformance {

class CommitThenLoseConnection final : public db::Connection {
 public:
  explicit CommitThenLoseConnection(std::unique_ptr<db::Connection> real)
      : real_(std::move(real)) {}
  Result<std::unique_ptr<db::Statement>> Prepare(std::string_view sql) override {
    return real_->Prepare(sql);
  }
  Status ExecuteScript(std::string_view sql) override { return real_->ExecuteScript(sql); }
  Status Begin(bool write) override { return real_->Begin(write); }
  Status Commit() override {
    SB_RETURN_IF_ERROR(real_->Commit());
    return Status::Db(ErrorCategory::kConnectionLost, "server closed the connection");
  }
  Status Rollback() override { return real_->Rollback(); }
  int64_t LastInsertId() override { return real_->LastInsertId(); }

 private:
  std::unique_ptr<db::Connection> real_;
};

}  // namespace sb::conformance

#endif  // STOREBENCH_TESTS_UNIT_CONFORMANCE_COMMIT_THEN_LOSE_H_
