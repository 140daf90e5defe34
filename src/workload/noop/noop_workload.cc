#include "workload/noop/noop_workload.h"

namespace sb::noop {
namespace {

class NoopSession final : public workload::Session {
 public:
  NoopSession(std::unique_ptr<db::Connection> conn, std::unique_ptr<db::Statement> stmt)
      : conn_(std::move(conn)), stmt_(std::move(stmt)) {}
  Status RunUnit(workload::OpContext& ctx) override {
    return ctx.Step(0, [&] {
      SB_RETURN_IF_ERROR(stmt_->Execute());
      while (stmt_->Next()) {
      }
      return stmt_->status();
    }).status;
  }

 private:
  std::unique_ptr<db::Connection> conn_;
  std::unique_ptr<db::Statement> stmt_;
};

}  // namespace

NoopWorkload::NoopWorkload() {
  shape_.unit_name = "op";
  shape_.headline_name = "ops_per_minute";
  shape_.headlines = {metrics::UnitsPerMinute("ops_per_minute", "operations per minute"),
                      metrics::UnitsPerSecond("ops", "operations per second")};
  shape_.step_types = {"select"};
}

Result<std::unique_ptr<workload::Session>> NoopWorkload::NewSession(
    std::unique_ptr<db::Connection> conn, uint64_t seed, int worker) {
  auto stmt = conn->Prepare("SELECT 1");
  if (!stmt.ok()) return stmt.status();
  return std::unique_ptr<workload::Session>(
      new NoopSession(std::move(conn), std::move(stmt).value()));
}

std::vector<std::pair<std::string, double>> NoopWorkload::Figures(
    const workload::Totals& window, const workload::Totals& since_start,
    const workload::WindowFacts& facts) const {
  const double n = static_cast<double>(window.types[0].count);
  return {{"et", facts.elapsed_sec},
          {"n_overall", n},
          {"ops_per_sec", facts.elapsed_sec > 0 ? n / facts.elapsed_sec : 0}};
}

}  // namespace sb::noop
