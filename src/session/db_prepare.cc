#include "session/db_prepare.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

#include "backend/db/connect_error.h"
#include "base/clock.h"
#include "base/file_lock.h"
#include "base/strings.h"
#include "driver/run_options.h"
#include "session/op_log_paths.h"
#include "session/output_paths.h"

namespace sb::session {

Result<std::vector<std::string>> ExpandTargets(const std::string& db_url, const std::string& target,
                                               bool* ignored) {
  std::vector<std::string> hosts;
  for (const std::string& h : SplitTrimmed(target, ';')) {
    // user:password@host (DVD Store's own target may carry them): refused without quoting the
    // value, so that the password is never shown (README: passwords never on the command line).
    if (const size_t at = h.find('@'); at != std::string::npos) {
      const bool password = h.find(':') < at;
      return Status::InvalidArgument(
          std::string("--target names hosts (host or host:port), but one holds ") +
          (password ? "a user and a password (not shown)" : "a user") +
          ": put the user in --db and the password in PGPASSWORD or MYSQL_PWD (or ~/.pgpass, "
          "~/.my.cnf)");
    }
    if (!h.empty()) hosts.push_back(h);
  }
  if (hosts.empty() || (hosts.size() == 1 && hosts[0] == "localhost")) {
    return std::vector<std::string>{db_url};
  }
  if (db_url.find(';') != std::string::npos) {
    if (hosts.size() == 1) return std::vector<std::string>{db_url};  // the list names them
    return Status::InvalidArgument(
        "--target and a list in --db both name several databases; give one of them");
  }
  const size_t scheme_end = db_url.find("://");
  const size_t authority = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const size_t path = db_url.find('/', authority);
  if (scheme_end == std::string::npos || path == authority) {
    // A file database has no host to put a target in: a DriverConfig.txt written for a
    // database server carries its host list, which means nothing here (the caller says so).
    if (ignored != nullptr) *ignored = true;
    return std::vector<std::string>{db_url};
  }
  const std::string auth =
      db_url.substr(authority, path == std::string::npos ? std::string::npos : path - authority);
  const size_t at = auth.rfind('@');
  const std::string user = at == std::string::npos ? "" : auth.substr(0, at + 1);
  const std::string host_port = at == std::string::npos ? auth : auth.substr(at + 1);
  const size_t colon = host_port.rfind(':');
  // "[::1]" has colons but no port; "[::1]:5432" and "db1:5432" have one.
  const bool bracketed_colon =
      !host_port.empty() && host_port.front() == '[' && host_port.find(']') > colon;
  const std::string port =
      colon == std::string::npos || bracketed_colon ? "" : host_port.substr(colon);
  const std::string rest = path == std::string::npos ? "" : db_url.substr(path);
  std::vector<std::string> urls;
  for (const std::string& h : hosts) {
    if (h.find_first_of("/@?#") != std::string::npos ||
        std::any_of(h.begin(), h.end(), [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; })) {
      return Status::InvalidArgument("--target: '" + h +
                                     "' is not a host name (write host or host:port)");
    }
    const bool has_port =
        h.front() == '[' ? h.find("]:") != std::string::npos : h.find(':') != std::string::npos;
    std::string url = db_url.substr(0, authority);
    url += user;
    url += h;
    if (!has_port) url += port;
    url += rest;
    urls.push_back(std::move(url));
  }
  return urls;
}

Result<std::unique_ptr<db::DbBackend>> OpenDatabase(const db::BackendRegistry& backends,
                                                    workload::Workload& workload,
                                                    const std::string& url, bool create,
                                                    int busy_timeout_ms) {
  if (url.empty()) {
    return Status::InvalidArgument(
        "no database given; add --db URL (e.g. --db sqlite:///tmp/ds.db)");
  }
  db::BackendOptions bo;
  bo.create_if_missing = create;
  bo.busy_timeout_ms = busy_timeout_ms;
  auto backend = backends.Open(url, bo);
  if (!backend.ok()) return backend.status();
  workload.UseDialect((*backend)->dialect());
  SB_RETURN_IF_ERROR(workload.CheckCapabilities((*backend)->capabilities()));
  return backend;
}

Result<std::unique_ptr<db::DbLock>> LockDatabase(const db::BackendRegistry& backends,
                                                 const std::string& url,
                                                 const std::string& command) {
  if (url.empty()) {
    return Status::InvalidArgument(
        "no database given; add --db URL (e.g. --db sqlite:///tmp/ds.db)");
  }
  // Opening a back end does not create anything (SQLite creates its file on connecting), so a
  // database a load is about to create can be locked first.
  db::BackendOptions bo;
  bo.create_if_missing = true;
  auto backend = backends.Open(url, bo);
  if (!backend.ok()) return backend.status();
  if (!(*backend)->capabilities().storebench_lock) return std::unique_ptr<db::DbLock>();
  auto parsed = db::ParseDbUrl(url);
  const std::string shown = parsed.ok() ? parsed->redacted : url;
  auto lock = (*backend)->TryLock(LockHolderText(command));
  if (lock.ok()) return lock;
  // A server that cannot be reached (down, wrong password, no such database) is that, not a
  // lock problem: its message names the server and what to check.
  if (db::IsConnectError(lock.status())) return lock.status();
  if (lock.status().code() != StatusCode::kFailedPrecondition) {
    return Status::FailedPrecondition(
        "cannot lock the database " + shown +
        " against other storebench processes: " + lock.status().message());
  }
  const std::string& holder = lock.status().message();
  if (holder.find("(pid " + std::to_string(::getpid()) + " on host ") != std::string::npos) {
    return Status::InvalidArgument("the database " + shown +
                                   " is named twice: each instance needs a database of its own");
  }
  return Status::FailedPrecondition("the database " + shown + " is in use by " + holder +
                                    "; wait for it or stop it");
}

namespace {

Result<std::unique_ptr<db::DbBackend>> OpenForPristine(const db::BackendRegistry& backends,
                                                       const std::string& url) {
  auto backend = backends.Open(url, db::BackendOptions{});
  if (!backend.ok()) return backend.status();
  if (!(*backend)->capabilities().pristine_copy) {
    return Status::InvalidArgument("the back end of " + url +
                                   " keeps no pristine copies, so it cannot be restored");
  }
  return backend;
}

}  // namespace

Status RestoreDatabase(const db::BackendRegistry& backends, DbSetup* setup,
                       const std::string& command, bool several) {
  auto backend = OpenForPristine(backends, setup->url);
  if (!backend.ok()) return Named(backend.status(), *setup, several);
  // What runs write, where the workload says: the back end applies it only to a database of
  // that workload (storebench_meta), so a wrong --workload costs a full comparison, no more.
  if (setup->workload != nullptr) {
    if (auto writes = setup->workload->WhatRunsWrite((*backend)->dialect())) {
      (*backend)->HintRunWrites(*writes);
    }
  }
  SteadyClock clock;
  const int64_t start = clock.NowNanos();
  auto method = (*backend)->RestorePristine(&setup->lock, LockHolderText(command));
  if (!method.ok()) {
    Status s = method.status();
    if (s.code() == StatusCode::kFailedPrecondition &&
        s.message().find("has no pristine copy") != std::string::npos) {
      s = Status::FailedPrecondition(s.message() +
                                     "; take one of the database as it is with 'storebench oltp "
                                     "pristine --db URL', or load it with --pristine=Y");
    }
    return Named(s, *setup, several);
  }
  setup->restore_method = *method;
  setup->restore_seconds = static_cast<double>(clock.NowNanos() - start) / kNanosPerSecond;
  return Status::Ok();
}

std::string RestoredWords(const DbSetup& setup, bool several) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", setup.restore_seconds);
  return (several ? "instance " + setup.name + ": " : std::string()) + "restored " + setup.url +
         " to its pristine copy in " + secs + " s (" + setup.restore_method +
         "; not part of the run)";
}

