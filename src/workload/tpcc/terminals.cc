// Specification-style driving of the TPC-C-like workload (--keying_and_thinking): the terminals'
// state, their keying and think times (TPC-C revision 5.11, clause 5.2.5), and the wait the
// driver asks for after each transaction (driver/terminals.h serves the terminals).
#include <algorithm>
#include <cmath>

#include "workload/tpcc/tpcc_workload.h"

namespace sb::tpcc {

double KeyingSeconds(TxnType t) {
  static constexpr double kKeying[kNumTxnTypes] = {18, 3, 2, 2, 2};
  return kKeying[t];
}

double MeanThinkSeconds(TxnType t, Profile p) {
  static constexpr double kThink[kNumTxnTypes] = {12, 12, 10, 5, 5};
  // HammerDB's driver loop thinks 10 s after a Delivery and 5 s after an Order-Status.
  static constexpr double kHammerDbThink[kNumTxnTypes] = {12, 12, 5, 10, 5};
  return p == Profile::kHammerDb ? kHammerDbThink[t] : kThink[t];
}

int64_t DrawThinkNanos(Random& rng, TxnType t, Profile p) {
  const double r = 1.0 - rng.NextDouble();  // (0, 1]
  const double mean = MeanThinkSeconds(t, p);
  if (p == Profile::kHammerDb) {
    // HammerDB's thinktime: abs(round(log(rand()) * mean)) whole seconds, no cap.
    return static_cast<int64_t>(std::fabs(std::round(std::log(r) * mean))) * 1000000000;
  }
  return static_cast<int64_t>(std::min(-std::log(r) * mean, 10 * mean) * 1e9);
}

double CeilingTpmcPerWarehouse(const Mix& mix, Profile p) {
  const auto shares = mix.Shares();
  double cycle = 0;  // seconds per transaction, on average over the mix
  for (int t = 0; t < kNumTxnTypes; ++t) {
    const auto type = static_cast<TxnType>(t);
    cycle += shares[static_cast<size_t>(t)] * (KeyingSeconds(type) + MeanThinkSeconds(type, p));
  }
  return cycle > 0 ? 10 * 60 * shares[kNewOrder] / cycle : 0;
}

void TpccWorkload::MakeTerminals() {
  terminals_.clear();
  if (!opts_.keying) return;
  const int64_t n = opts_.terminals > 0 ? opts_.terminals : 10 * opts_.warehouses;
  terminals_.reserve(static_cast<size_t>(n));
  for (int64_t t = 0; t < n; ++t) {
    TerminalState& ts = terminals_.emplace_back(
        DeriveSeed(opts_.run_seed, {0x7063, 3, static_cast<uint64_t>(t)}), opts_.mix);
    ts.home = t % opts_.warehouses + 1;
    ts.district = (t / opts_.warehouses) % kDistrictsPerWarehouse + 1;
    if (opts_.profile == Profile::kHammerDb) {
      // As HammerDB's virtual users: a home warehouse and a Stock-Level district drawn once.
      ts.home = ts.rng.Uniform(1, opts_.warehouses);
      ts.district = ts.rng.Uniform(1, kDistrictsPerWarehouse);
    }
  }
}

int64_t TpccWorkload::TerminalWaitNanos(int64_t terminal, bool first) {
  TerminalState& ts = terminals_[static_cast<size_t>(terminal)];
  if (first) {
    // At the start each terminal is at a random point of a think-and-keying span, as if it had
    // been running already; otherwise every terminal whose first transaction is a Payment
    // would be due at the same second, and no New-Order would start for 18 s.
    ts.next = ts.mix.Next(ts.rng);
    const int64_t span = DrawThinkNanos(ts.rng, ts.next, opts_.profile) +
                         static_cast<int64_t>(KeyingSeconds(ts.next) * 1e9);
    return ts.rng.Uniform(0, span);
  }
  const int64_t think = DrawThinkNanos(ts.rng, ts.next, opts_.profile);
  ts.next = ts.mix.Next(ts.rng);
  return think + static_cast<int64_t>(KeyingSeconds(ts.next) * 1e9);
}

Status TpccWorkload::CheckTerminalCount() const {
  if (opts_.keying && static_cast<int64_t>(terminals_.size()) < opts_.threads) {
    return Status::InvalidArgument("--keying_and_thinking needs at least as many terminals (" +
                                   std::to_string(terminals_.size()) +
                                   ") as connections (--n_threads " +
                                   std::to_string(opts_.threads) + ")");
  }
  return Status::Ok();
}

}  // namespace sb::tpcc
