#include "session/rank_notes.h"

#include <nlohmann/json.hpp>

namespace sb::session {
namespace {

using Json = nlohmann::json;

Json Workers(const metrics::RunResult& r) {
  Json shares = Json::array();
  for (const metrics::ThreadShare& t : r.threads) shares.push_back({t.units, t.busy_sec});
  return {{"started", r.workers_started},
          {"failed", r.workers_failed},
          {"stalled", r.workers_stalled},
          {"threads", std::move(shares)}};
}

void AddWorkers(const Json& j, metrics::RunResult* r) {
  r->workers_started += j.value("started", int64_t{0});
  r->workers_failed += j.value("failed", int64_t{0});
  r->workers_stalled += j.value("stalled", int64_t{0});
  for (const Json& t : j.value("threads", Json::array())) {
    r->threads.push_back({t.at(0).get<uint64_t>(), t.at(1).get<double>()});
  }
}

}  // namespace

std::string RankNote(const std::vector<DbSetup>& setups, const metrics::RunResult& result) {
  Json restores = Json::array();
  for (size_t i = 0; i < setups.size(); ++i) {
    if (setups[i].restore_seconds < 0) continue;
    restores.push_back({i, setups[i].restore_method, setups[i].restore_seconds});
  }
  Json workers = Json::array();
  if (result.instances.empty()) {
    workers.push_back(Workers(result));
  } else {
    for (const metrics::RunResult& in : result.instances) workers.push_back(Workers(in));
  }
  return Json{{"restores", std::move(restores)}, {"workers", std::move(workers)}}.dump();
}

void AddRankNotes(const std::vector<std::string>& notes, std::vector<DbSetup>* setups,
                  metrics::RunResult* result) {
  const bool several = !result->instances.empty();
  for (size_t k = 1; k < notes.size(); ++k) {
    const Json j = Json::parse(notes[k], nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) continue;  // a lost rank sent nothing
    try {
      for (const Json& rj : j.value("restores", Json::array())) {
        const size_t i = rj.at(0).get<size_t>();
        if (i >= setups->size() || (*setups)[i].restore_seconds >= 0) continue;
        (*setups)[i].restore_method = rj.at(1).get<std::string>();
        (*setups)[i].restore_seconds = rj.at(2).get<double>();
      }
      const Json workers = j.value("workers", Json::array());
      for (size_t i = 0; i < workers.size(); ++i) {
        if (!several) {
          AddWorkers(workers[i], result);
        } else if (i < result->instances.size()) {
          AddWorkers(workers[i], &result->instances[i]);
        }
      }
    } catch (const Json::exception&) {
      continue;  // the same binary wrote it: only a damaged message gets here
    }
  }
  if (!several) return;
  // The aggregate's workers are its instances' (every instance's workers in instance order).
  result->workers_started = result->workers_failed = result->workers_stalled = 0;
  result->threads.clear();
  for (const metrics::RunResult& in : result->instances) {
    result->workers_started += in.workers_started;
    result->workers_failed += in.workers_failed;
    result->workers_stalled += in.workers_stalled;
    result->threads.insert(result->threads.end(), in.threads.begin(), in.threads.end());
  }
}

}  // namespace sb::session