Result<PristineCopy> SavePristineCopy(const db::BackendRegistry& backends, const std::string& url,
                                      std::unique_ptr<db::DbLock>* lock,
                                      const std::string& command) {
  auto backend = OpenForPristine(backends, url);
  if (!backend.ok()) return backend.status();
  SteadyClock clock;
  const int64_t start = clock.NowNanos();
  auto method = (*backend)->SavePristine(lock, LockHolderText(command));
  if (!method.ok()) return method.status();
  return PristineCopy{*method, static_cast<double>(clock.NowNanos() - start) / kNanosPerSecond};
}

std::string PristineWords(const std::string& url, const PristineCopy& copy) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", copy.seconds);
  return "kept a pristine copy of " + url + " in " + secs + " s (" + copy.method +
         "); --restore brings the database back to it";
}

Status PrepareDatabase(const db::BackendRegistry& backends, DbSetup* setup, bool several) {
  workload::Workload& wl = *setup->workload;
  // A short busy timeout for the readiness checks: a database locked by another process is
  // reported at once instead of after the run's 30 s lock wait.
  auto probe = OpenDatabase(backends, wl, setup->url, false, 2000);
  if (!probe.ok()) return Named(probe.status(), *setup, several);
  auto conn = (*probe)->Connect();
  if (!conn.ok()) return Named(conn.status(), *setup, several);
  if (Status s = wl.CheckReady(**conn); !s.ok()) return Named(s, *setup, several);
  if (Status s = (*conn)->Begin(/*write=*/true); !s.ok()) {
    return Named(Status::FailedPrecondition("the database is locked by another process (" +
                                            s.message() + ")"),
                 *setup, several);
  }
  (*conn)->Rollback().IgnoreError();
  auto before = wl.Snapshot(**conn);
  if (!before.ok()) return Named(before.status(), *setup, several);
  setup->before = std::move(before).value();
  auto backend = OpenDatabase(backends, wl, setup->url, false, 30000);
  if (!backend.ok()) return Named(backend.status(), *setup, several);
  setup->backend = std::move(backend).value();
  auto info = setup->backend->Describe();
  if (info.ok()) setup->info = std::move(info).value();
  return Status::Ok();
}

Status CheckRunOptions(const std::vector<DbSetup>& setups) {
  for (const DbSetup& s : setups) {
    auto parsed = driver::RunOptionsFrom(*s.options, s.workload->max_failures(),
                                         s.workload->shape().headlines);
    if (!parsed.ok()) return Named(parsed.status(), s, setups.size() > 1);
  }
  auto op_logs = session::OpLogPathsOf(setups);
  if (!op_logs.ok()) return op_logs.status();
  // Each instance's file, where it will be written: not onto a database, and writable.
  std::vector<PathUse> inputs, outputs;
  for (size_t i = 0; i < setups.size(); ++i) {
    for (PathUse& f : SqliteInputs(setups[i].url)) inputs.push_back(std::move(f));
    outputs.push_back(
        {setups.size() > 1 ? "--op_log of instance " + setups[i].name : "--op_log", (*op_logs)[i]});
  }
  return CheckOutputPaths(inputs, outputs);
}

}  // namespace sb::session
